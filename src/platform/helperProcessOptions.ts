// What a HelperProcess (helperProcess.ts) is told about its helper, and what it answers.

export type HelperMessage = Record<string, unknown>;

/** A line without an id (`{event:'stop'}`), or `{event:'ended'}` when the helper ended on its own. */
export interface HelperEvent {
  event: string;
  [key: string]: unknown;
}

export interface HelperLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface HelperProcessOptions {
  /** Names it in every message: "<name> exited (code 1): <its last stderr>". */
  name: string;
  /** Names it in the give-up message; default `name`. */
  giveUpName?: string;
  /** What to start, asked at each start. */
  launch: () => HelperLaunch;
  defaultTimeoutMs?: number;
  /** A helper that does not answer in time hangs (its calls are synchronous): end it, the next question starts another. Default true. */
  killOnTimeout?: boolean;
  /** Ends the helper after this long without a question; 0: never. Default 2 minutes. */
  idleMs?: number;
  /** Wait for a `{hello}` line (a `fatal` in it: it cannot run) this long before the first question. */
  helloTimeoutMs?: number;
  /** Why the program could not start; default "could not start <command>: <error>". */
  startError?: (error: NodeJS.ErrnoException, command: string) => string;
  /** The message of an `{id, error}` answer; default the error as it came. */
  answerError?: (error: string | undefined) => string;
}

export interface HelperRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}
