// Which launcher runs the in-host suite: @vscode/test-electron with a real VS Code where one is
// installed, else the VS Code server from code-server (scripts/vscodeHost/, see
// ../shared/notes/vscode-host-testing.md). Both run the same test/vscode/suite with the same
// environment and write the same report.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunInHostResult } from '../../../scripts/vscodeHost/run.mjs';

export type LauncherKind = 'electron' | 'code-server';

export interface LauncherChoice {
  kind: LauncherKind;
  /** The VS Code executable for the electron launcher. */
  executable?: string;
  why: string;
}

/**
 * GAI_VSCODE_LAUNCHER=electron|code-server forces one; otherwise a VS Code named by
 * VSCODE_EXECUTABLE (an existing file) is used with @vscode/test-electron, and the code-server
 * launcher otherwise (it needs no download, which test-electron cannot do offline).
 */
export function chooseLauncher(env: NodeJS.ProcessEnv, exists: (path: string) => boolean = existsSync): LauncherChoice {
  const forced = env.GAI_VSCODE_LAUNCHER;
  const executable = env.VSCODE_EXECUTABLE;
  const usable = executable !== undefined && executable !== '' && exists(executable);
  if (forced === 'code-server') return { kind: 'code-server', why: 'GAI_VSCODE_LAUNCHER=code-server' };
  if (forced === 'electron') {
    if (!usable) throw new Error(`GAI_VSCODE_LAUNCHER=electron needs VSCODE_EXECUTABLE set to an installed VS Code (got ${executable ?? 'nothing'})`);
    return { kind: 'electron', executable, why: 'GAI_VSCODE_LAUNCHER=electron' };
  }
  if (forced !== undefined && forced !== '') throw new Error(`GAI_VSCODE_LAUNCHER: expected electron or code-server, got "${forced}"`);
  if (usable) return { kind: 'electron', executable, why: `VSCODE_EXECUTABLE=${executable}` };
  return { kind: 'code-server', why: 'no VS Code executable (VSCODE_EXECUTABLE unset): the code-server launcher' };
}

export interface LaunchRequest {
  extensionPath: string;
  /** Test extensions installed beside it. */
  extraExtensionPaths?: string[];
  testsPath: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Pictures of the whole workbench (code-server launcher only: it drives the browser page). */
  screenshotDir?: string;
}

/** Runs the suite; the result has the code-server launcher's shape whichever launcher ran. */
export async function launchSuite(choice: LauncherChoice, request: LaunchRequest): Promise<RunInHostResult> {
  if (choice.kind === 'code-server') {
    const launcher = (await import('../../../scripts/vscodeHost/run.mjs')) as typeof import('../../../scripts/vscodeHost/run.mjs');
    return launcher.runInHost({ ...request, keepJobDir: true });
  }
  const { runTests } = await import('@vscode/test-electron');
  const jobDir = mkdtempSync(join(tmpdir(), 'gai-vscode-electron-'));
  const started = Date.now();
  let exitCode: number;
  try {
    exitCode = await runTests({
      vscodeExecutablePath: choice.executable!,
      extensionDevelopmentPath: [request.extensionPath, ...(request.extraExtensionPaths ?? [])],
      extensionTestsPath: request.testsPath,
      extensionTestsEnv: request.env,
      launchArgs: ['--user-data-dir', join(jobDir, 'user-data'), '--extensions-dir', join(jobDir, 'extensions'), '--disable-workspace-trust', '--skip-welcome'],
    });
  } catch (error) {
    // runTests rejects on a non-zero exit; the suite's report says what failed.
    exitCode = 1;
    if (!existsSync(join(jobDir, 'user-data'))) {
      rmSync(jobDir, { recursive: true, force: true });
      throw error;
    }
  }
  return { exitCode, logs: [], logFiles: [], durationMs: Date.now() - started, serverPid: 0, jobDir };
}
