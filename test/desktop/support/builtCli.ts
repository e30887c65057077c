import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

// Runs the built CLI (dist/cli.js, what people run) as a child process on the suite display.

export const BUILT_CLI = resolve(__dirname, '../../../dist/cli.js');

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export function runBuiltCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliOutcome> {
  return new Promise((done) => {
    execFile(process.execPath, [BUILT_CLI, ...args], { env, timeout: timeoutMs }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
