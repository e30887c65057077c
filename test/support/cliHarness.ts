import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/common/cliIo';
import { runCli } from '../../src/cli/main';

// Runs the CLI in process with captured streams and an environment the test controls.

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliCaptured(argv: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const io: CliIo = { stdout, stderr, stdin, interactive: false, env };
  try {
    const code = await runCli(argv, io);
    // Let the 'data' events of the last writes run.
    await new Promise((resolve) => setImmediate(resolve));
    return { code, stdout: out, stderr: err };
  } finally {
    stdin.end();
    stdout.end();
    stderr.end();
  }
}

/** A fresh, empty directory; `remove()` deletes it. */
export function tempDir(prefix = 'gai-cli-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
