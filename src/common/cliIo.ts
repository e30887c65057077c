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

/**
 * The same edges with every text written to stdout and stderr passed through `redact` first.
 * A proxy rather than a new stream: isTTY, columns and events stay the terminal's (readline
 * prompts need them).
 */
export function redactingIo(io: CliIo, redact: (text: string) => string): CliIo {
  return { ...io, stdout: redactingStream(io.stdout, redact), stderr: redactingStream(io.stderr, redact) };
}

function redactingStream(stream: NodeJS.WritableStream, redact: (text: string) => string): NodeJS.WritableStream {
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (stream.write as (...args: unknown[]) => boolean).call(stream, typeof chunk === 'string' ? redact(chunk) : chunk, ...rest);
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return write;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
