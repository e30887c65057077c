// The GitHub workflows cannot run here; this reads them as GitHub would (YAML) and holds them to
// what they promise: CI on Linux, Windows and macOS; every `npm run X` a step runs is a script in
// package.json and every file a step runs exists; actions pinned by major version at least; the
// release runs on v* tags only and publishes with the tokens from secrets.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';

const ROOT = resolve(__dirname, '../..');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  'continue-on-error'?: unknown;
}

interface Job {
  'runs-on': string;
  container?: string;
  strategy?: { matrix?: { os?: string[] } };
  steps: Step[];
}

interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

function workflow(name: string): Workflow {
  return load(readFileSync(join(ROOT, '.github/workflows', name), 'utf8')) as Workflow;
}

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const allSteps = (flow: Workflow): Step[] => Object.values(flow.jobs).flatMap((job) => job.steps);
const runs = (flow: Workflow): string[] => allSteps(flow).flatMap((step) => (step.run ? [step.run] : []));

describe('GitHub workflows', () => {
  const ci = workflow('ci.yml');
  const release = workflow('release.yml');

  it('CI runs on ubuntu-latest, windows-latest and macos-latest, Linux in the Debian 12 the project is set up for', () => {
    const oses = Object.values(ci.jobs).flatMap((job) => job.strategy?.matrix?.os ?? [job['runs-on']]);
    assert.deepEqual([...oses].sort(), ['macos-latest', 'ubuntu-latest', 'windows-latest']);
    assert.equal(ci.jobs.linux?.container, 'node:20-bookworm');
    assert.ok('push' in ci.on && 'pull_request' in ci.on);
  });

  it('each OS installs, lints, type-checks, runs the unit suite, an extension-host suite and the smoke test', () => {
    for (const [id, job] of Object.entries(ci.jobs)) {
      const commands = job.steps.flatMap((step) => (step.run ? [step.run] : []));
      for (const wanted of ['npm ci', 'npm run lint', 'npm run typecheck', 'npm run test:unit']) assert.ok(commands.includes(wanted), `${id} runs ${wanted}`);
      assert.ok(commands.some((run) => /npm run test:vscode(-host)?$/.test(run)), `${id} runs an extension-host suite`);
      assert.ok(commands.some((run) => run.endsWith('npm run smoke')), `${id} runs the smoke test`);
    }
    assert.ok(runs(ci).includes('npm run test:desktop'), 'Linux runs the desktop suite');
    assert.ok(runs(ci).some((run) => run.startsWith('xvfb-run -a') && run.endsWith('npm run smoke')), 'Linux smoke test on xvfb-run');
  });

  it('every npm script a step runs is in package.json, and every file a step runs exists', () => {
    for (const flow of [ci, release]) {
      for (const run of runs(flow)) {
        for (const match of run.matchAll(/npm run ([\w:-]+)/g)) assert.ok(scripts[match[1] ?? ''], `package.json has script ${match[1]} (${run})`);
        for (const match of run.matchAll(/node ([\w./-]+\.mjs)/g)) assert.ok(existsSync(join(ROOT, match[1] ?? '')), `${match[1]} exists`);
      }
    }
    for (const name of ['test:unit', 'test:vscode', 'test:desktop', 'test:vscode-host', 'smoke', 'release', 'package']) {
      for (const match of (scripts[name] ?? '').matchAll(/(?:node|mocha\.js) ([\w./-]+\.(?:mjs|ts))/g)) assert.ok(existsSync(join(ROOT, match[1] ?? '')), `${name}: ${match[1]} exists`);
    }
  });

  it('actions are pinned by major version at least', () => {
    const uses = [...allSteps(ci), ...allSteps(release)].flatMap((step) => (step.uses ? [step.uses] : []));
    assert.ok(uses.length > 0);
    for (const action of uses) assert.match(action, /^[\w-]+\/[\w-]+@(v\d+(\.\d+)*|[0-9a-f]{40})$/, action);
  });

  it('the release runs on v* tags only, packages all targets, publishes with secrets and attaches the .vsix files', () => {
    assert.deepEqual(release.on, { push: { tags: ['v*'] } });
    const commands = runs(release);
    assert.ok(commands.some((run) => run.startsWith('npm run package -- --all --out-dir')));
    const publish = allSteps(release).find((step) => step.run?.startsWith('npm run release -- --from-tag --skip-package'));
    assert.ok(publish, 'publishes with scripts/release.mjs --from-tag');
    assert.deepEqual(publish.env, { VSCE_PAT: '${{ secrets.VSCE_PAT }}', OVSX_PAT: '${{ secrets.OVSX_PAT }}' });
    assert.ok(commands.some((run) => run.startsWith('gh release create "$GITHUB_REF_NAME"') && run.includes('vsix/*.vsix')));
    assert.ok(allSteps(release).some((step) => step.uses?.startsWith('actions/upload-artifact@')));
  });
});
