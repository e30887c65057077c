// Types for run.mjs (used from the TypeScript tests under test/vscode/).
export interface RunInHostOptions {
  /** Folder with the extension's package.json (extensionDevelopmentPath). */
  extensionPath: string;
  /** Module exporting run(): Promise<void> (extensionTestsPath), with or without .js. */
  testsPath: string;
  /** More extension folders (test extensions), installed in the run's fresh extensions folder. */
  extraExtensionPaths?: string[];
  /** Folder to open; an empty folder in the job folder otherwise. */
  workspace?: string;
  /** The whole run, start-up included. Default 120000. */
  timeoutMs?: number;
  /** Extra environment for the server and so for the extension host (e.g. a report path). */
  env?: Record<string, string>;
  /** Keep the job folder (user data, logs) for debugging; its path is returned as jobDir. */
  keepJobDir?: boolean;
  /** Where specs' pictures of the whole workbench go (they POST to GAI_WORKBENCH_SHOT). */
  screenshotDir?: string;
  /** Every log line as it arrives ([server], [host:LEVEL], [browser:TYPE], [launcher]). */
  onLog?: (line: string) => void;
}

export interface RunInHostResult {
  /** What the workbench reported through codeAutomationExit: 0 when run() resolved. */
  exitCode: number;
  logs: string[];
  /** The workbench's log files, as handed to codeAutomationExit. */
  logFiles: { relativePath: string; contents: string }[];
  durationMs: number;
  /** The server's pid, also its process group id (the group is gone when runInHost returns). */
  serverPid: number;
  jobDir?: string;
}

export declare class HostRunError extends Error {
  logs: string[];
  timedOut: boolean;
}

export declare const DEFAULT_TIMEOUT_MS: number;
export declare const CHROMIUM_ARGS: string[];
export declare function runInHost(options: RunInHostOptions): Promise<RunInHostResult>;
/** Pids of the living (non-zombie) processes of a process group. */
export declare function livingInGroup(pgid: number): string[];
