// Pure conversions between our message types and the OpenAI chat-completions wire format,
// shared by every OpenAI-compatible server (OpenAI, Ollama, LM Studio, vLLM, Gemini).

import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ContentBlock, ImageBlock, LlmResponse, Message, StopReason, TextBlock, ToolCall, ToolDefinition, ToolResultBlock, ToolUseBlock } from '../messages';
import { limitToolCall } from '../../common/inputLimits';

/**
 * Provider-specific data a server attached to a tool call and wants back verbatim on the next
 * request (Gemini 3 puts its thought signature in `extra_content`); looked up by call id.
 */
export type ToolCallExtras = (toolCallId: string) => unknown;

type ToolCallWithExtras = ChatCompletionMessageFunctionToolCall & { extra_content?: unknown };

export function toChatMessages(
  system: string | undefined,
  messages: Message[],
  extras?: ToolCallExtras,
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system !== undefined && system !== '') out.push({ role: 'system', content: system });
  for (const message of messages) {
    if (message.role === 'assistant') out.push(toAssistantMessage(message.content, extras));
    else out.push(...toUserMessages(message.content));
  }
  return out;
}

function toAssistantMessage(blocks: ContentBlock[], extras?: ToolCallExtras): ChatCompletionMessageParam {
  const text = blocks.filter(isText).map((b) => b.text).join('\n');
  const toolCalls = blocks
    .filter((b): b is ToolUseBlock => b.type === 'tool_use')
    .map((b): ChatCompletionMessageFunctionToolCall => {
      const call: ToolCallWithExtras = {
        id: b.id,
        type: 'function',
        function: { name: b.name, arguments: stringifyArguments(b.input) },
      };
      const extra = extras?.(b.id);
      if (extra !== undefined) call.extra_content = extra;
      return call;
    });
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
}

/**
 * Tool results become `tool` messages, which must directly follow the assistant message that
 * made the calls and cannot carry images; the images (and any other blocks of this user turn)
 * go into one user message after them.
 */
function toUserMessages(blocks: ContentBlock[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_result') continue;
    out.push({ role: 'tool', tool_call_id: block.toolUseId, content: toolResultText(block) });
    const images = block.content.filter(isImage);
    if (images.length > 0) {
      parts.push({ type: 'text', text: `Image(s) returned by tool call ${block.toolUseId}:` });
      parts.push(...images.map(toImagePart));
    }
  }
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push(toImagePart(block));
  }
  if (parts.length === 0) {
    // A user turn with nothing in it still has to be sent as a (empty) user message.
    if (out.length === 0) out.push({ role: 'user', content: '' });
    return out;
  }
  const onlyText = parts.every((p) => p.type === 'text');
  out.push({
    role: 'user',
    content: onlyText ? parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') : parts,
  });
  return out;
}

function toolResultText(block: ToolResultBlock): string {
  return block.content.filter(isText).map((b) => b.text).join('\n');
}

function toImagePart(block: ImageBlock): ChatCompletionContentPartImage {
  const { mediaType, data } = block.source;
  return { type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}` } };
}

function isText(block: ContentBlock): block is TextBlock {
  return block.type === 'text';
}

function isImage(block: TextBlock | ImageBlock): block is ImageBlock {
  return block.type === 'image';
}

function stringifyArguments(input: unknown): string {
  // Arguments we could not parse were kept raw; send them back exactly as the model wrote them.
  if (isRawArguments(input)) return input._raw;
  return JSON.stringify(input ?? {});
}

function isRawArguments(input: unknown): input is { _raw: string } {
  return (
    typeof input === 'object' &&
    input !== null &&
    Object.keys(input).length === 1 &&
    typeof (input as { _raw?: unknown })._raw === 'string'
  );
}

/** Returns undefined for an empty list: some servers reject `tools: []`. */
export function toChatTools(tools: ToolDefinition[]): ChatCompletionFunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

/**
 * Invalid JSON is kept as `{ _raw }` rather than thrown, so the tool runtime's input
 * validation reports it to the model, which can then correct itself.
 */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return { _raw: raw };
  }
}

export function mapFinishReason(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  // Gemini ends tool-call turns with `stop`; the calls are what matters.
  if (hasToolCalls && (reason === 'tool_calls' || reason === 'stop' || reason === 'function_call')) {
    return 'tool_use';
  }
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

export function fromChatCompletion(completion: ChatCompletion, fallbackModel: string): LlmResponse {
  const choice = completion.choices[0];
  const toolCalls: ToolCall[] = [];
  for (const [i, call] of (choice?.message.tool_calls ?? []).entries()) {
    if (call.type !== 'function') continue;
    toolCalls.push(limitToolCall({
      id: call.id || syntheticCallId(i),
      name: call.function.name,
      input: parseToolArguments(call.function.arguments),
    }));
  }
  return {
    content: choice?.message.content ?? '',
    toolCalls,
    stopReason: mapFinishReason(choice?.finish_reason, toolCalls.length > 0),
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
    model: completion.model || fallbackModel,
  };
}

/** `extra_content` of each tool call in a response, by id (see ToolCallExtras). */
export function toolCallExtrasOf(completion: ChatCompletion): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const call of completion.choices[0]?.message.tool_calls ?? []) {
    const extra = (call as { extra_content?: unknown }).extra_content;
    if (call.id && extra !== undefined) out.push([call.id, extra]);
  }
  return out;
}

/** Some local servers leave tool call ids empty; the conversation still needs them. */
function syntheticCallId(position: number): string {
  return `call_${position}_${Math.random().toString(36).slice(2, 10)}`;
}

// ---- Streaming -------------------------------------------------------------------------

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
  extra?: unknown;
  emitted: boolean;
}

type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;

/**
 * Assembles streamed tool calls. OpenAI sends the id and name first and the arguments in
 * fragments under the same `index`; Gemini may omit `index` or reuse index 0 with a new id
 * for each call, so a new non-empty id always starts a new call.
 */
export class ToolCallAccumulator {
  private readonly calls: PartialCall[] = [];
  private readonly byIndex = new Map<number, PartialCall>();

  /** Adds one delta; returns the calls that are now complete because a later one started. */
  add(delta: ToolCallDelta): ToolCall[] {
    const index = typeof delta.index === 'number' ? delta.index : undefined;
    const id = delta.id ?? '';
    let call = index !== undefined ? this.byIndex.get(index) : this.calls.at(-1);
    const completed: ToolCall[] = [];
    if (call === undefined || (id !== '' && call.id !== '' && call.id !== id)) {
      completed.push(...this.takeUnemitted());
      call = { id, name: '', arguments: '', emitted: false };
      this.calls.push(call);
      if (index !== undefined) this.byIndex.set(index, call);
    }
    if (call.id === '' && id !== '') call.id = id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
    const extra = (delta as { extra_content?: unknown }).extra_content;
    if (extra !== undefined) call.extra = extra;
    return completed;
  }

  /** The calls not yet returned by `add`, at the end of the stream. */
  finish(): ToolCall[] {
    return this.takeUnemitted();
  }

  all(): ToolCall[] {
    return this.calls.map((c, i) => this.toToolCall(c, i));
  }

  extras(): Array<[string, unknown]> {
    const out: Array<[string, unknown]> = [];
    for (const [i, call] of this.calls.entries()) {
      if (call.extra !== undefined) out.push([this.idOf(call, i), call.extra]);
    }
    return out;
  }

  private takeUnemitted(): ToolCall[] {
    const out: ToolCall[] = [];
    for (const [i, call] of this.calls.entries()) {
      if (call.emitted) continue;
      call.emitted = true;
      out.push(this.toToolCall(call, i));
    }
    return out;
  }

  private toToolCall(call: PartialCall, position: number): ToolCall {
    return limitToolCall({ id: this.idOf(call, position), name: call.name, input: parseToolArguments(call.arguments) });
  }

  private idOf(call: PartialCall, position: number): string {
    // Fix a synthetic id once so that the emitted chunk and the final response agree.
    if (call.id === '') call.id = syntheticCallId(position);
    return call.id;
  }
}
