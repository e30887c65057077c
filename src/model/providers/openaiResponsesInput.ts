// GAI's history as the `input` of a Responses API request. Pure: only the SDK's types.
//
// The whole history goes in every request (no `previous_response_id`): GAI's conversation is the
// record, and it trims and prunes it. The items a response returned travel with the turn's first
// call (ToolUseBlock.wire) and go back verbatim, reasoning items included, as OpenAI's guide asks
// of callers that do not chain responses. Every computer_call is answered by ONE
// computer_call_output with a screenshot: the newest image among the results of its actions (the
// batch ends with a screenshot action), or, when the batch stopped before it, the newest image of
// the history before the call, with a note saying so. A turn whose computer call has no image at
// all (pruned long ago, or never taken), or whose safety checks the person did not confirm, goes as
// text, without its reasoning items: the API gets no output that leaves a pending check unanswered.

import type {
  EasyInputMessage,
  ResponseComputerToolCall,
  ResponseFunctionToolCall,
  ResponseInputContent,
  ResponseInputImage,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { ContentBlock, ImageBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock, WireItems } from '../messages';
import { COMPUTER_TOOL_NAME } from '../computer/computerActions';
import { actionsOf, computerCallIdOf } from './openaiComputerActions';

export const RESPONSES_WIRE_FORMAT = 'openai-responses';

/** How a computer call of the history is answered; decided with its assistant turn. */
interface ComputerAnswer {
  call: ResponseComputerToolCall;
  /** The image sent when the results have none (the newest before the call), if any. */
  fallback: ImageBlock | undefined;
  asText: boolean;
}

export function toResponsesInput(messages: readonly Message[]): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  let newestImage: ImageBlock | undefined;
  let answers = new Map<string, ComputerAnswer>();
  messages.forEach((message, i) => {
    if (message.role === 'assistant') {
      const turn = assistantItems(message, messages[i + 1], newestImage);
      out.push(...turn.items);
      answers = turn.answers;
    } else {
      out.push(...userItems(message, answers));
      answers = new Map();
    }
    newestImage = lastImage(message.content) ?? newestImage;
  });
  return out;
}

// ---- Assistant turns -------------------------------------------------------------------

type WireItem = ResponseInputItem & { type: string };

function assistantItems(
  message: Message,
  next: Message | undefined,
  newestImage: ImageBlock | undefined,
): { items: ResponseInputItem[]; answers: Map<string, ComputerAnswer> } {
  const wire = message.content.flatMap((b) => (b.type === 'tool_use' && isOurs(b.wire) ? (b.wire.items as WireItem[]) : []));
  const answers = new Map<string, ComputerAnswer>();
  if (wire.length === 0) return { items: plainAssistantItems(message.content, answers), answers };

  const results = next?.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') ?? [];
  const computerCalls = wire.filter((item): item is ResponseComputerToolCall => item.type === 'computer_call');
  const canAnswer = computerCalls.every((call) => {
    const own = resultsOf(call.call_id, results);
    const confirmed = new Set(own[0] ? confirmedIds(own[0]) : []);
    const hasImage = newestImage !== undefined || own.some((r) => lastImage(r.content));
    return hasImage && call.pending_safety_checks.every((c) => confirmed.has(c.id));
  });
  const items: ResponseInputItem[] = [];
  const text: string[] = [];
  for (const item of wire) {
    if (canAnswer) {
      items.push(item);
    } else if (item.type === 'message') {
      text.push(messageText(item));
    } else if (item.type === 'function_call') {
      items.push(item);
    } else if (item.type === 'computer_call') {
      text.push(computerCallText(item as ResponseComputerToolCall));
    }
    // Reasoning items go only with the items that followed them (the API rejects them alone).
  }
  for (const call of computerCalls) answers.set(call.call_id, { call, fallback: newestImage, asText: !canAnswer });
  // The calls this turn's wire items do not hold (another provider's) go as plain items.
  const covered = new Set(wire.flatMap((item) => ('call_id' in item && typeof item.call_id === 'string' ? [item.call_id] : [])));
  const rest = message.content.filter((b) => b.type === 'tool_use' && !covered.has(b.id) && !covered.has(computerCallIdOf(b.id) ?? ''));
  const assistantText = text.filter((t) => t !== '').join('\n');
  return {
    items: [...(assistantText ? [assistantMessage(assistantText)] : []), ...items, ...plainAssistantItems(rest, answers)],
    answers,
  };
}

/** A turn without wire items (another provider's, or a text-only turn). */
function plainAssistantItems(blocks: ContentBlock[], answers: Map<string, ComputerAnswer>): ResponseInputItem[] {
  const text = blocks.filter(isText).map((b) => b.text).join('\n');
  const items: ResponseInputItem[] = text.trim() ? [assistantMessage(text)] : [];
  for (const use of blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use')) {
    // Computer calls without our items (pruned, or another provider's) cannot be rebuilt as
    // computer_calls, nor sent as calls of a function the request does not offer: said in words.
    if (use.name === COMPUTER_TOOL_NAME) {
      items.push(assistantMessage(`[computer action ${use.id}: ${JSON.stringify(use.input)}]`));
      answers.set(use.id, { call: callSentAsText(use.id), fallback: undefined, asText: true });
      continue;
    }
    const call: ResponseFunctionToolCall = { type: 'function_call', call_id: use.id, name: use.name, arguments: argumentsText(use.input) };
    items.push(call);
  }
  return items;
}

/** The record of a computer call that went to the model as text: its id, and no safety checks to answer. */
function callSentAsText(callId: string): ResponseComputerToolCall {
  return { type: 'computer_call', id: callId, call_id: callId, pending_safety_checks: [], status: 'completed' };
}

function computerCallText(call: ResponseComputerToolCall): string {
  return `[computer actions ${call.call_id}: ${JSON.stringify(actionsOf(call))}]`;
}

function messageText(item: WireItem): string {
  const content = (item as { content?: Array<{ type: string; text?: string; refusal?: string }> }).content ?? [];
  return content.map((c) => c.text ?? c.refusal ?? '').join('');
}

function assistantMessage(text: string): EasyInputMessage {
  return { role: 'assistant', content: text };
}

// ---- User turns ------------------------------------------------------------------------

function userItems(message: Message, answers: Map<string, ComputerAnswer>): ResponseInputItem[] {
  const results = message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
  const items: ResponseInputItem[] = [];
  const notes: string[] = [];
  const answered = new Set<string>();
  for (const result of results) {
    const callId = computerCallIdOf(result.toolUseId);
    const answer = answers.get(callId ?? '') ?? answers.get(result.toolUseId);
    if (answer) {
      if (answered.has(answer.call.call_id)) continue;
      answered.add(answer.call.call_id);
      const own = answers.get(result.toolUseId) === answer ? [result] : resultsOf(answer.call.call_id, results);
      if (answer.asText) notes.push(textAnswer(answer.call, own));
      else {
        const { item, note } = computerOutput(answer, own);
        items.push(item);
        if (note) notes.push(note);
      }
      continue;
    }
    items.push({ type: 'function_call_output', call_id: result.toolUseId, output: functionOutput(result) });
  }
  const parts: ResponseInputContent[] = notes.map((text) => ({ type: 'input_text', text }));
  for (const block of message.content) {
    if (block.type === 'text') parts.push({ type: 'input_text', text: block.text });
    else if (block.type === 'image') parts.push(inputImage(block));
  }
  if (parts.length > 0 || items.length === 0) items.push({ role: 'user', content: parts.length > 0 ? parts : '' });
  return items;
}

/** The results of one computer call's actions, in their order. */
function resultsOf(callId: string, results: ToolResultBlock[]): ToolResultBlock[] {
  return results.filter((r) => computerCallIdOf(r.toolUseId) === callId);
}

function computerOutput(answer: ComputerAnswer, results: ToolResultBlock[]): { item: ResponseInputItem.ComputerCallOutput; note?: string } {
  const { call } = answer;
  const own = lastImageOf(results);
  const image = own ?? answer.fallback;
  // Only checks the person confirmed reach here (see assistantItems), so all are acknowledged.
  const acknowledged = call.pending_safety_checks;
  const lines = failureLines(results);
  if (!own) lines.push('No screenshot was taken after these actions; the screenshot sent is the last one from before them.');
  const item: ResponseInputItem.ComputerCallOutput = {
    type: 'computer_call_output',
    call_id: call.call_id,
    output: { type: 'computer_screenshot', image_url: image ? dataUrl(image) : '' },
    ...(acknowledged.length > 0 ? { acknowledged_safety_checks: acknowledged } : {}),
  };
  return { item, ...(lines.length > 0 ? { note: `Computer call ${call.call_id}: ${lines.join(' ')}` } : {}) };
}

function textAnswer(call: ResponseComputerToolCall, results: ToolResultBlock[]): string {
  const texts = results.map((r) => `${r.toolUseId}: ${r.content.filter(isText).map((b) => b.text).join(' ')}`);
  const confirmed = new Set(results[0] ? confirmedIds(results[0]) : []);
  const unconfirmed = call.pending_safety_checks.filter((c) => !confirmed.has(c.id)).map((c) => c.code ?? c.id);
  const denied = unconfirmed.length > 0 ? ` The person did not confirm the safety checks (${unconfirmed.join(', ')}), so none of these actions ran.` : '';
  return `[results of computer actions ${call.call_id}: ${texts.join(' | ') || 'none'}]${denied}`;
}

/** What failed in a batch, in the model's words: the action, its code and why. */
function failureLines(results: ToolResultBlock[]): string[] {
  return results.filter((r) => r.isError).map((r) => {
    const parsed = parseResultText(r);
    const why = parsed.error ?? parsed.observation ?? r.content.filter(isText).map((b) => b.text).join(' ');
    return `action ${r.toolUseId} ${parsed.code ?? 'failed'}: ${why}`;
  });
}

function confirmedIds(result: ToolResultBlock): string[] {
  const confirmed = parseResultText(result).confirmed;
  return Array.isArray(confirmed) ? confirmed.filter((id): id is string => typeof id === 'string') : [];
}

/** The JSON a ToolResult is sent as (tools/toolResult.ts toolResultContent); {} for any other text. */
function parseResultText(result: ToolResultBlock): { code?: string; error?: string; observation?: string; confirmed?: unknown } {
  const first = result.content.find(isText);
  if (!first) return {};
  try {
    const value = JSON.parse(first.text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, string | undefined>) : {};
  } catch {
    return {};
  }
}

function functionOutput(result: ToolResultBlock): string | ResponseInputContent[] {
  const images = result.content.filter(isImage);
  const text = result.content.filter(isText).map((b) => b.text).join('\n');
  if (images.length === 0) return text;
  return [...(text ? [{ type: 'input_text' as const, text }] : []), ...images.map(inputImage)];
}

function inputImage(block: ImageBlock): ResponseInputImage {
  return { type: 'input_image', image_url: dataUrl(block), detail: 'auto' };
}

function dataUrl(block: ImageBlock): string {
  return `data:${block.source.mediaType};base64,${block.source.data}`;
}

function lastImageOf(results: ToolResultBlock[]): ImageBlock | undefined {
  let found: ImageBlock | undefined;
  for (const result of results) found = lastImage(result.content) ?? found;
  return found;
}

function lastImage(blocks: ReadonlyArray<ContentBlock>): ImageBlock | undefined {
  let found: ImageBlock | undefined;
  for (const block of blocks) {
    if (block.type === 'image') found = block;
    else if (block.type === 'tool_result') found = lastImage(block.content) ?? found;
  }
  return found;
}

function isOurs(wire: WireItems | undefined): wire is WireItems {
  return wire?.format === RESPONSES_WIRE_FORMAT && Array.isArray(wire.items);
}

function isText(block: ContentBlock): block is TextBlock {
  return block.type === 'text';
}

function isImage(block: TextBlock | ImageBlock): block is ImageBlock {
  return block.type === 'image';
}

function argumentsText(input: unknown): string {
  // Arguments we could not parse were kept raw; send them back exactly as the model wrote them.
  if (typeof input === 'object' && input !== null && Object.keys(input).length === 1 && typeof (input as { _raw?: unknown })._raw === 'string') {
    return (input as { _raw: string })._raw;
  }
  return JSON.stringify(input ?? {});
}
