// Builds the extension and runs test/vscode/suite/*.spec.cjs inside a real VS Code extension
// host (scripts/vscodeHost/), with the repository root as the extension.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/extension.test.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const RUNNER = join(ROOT, 'test/vscode/suite/index.cjs');

interface HostReport {
  passes: { title: string }[];
  failures: { title: string; error: string }[];
  metrics: { activationMs?: number; activationWallMs?: number };
}

type Launcher = typeof import('../../scripts/vscodeHost/run.mjs');

describe('GAI extension in a real VS Code extension host', function () {
  this.timeout(5 * 60_000);
  let work: string;

  before(() => {
    const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.config.mjs')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, `esbuild failed:\n${built.stdout}${built.stderr}`);
    work = mkdtempSync(join(tmpdir(), 'gai-extension-host-'));
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('activates, registers every command, keeps the API key out of settings', async () => {
    const launcher = (await import('../../scripts/vscodeHost/run.mjs')) as Launcher;
    const reportPath = join(work, 'report.json');
    const result = await launcher.runInHost({
      extensionPath: ROOT,
      testsPath: RUNNER,
      timeoutMs: 180_000,
      env: { GAI_HOST_REPORT: reportPath, ANTHROPIC_API_KEY: '' },
    });
    let report: HostReport;
    try {
      report = JSON.parse(readFileSync(reportPath, 'utf8')) as HostReport;
    } catch (error) {
      assert.fail(`no report at ${reportPath} (${String(error)}); host log:\n${result.logs.slice(-80).join('\n')}`);
    }
    assert.deepEqual(report.failures, [], `host log:\n${result.logs.slice(-80).join('\n')}`);
    assert.equal(result.exitCode, 0);
    const titles = report.passes.map((test) => test.title);
    for (const expected of ['activates', 'registers every command', 'never in settings', 'malformed webview messages']) {
      assert.ok(titles.some((title) => title.includes(expected)), `no passing in-host test about "${expected}": ${titles.join(' | ')}`);
    }
    const { activationMs, activationWallMs } = report.metrics;
    assert.equal(typeof activationMs, 'number');
    console.log(`      activation: ${activationMs?.toFixed(1)} ms in activate(), ${activationWallMs} ms for extension.activate() (load included)`);
    assert.deepEqual(launcher.livingInGroup(result.serverPid), [], 'processes of the VS Code server outlived the run');
  });
});
