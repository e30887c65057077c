// The forms of a call people see: bounded in size, so a huge or deeply nested input from the
// model never floods a prompt, a log line or a card.
import { previewValue } from '../common/inputLimits';
import { escapeInvisibleJson } from '../common/invisibleText';
import type { ToolCall } from '../model/messages';

/** The call with its input bounded for showing: huge or deeply nested input becomes a short preview. */
export function previewCall(call: ToolCall): ToolCall {
  return { ...call, input: previewValue(call.input) };
}

/**
 * One line for a prompt or a card, e.g. `click {"text":"Save"}`. Invisible and control
 * characters in the input show as JSON escapes (`\u202e`, `\u200b`, `\u001b`, `\n`): a person
 * approving a type_text call sees every character it will type.
 */
export function summarizeCall(call: ToolCall): string {
  const input = JSON.stringify(call.input) ?? '';
  return escapeInvisibleJson(`${call.name} ${input.length > 200 ? input.slice(0, 200) + '…' : input}`);
}

