/** The process edges the CLI uses, injectable so commands run in tests and scripts alike. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  /** True when a person can answer prompts. */
  interactive: boolean;
  env: Record<string, string | undefined>;
}

export function out(io: CliIo, text: string): void {
  io.stdout.write(text);
}

export function err(io: CliIo, text: string): void {
  io.stderr.write(text);
}

/** Exit codes: 0 done, 1 failed, 2 bad usage or config, 3 stopped early, 130 cancelled. */
export const EXIT = { ok: 0, failed: 1, usage: 2, stopped: 3, cancelled: 130 } as const;
