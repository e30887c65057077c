// Typed errors with string codes. Model-facing tool failures never throw: they become
// ToolResults. These are for the host: configuration, LLM transport, busy agent.

export type GaiErrorCode =
  | 'CONFIG'
  | 'INVALID_INPUT'
  | 'BUSY'
  | 'LLM_AUTH'
  | 'LLM_RATE_LIMITED'
  | 'LLM_OVERLOADED'
  | 'LLM_BAD_REQUEST'
  | 'LLM_SERVER'
  | 'LLM_CONNECTION'
  | 'LLM_STREAM_INTERRUPTED'
  | 'LLM_TIMEOUT'
  | 'LLM_CANCELLED'
  | 'BRAIN_LOCKED'
  | 'BRAIN_VERSION'
  | 'BRAIN_INVALID'
  | 'BRAIN_NOT_FOUND'
  /** What the request needs does not work on this machine (e.g. watching the person's input on Wayland). */
  | 'UNAVAILABLE';

export class GaiError extends Error {
  constructor(
    readonly code: GaiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GaiError';
  }
}

export function isGaiError(value: unknown, code?: GaiErrorCode): value is GaiError {
  return value instanceof GaiError && (code === undefined || value.code === code);
}

export function errorMessage(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}

/**
 * The desktop cannot be driven here (a Wayland compositor without what GAI needs, a program
 * missing): tools answer UNSUPPORTED_PLATFORM with the message and what to do, never a raw
 * X or socket error.
 */
export class DesktopUnavailableError extends Error {
  constructor(
    message: string,
    /** What the person can do about it. */
    readonly hint: string,
  ) {
    super(message);
    this.name = 'DesktopUnavailableError';
  }
}
