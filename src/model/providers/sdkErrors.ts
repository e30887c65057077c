import { GaiError, errorMessage, type GaiErrorCode } from '../../common/errors';
import { SecretRedactor } from '../../common/redact';

// Both SDKs come from the same generator and name their errors alike, so one mapping
// serves both providers without importing either SDK here.

interface SdkErrorShape {
  name?: string;
  status?: number;
  message?: string;
}

/** Maps an SDK failure to a GaiError whose message names where the request went. */
export function mapSdkError(
  where: string,
  error: unknown,
  options: { midStream?: boolean; aborted?: boolean; secrets?: ReadonlyArray<string | undefined> } = {},
): GaiError {
  if (error instanceof GaiError) return redactLlmError(error, options.secrets);
  const e = (error ?? {}) as SdkErrorShape;
  const name = e.name ?? '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  const detail = errorMessage(error);
  let code: GaiErrorCode;
  let text: string;
  if (options.aborted || name === 'APIUserAbortError' || name === 'AbortError') {
    code = 'LLM_CANCELLED';
    text = 'the request was cancelled';
  } else if (name === 'APIConnectionTimeoutError') {
    code = 'LLM_TIMEOUT';
    text = 'the request timed out';
  } else if (options.midStream && status === undefined) {
    code = 'LLM_STREAM_INTERRUPTED';
    text = `the connection was lost mid-response (${detail})`;
  } else if (name === 'APIConnectionError' || status === undefined) {
    code = 'LLM_CONNECTION';
    text = `could not connect (${detail})`;
  } else {
    code = statusErrorCode(status);
    text = `${status} ${detail}`;
  }
  return redactLlmError(new GaiError(code, `${where}: ${text}`, { cause: error }), options.secrets);
}

/**
 * The error with the key in use and every credential shape removed from its text, and the SDK's
 * error (which holds the response body and headers) replaced by a redacted stand-in: a server
 * may echo the credentials it was sent (a 401 body quoting the key), and whoever prints the
 * error or its cause must not print them.
 */
export function redactLlmError(error: GaiError, secrets: ReadonlyArray<string | undefined> = []): GaiError {
  const redactor = new SecretRedactor({ secrets });
  const cause = error.cause;
  const safeCause =
    cause === undefined
      ? undefined
      : Object.assign(new Error(redactor.redact(errorMessage(cause))), {
          name: cause instanceof Error ? cause.name : 'Error',
          ...(typeof (cause as SdkErrorShape).status === 'number' ? { status: (cause as SdkErrorShape).status } : {}),
        });
  const redacted = new GaiError(error.code, redactor.redact(error.message), safeCause ? { cause: safeCause } : undefined);
  if (error.stack) redacted.stack = redactor.redact(error.stack);
  return redacted;
}

/** The error code for an HTTP status from an LLM API. */
export function statusErrorCode(status: number): GaiErrorCode {
  if (status === 401 || status === 403) return 'LLM_AUTH';
  if (status === 429) return 'LLM_RATE_LIMITED';
  if (status === 529 || status === 503) return 'LLM_OVERLOADED';
  if (status >= 500) return 'LLM_SERVER';
  return 'LLM_BAD_REQUEST';
}
