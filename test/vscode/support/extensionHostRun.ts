// One run of test/vscode/suite/*.spec.cjs inside a real VS Code extension host with the
// repository as the extension, on a private Xvfb display with the fixture app (the chat specs
// click in it). Used by test/vscode/extension.test.ts and by `npm run bench -- extension`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { VirtualDisplay } from '../../../src/platform/linux/x11/virtualDisplay';
import { launchFixture } from '../../desktop/support/fixture';
import { screenshotPath } from '../../webview/browserHarness';
import type { RunInHostResult } from '../../../scripts/vscodeHost/run.mjs';
import { chooseLauncher, launchSuite, type LauncherChoice } from './hostLauncher';

const ROOT = resolve(__dirname, '../../..');
const RUNNER = join(ROOT, 'test/vscode/suite/index.cjs');
const SUPPORT_ENTRY = join(ROOT, 'test/vscode/suite/support/hostSupport.ts');

export interface HostMetrics {
  activationMs?: number;
  activationWallMs?: number;
  sendToFirstTokenMs?: number;
  sendToFirstTokenWarmMs?: number;
  sendToFirstTokenWarmMaxMs?: number;
  stopMs?: number;
}

export interface HostReport {
  passes: { title: string }[];
  failures: { title: string; error: string }[];
  metrics: HostMetrics;
}

export interface ExtensionHostRun {
  /** Undefined when the suite wrote no report (the host did not start); `problem` says why. */
  report?: HostReport;
  problem?: string;
  result: RunInHostResult;
  launcher: LauncherChoice;
  /** The server's log files (the GAI log channel among them), read before the job folder is removed. */
  serverLogs: { path: string; contents: string }[];
}

export async function runExtensionSuite(options: { grep?: string } = {}): Promise<ExtensionHostRun> {
  const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.config.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`esbuild failed:\n${built.stdout}${built.stderr}`);
  const work = mkdtempSync(join(tmpdir(), 'gai-extension-host-'));
  let display: VirtualDisplay | undefined;
  let fixture: Awaited<ReturnType<typeof launchFixture>> | undefined;
  try {
    const support = join(work, 'hostSupport.cjs');
    await esbuild.build({ entryPoints: [SUPPORT_ENTRY], outfile: support, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
    display = await VirtualDisplay.start({ width: 1280, height: 800 });
    fixture = await launchFixture(display);
    const launcher = chooseLauncher(process.env);
    const reportPath = join(work, 'report.json');
    const result = await launchSuite(launcher, {
      extensionPath: ROOT,
      // A scripted chat model offered through vscode.lm (no Copilot here), for provider vscode-lm.
      extraExtensionPaths: [join(ROOT, 'test/vscode/fixtures/lmTestExtension')],
      testsPath: RUNNER,
      // docs/screenshots only when asked (GAI_UPDATE_SCREENSHOTS=1), like the browser tests.
      screenshotDir: dirname(screenshotPath('workbench.png')),
      timeoutMs: 420_000,
      env: {
        GAI_HOST_REPORT: reportPath,
        ANTHROPIC_API_KEY: '',
        GAI_HOST_SUPPORT: support,
        GAI_FIXTURE_LOG: fixture.logPath,
        ...(options.grep ? { GAI_HOST_GREP: options.grep } : {}),
        // DISPLAY for the host, and nothing that points at the person's own session.
        DISPLAY: display.env.DISPLAY ?? '',
        WAYLAND_DISPLAY: '',
        DBUS_SESSION_BUS_ADDRESS: display.env.DBUS_SESSION_BUS_ADDRESS ?? '',
      },
    });
    const serverLogs = result.jobDir ? logFilesUnder(result.jobDir) : [];
    if (result.jobDir) rmSync(result.jobDir, { recursive: true, force: true });
    try {
      const report = JSON.parse(readFileSync(reportPath, 'utf8')) as HostReport;
      return { report, result, launcher, serverLogs };
    } catch (error) {
      return { problem: `no report at ${reportPath} (${String(error)})`, result, launcher, serverLogs };
    }
  } finally {
    await fixture?.close();
    await display?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function logFilesUnder(dir: string): { path: string; contents: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.log'))
    .map((name) => ({ path: name, contents: readFileSync(join(dir, name), 'utf8') }));
}
