// The CLI's safe default: the same tool profile as the extension (`standard`, no `system`
// tools), with commands a person types directly still able to act and launch; and bad input
// on the command line is bad usage (exit 2), as the README says.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseSettings } from '../../src/vscode/settings';
import { DEFAULT_TOOL_PROFILE } from '../../src/runtime/toolPolicy';
import { runCliCaptured, tempDir, type CliRun } from '../support/cliHarness';

const ROOT = resolve(__dirname, '../..');

describe('gai CLI: default tool profile and exit codes', function () {
  this.timeout(20_000);

  let dir: { path: string; remove(): void };
  /** No API keys; an empty config home, so no user config is read. */
  const run = (argv: string[]): Promise<CliRun> => runCliCaptured(argv, { XDG_CONFIG_HOME: dir.path });
  const toolNames = (stdout: string): string[] => (JSON.parse(stdout) as Array<{ name: string }>).map((t) => t.name);

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('is the extension\'s default too: standard, in the code and in package.json', () => {
    assert.equal(DEFAULT_TOOL_PROFILE, 'standard');
    assert.equal(parseSettings(() => undefined).toolProfile, DEFAULT_TOOL_PROFILE);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { configuration: Array<{ properties: Record<string, { default?: unknown }> }> };
    };
    const setting = manifest.contributes.configuration.find((section) => 'gai.toolProfile' in section.properties);
    assert.equal(setting?.properties['gai.toolProfile']?.default, DEFAULT_TOOL_PROFILE);
  });

  it('shows the model no system tools by default; --profile full and the config file bring them back', async () => {
    const byDefault = await run(['tools', '--json']);
    assert.equal(byDefault.code, 0, byDefault.stderr);
    const names = toolNames(byDefault.stdout);
    assert.ok(names.includes('click') && names.includes('type_text') && names.includes('navigate_to'), names.join(', '));
    assert.ok(!names.includes('launch_app') && !names.includes('spotlight'), `system tools shown: ${names.join(', ')}`);

    const full = await run(['tools', '--json', '--profile', 'full']);
    assert.ok(toolNames(full.stdout).includes('launch_app'));
    const config = join(dir.path, 'config.json');
    writeFileSync(config, JSON.stringify({ tools: { profile: 'full' } }));
    assert.ok(toolNames((await run(['--config', config, 'tools', '--json'])).stdout).includes('launch_app'));
  });

  it('denies `gai tool launch_app` under the default profile before anything runs, naming the profile', async () => {
    const { code, stdout, stderr } = await run(['tool', 'launch_app', '--input', '{"appName":"gai-no-such-app"}', '--yes']);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /^DENIED: .*launch_app \(risk "system"\) is not allowed by the "standard" tool profile/m);
    assert.match(stderr, /^hint: run it with --profile full, or set tools\.profile or tools\.allow in the config file$/m);
  });

  it('points a tool on the deny list at the config file, not at --profile', async () => {
    const config = join(dir.path, 'config.json');
    writeFileSync(config, JSON.stringify({ tools: { deny: ['echo'] } }));
    const { code, stderr } = await run(['--config', config, 'tool', 'echo', '--input', '{"message":"hi"}', '--profile', 'full']);
    assert.equal(code, 1);
    assert.match(stderr, /^DENIED: .*echo is on the deny list/m);
    assert.match(stderr, /^hint: echo is on tools\.deny in the config file; remove it there to run it$/m);
  });

  it('lets --profile full reach launch_app (its input is checked next: bad input exits 2)', async () => {
    const { code, stderr } = await run(['tool', 'launch_app', '--profile', 'full', '--input', '{"appName":""}']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^INVALID_INPUT: .*appName/m);
  });

  it('keeps `gai launch` (a command the person typed) past the profile; its bad input exits 2 too', async () => {
    // Input that fails validation: the policy check comes first, so reaching it proves the
    // direct command is not refused by the default profile, and nothing is started.
    const { code, stderr } = await run(['launch', 'gedit', '--timeout', '100']);
    assert.equal(code, 2, stderr);
    assert.doesNotMatch(stderr, /DENIED/);
    assert.match(stderr, /^INVALID_INPUT: .*timeoutMs/m);
  });
});
