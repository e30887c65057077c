import { GaiError, errorMessage, type GaiErrorCode } from '../../core/errors';

// Both SDKs come from the same generator and name their errors alike, so one mapping
// serves both providers without importing either SDK here.

interface SdkErrorShape {
  name?: string;
  status?: number;
  message?: string;
}

/** Maps an SDK failure to a GaiError whose message names where the request went. */
export function mapSdkError(where: string, error: unknown, options: { midStream?: boolean; aborted?: boolean } = {}): GaiError {
  if (error instanceof GaiError) return error;
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
  return new GaiError(code, `${where}: ${text}`, { cause: error });
}

/** The error code for an HTTP status from an LLM API. */
export function statusErrorCode(status: number): GaiErrorCode {
  if (status === 401 || status === 403) return 'LLM_AUTH';
  if (status === 429) return 'LLM_RATE_LIMITED';
  if (status === 529 || status === 503) return 'LLM_OVERLOADED';
  if (status >= 500) return 'LLM_SERVER';
  return 'LLM_BAD_REQUEST';
}
