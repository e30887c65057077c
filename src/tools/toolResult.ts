import type { ImageBlock, TextBlock, ToolErrorCode, ToolResult } from '../core/types';

// Builders keep every result in one shape (seed 002 phase 2). `durationMs` is filled in by
// whoever timed the call (the runtime); builders leave it at 0.

export const ToolResults = {
  success<T>(observation: string, data?: T, images?: ImageBlock[]): ToolResult<T> {
    return { success: true, data, observation, durationMs: 0, ...(images?.length ? { images } : {}) };
  },

  failure(code: ToolErrorCode, error: string, options: { observation?: string; hint?: string; data?: unknown } = {}): ToolResult {
    return {
      success: false,
      code,
      error,
      observation: options.observation ?? error,
      durationMs: 0,
      ...(options.hint ? { hint: options.hint } : {}),
      ...(options.data !== undefined ? { data: options.data } : {}),
    };
  },

  invalidInput(toolName: string, errors: string[]): ToolResult {
    return ToolResults.failure('INVALID_INPUT', `Invalid input for tool ${toolName}: ${errors.join('; ')}`, {
      observation: `${toolName} did not run: its input was invalid (${errors.join('; ')}).`,
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

const MAX_TEXT_CHARS = 20_000;

/**
 * What the model receives for a result: a JSON text block (without the images) followed by
 * the images as image blocks, so screenshots are seen, not read as base64 text.
 */
export function toolResultContent(result: ToolResult): Array<TextBlock | ImageBlock> {
  const payload: Record<string, unknown> = { success: result.success, observation: result.observation };
  if (result.success) {
    if (result.data !== undefined) payload.data = result.data;
  } else {
    payload.code = result.code;
    payload.error = result.error;
    if (result.hint) payload.hint = result.hint;
    if (result.data !== undefined) payload.data = result.data;
  }
  let text = JSON.stringify(payload);
  if (text.length > MAX_TEXT_CHARS && payload.data !== undefined) {
    // Cut the data, not the JSON, so the model still gets a parseable result.
    const data = JSON.stringify(payload.data);
    const keep = Math.max(0, MAX_TEXT_CHARS - (text.length - data.length) - 200);
    payload.data = { truncated: true, originalLength: data.length, preview: data.slice(0, keep) };
    text = JSON.stringify(payload);
  }
  return [{ type: 'text', text }, ...(result.images ?? [])];
}
