import { boundText, previewText } from '../common/inputLimits';
import { TOOL_ERROR_CODES, type ToolErrorCode, type ToolResult } from './toolTypes';
import type { ImageBlock, TextBlock } from '../model/messages';

// Builders keep every result in one shape (seed 002 phase 2). `durationMs` is filled in by
// whoever timed the call (the runtime); builders leave it at 0. Texts are bounded here: a tool
// may echo a huge input into its error, and the model must never receive megabytes for it.

/** Characters of an observation, an error or a hint. */
export const MAX_RESULT_FIELD_CHARS = 2_000;
/** Problems listed in an invalid-input result, and characters of each. */
const MAX_INPUT_ERRORS = 10;
const MAX_INPUT_ERROR_CHARS = 300;

export const ToolResults = {
  success<T>(observation: string, data?: T, images?: ImageBlock[]): ToolResult<T> {
    return { success: true, data, observation: bound(observation), durationMs: 0, ...(images?.length ? { images } : {}) };
  },

  failure(code: ToolErrorCode, error: string, options: { observation?: string; hint?: string; data?: unknown } = {}): ToolResult {
    return {
      success: false,
      code,
      error: bound(error),
      observation: bound(options.observation ?? error),
      durationMs: 0,
      ...(options.hint ? { hint: bound(options.hint) } : {}),
      ...(options.data !== undefined ? { data: options.data } : {}),
    };
  },

  invalidInput(toolName: string, errors: string[]): ToolResult {
    const shown = errors.slice(0, MAX_INPUT_ERRORS).map((e) => boundText(e, MAX_INPUT_ERROR_CHARS));
    if (errors.length > MAX_INPUT_ERRORS) shown.push(`and ${errors.length - MAX_INPUT_ERRORS} more`);
    const list = shown.join('; ');
    return ToolResults.failure('INVALID_INPUT', `Invalid input for tool ${toolName}: ${list}`, {
      observation: `${toolName} did not run: its input was invalid (${list}).`,
    });
  },

  notFound(error: string, hint?: string): ToolResult {
    return ToolResults.failure('NOT_FOUND', error, { hint });
  },

  timeout(toolName: string, timeoutMs: number): ToolResult {
    return ToolResults.failure('TIMEOUT', `Tool execution timeout: ${toolName} took longer than ${timeoutMs} ms`, {
      observation: `${toolName} was stopped after ${timeoutMs} ms; it may have partly happened.`,
    });
  },

  cancelled(toolName: string, why = 'the request was cancelled'): ToolResult {
    return ToolResults.failure('CANCELLED', `Tool execution cancelled: ${toolName}`, {
      observation: `${toolName} did not complete: ${why}.`,
    });
  },

  denied(toolName: string, what: string, why = 'the user denied it'): ToolResult {
    return ToolResults.failure('DENIED', `Denied: ${toolName}`, {
      observation: `${toolName} did NOT run (${why}): ${what} did not happen.`,
    });
  },

  unsupportedPlatform(toolName: string, platform: string, hint: string): ToolResult {
    return ToolResults.failure('UNSUPPORTED_PLATFORM', `${toolName} is not supported on ${platform}`, { hint });
  },
};

/**
 * The one shape every result leaves a tool in, whatever the tool built: a failure always has a
 * code (FAILED when the tool gave none) and an error; texts are strings, bounded.
 */
export function normalizeResult(result: ToolResult): ToolResult {
  const observation = typeof result.observation === 'string' ? result.observation : previewText(result.observation);
  if (result.success === true) return { ...result, observation: bound(observation) };
  const code = isToolErrorCode(result.code) ? result.code : 'FAILED';
  const error = typeof result.error === 'string' && result.error !== '' ? result.error : observation || 'the tool failed without saying why';
  return {
    ...result,
    success: false,
    code,
    error: bound(error),
    observation: bound(observation || error),
    ...(result.hint !== undefined ? { hint: bound(typeof result.hint === 'string' ? result.hint : previewText(result.hint)) } : {}),
  };
}

function isToolErrorCode(code: unknown): code is ToolErrorCode {
  return (TOOL_ERROR_CODES as readonly unknown[]).includes(code);
}

function bound(text: string): string {
  return boundText(text, MAX_RESULT_FIELD_CHARS);
}

/** The cap on a result's text block for the model (images come as their own blocks). */
export const MAX_RESULT_TEXT_CHARS = 20_000;

/**
 * What the model receives for a result: a JSON text block (without the images) followed by
 * the images as image blocks, so screenshots are seen, not read as base64 text. The text is
 * always parseable JSON under MAX_RESULT_TEXT_CHARS.
 */
export function toolResultContent(result: ToolResult): Array<TextBlock | ImageBlock> {
  const safe = normalizeResult(result);
  // The code first: whoever reads only the start of a failure still learns what kind it is.
  const payload: Record<string, unknown> = safe.success
    ? { success: true, observation: safe.observation }
    : { success: false, code: safe.code, observation: safe.observation };
  if (!safe.success) {
    payload.error = safe.error;
    if (safe.hint) payload.hint = safe.hint;
  }
  if (safe.data !== undefined) payload.data = safe.data;
  // The history carries only this text: a provider reads here which flagged checks were confirmed.
  if (safe.confirmed?.length) payload.confirmed = safe.confirmed;
  return [{ type: 'text', text: fitText(payload) }, ...(safe.images ?? [])];
}

/** Cuts the data first, then the texts, until the JSON fits; escaping can make text grow up to 6×. */
function fitText(payload: Record<string, unknown>): string {
  const whole = stringifyOr(payload);
  if (whole !== undefined && whole.length <= MAX_RESULT_TEXT_CHARS) return whole;
  if (payload.data !== undefined) {
    const data = stringifyOr(payload.data) ?? previewText(payload.data, MAX_RESULT_TEXT_CHARS);
    for (let keep = MAX_RESULT_TEXT_CHARS; keep >= 100; keep = Math.floor(keep / 2)) {
      payload.data = { truncated: true, originalLength: data.length, preview: boundText(data, keep) };
      const text = stringifyOr(payload);
      if (text !== undefined && text.length <= MAX_RESULT_TEXT_CHARS) return text;
    }
    payload.data = { truncated: true, originalLength: data.length };
  }
  for (const field of ['hint', 'error', 'observation']) {
    if (typeof payload[field] === 'string') payload[field] = boundText(payload[field], 200);
    const text = stringifyOr(payload);
    if (text !== undefined && text.length <= MAX_RESULT_TEXT_CHARS) return text;
  }
  return JSON.stringify({ success: payload.success, code: payload.code, observation: 'the result was too large to show' });
}

/** JSON text, or undefined when the value cannot be serialised (too deep, a cycle, a BigInt). */
function stringifyOr(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
