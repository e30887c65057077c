// Hosts decide where logs go (stderr for the CLI, a LogOutputChannel in VS Code).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export class NullLogger implements Logger {
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(): void {}
}

/** Writes to a sink (stderr by default) with a level filter. */
export class StreamLogger implements Logger {
  constructor(
    private readonly minLevel: LogLevel = 'info',
    private readonly write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
  ) {}

  debug(message: string): void {
    this.log('debug', message);
  }
  info(message: string): void {
    this.log('info', message);
  }
  warn(message: string): void {
    this.log('warn', message);
  }
  error(message: string): void {
    this.log('error', message);
  }

  private log(level: LogLevel, message: string): void {
    if (LEVEL_ORDER[level] >= LEVEL_ORDER[this.minLevel]) this.write(`[${level}] ${message}`);
  }
}

/** Keeps lines in memory; for tests and for the extension's log view. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  debug(message: string): void {
    this.lines.push(`[debug] ${message}`);
  }
  info(message: string): void {
    this.lines.push(`[info] ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`[warn] ${message}`);
  }
  error(message: string): void {
    this.lines.push(`[error] ${message}`);
  }
}

/** Passes every line through a redactor first, so no sink (stderr, output channel) ever sees a key. */
export class RedactingLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly redactor: { redact(text: string): string },
  ) {}

  debug(message: string): void {
    this.inner.debug(this.redactor.redact(message));
  }
  info(message: string): void {
    this.inner.info(this.redactor.redact(message));
  }
  warn(message: string): void {
    this.inner.warn(this.redactor.redact(message));
  }
  error(message: string): void {
    this.inner.error(this.redactor.redact(message));
  }
}
