// Builds the extension and runs test/vscode/suite/*.spec.cjs inside a real VS Code extension
// host (scripts/vscodeHost/), with the repository root as the extension, on a private Xvfb
// display with the fixture app (the chat specs click in it).
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/extension.test.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { VirtualDisplay } from '../../src/desktop/virtualDisplay';
import { launchFixture, type Fixture } from '../desktop/support/fixture';

const ROOT = resolve(__dirname, '../..');
const RUNNER = join(ROOT, 'test/vscode/suite/index.cjs');
const SUPPORT_ENTRY = join(ROOT, 'test/vscode/suite/support/hostSupport.ts');
/** The key the chat spec stores; it must appear in no log of the run. */
const SPEC_KEYS = ['sk-ant-gai-chat-test-9876543210-NOT-A-REAL-KEY', 'sk-ant-gai-host-test-0123456789-NOT-A-REAL-KEY'];

interface HostReport {
  passes: { title: string }[];
  failures: { title: string; error: string }[];
  metrics: { activationMs?: number; activationWallMs?: number; sendToFirstTokenMs?: number; sendToFirstTokenWarmMs?: number; sendToFirstTokenWarmMaxMs?: number; stopMs?: number };
}

type Launcher = typeof import('../../scripts/vscodeHost/run.mjs');

describe('GAI extension in a real VS Code extension host', function () {
  this.timeout(5 * 60_000);
  let work: string;
  let display: VirtualDisplay | undefined;
  let fixture: Fixture | undefined;

  before(async () => {
    const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.config.mjs')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, `esbuild failed:\n${built.stdout}${built.stderr}`);
    work = mkdtempSync(join(tmpdir(), 'gai-extension-host-'));
    await esbuild.build({ entryPoints: [SUPPORT_ENTRY], outfile: join(work, 'hostSupport.cjs'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
    display = await VirtualDisplay.start({ width: 1280, height: 800 });
    fixture = await launchFixture(display);
  });

  after(async () => {
    await fixture?.close();
    await display?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('activates, registers every command, keeps the API key out of settings', async () => {
    const launcher = (await import('../../scripts/vscodeHost/run.mjs')) as Launcher;
    const reportPath = join(work, 'report.json');
    const result = await launcher.runInHost({
      extensionPath: ROOT,
      testsPath: RUNNER,
      timeoutMs: 180_000,
      keepJobDir: true,
      env: {
        GAI_HOST_REPORT: reportPath,
        ANTHROPIC_API_KEY: '',
        GAI_HOST_SUPPORT: join(work, 'hostSupport.cjs'),
        GAI_FIXTURE_LOG: fixture!.logPath,
        ...desktopEnv(display!),
      },
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
    for (const expected of [
      'activates',
      'registers every command',
      'never in settings',
      'malformed webview messages',
      'chat view renders',
      'tool card, approval',
      'Stop cancels',
      'status-bar item shows a screen summary',
    ]) {
      assert.ok(titles.some((title) => title.includes(expected)), `no passing in-host test about "${expected}": ${titles.join(' | ')}`);
    }
    const { activationMs, activationWallMs, sendToFirstTokenMs, sendToFirstTokenWarmMs, sendToFirstTokenWarmMaxMs, stopMs } = report.metrics;
    assert.equal(typeof activationMs, 'number');
    console.log(`      activation: ${activationMs?.toFixed(1)} ms in activate(), ${activationWallMs} ms for extension.activate() (load included)`);
    console.log(
      `      Send → first token: first request ${sendToFirstTokenMs?.toFixed(1)} ms (builds the agent), warm median ${sendToFirstTokenWarmMs?.toFixed(1)} ms ` +
        `(max ${sendToFirstTokenWarmMaxMs?.toFixed(1)}), scripted model answering at once; Stop → idle ${stopMs} ms`,
    );
    // Every log the run wrote: the launcher's, the workbench's, and the server's files (the GAI
    // log channel among them).
    const serverLogs = result.jobDir ? logFilesUnder(result.jobDir) : [];
    if (result.jobDir) rmSync(result.jobDir, { recursive: true, force: true });
    assert.ok(serverLogs.some((file) => /activated in/.test(file.contents) && /GAI/.test(file.path)), 'the GAI log channel was written');
    const logText = [...result.logs, ...result.logFiles.map((file) => file.contents), ...serverLogs.map((file) => file.contents)].join('\n');
    for (const key of SPEC_KEYS) assert.ok(!logText.includes(key), 'the API key reached a log');
    assert.deepEqual(launcher.livingInGroup(result.serverPid), [], 'processes of the VS Code server outlived the run');
  });
});

/** DISPLAY for the host, and nothing that points at the person's own session. */
function desktopEnv(display: VirtualDisplay): Record<string, string> {
  return { DISPLAY: display.env.DISPLAY ?? '', WAYLAND_DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: display.env.DBUS_SESSION_BUS_ADDRESS ?? '' };
}

function logFilesUnder(dir: string): { path: string; contents: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.log'))
    .map((name) => ({ path: name, contents: readFileSync(join(dir, name), 'utf8') }));
}
