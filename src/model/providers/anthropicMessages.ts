import type Anthropic from '@anthropic-ai/sdk';
import { limitToolCall } from '../../common/inputLimits';
import type { ContentBlock, LlmResponse, Message, StopReason, TokenUsage, ToolCall, ToolDefinition, ToolResultBlock } from '../messages';
import { COMPUTER_TOOL_NAME } from '../computer/computerActions';

// Pure translation between our types and the Messages API wire format.

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type ToolParam = Anthropic.Messages.Tool;

export const CACHE = { type: 'ephemeral' } as const;

/** The toolset family the API stamps on computer toolset member calls (`tool_use.toolset_name`). */
export const COMPUTER_TOOLSET_NAME = 'computer';

/**
 * Marks the last block of the last message for prompt caching, so each iteration of the
 * agent loop reads the previous iteration's prefix from the cache instead of paying for it.
 */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const params = messages.map((m) => ({ role: m.role, content: m.content.map(toBlockParam) }));
  const lastBlock = params.at(-1)?.content.at(-1);
  if (lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
    (lastBlock as { cache_control?: typeof CACHE }).cache_control = CACHE;
  }
  return params;
}

function toBlockParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: block.source.mediaType, data: block.source.data } };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        is_error: block.isError,
        // The API takes only text in an is_error result (a 400 otherwise): a failed call's screenshot stays out.
        content: (block.isError ? errorContent(block.content) : block.content).map((c) =>
          c.type === 'text'
            ? { type: 'text' as const, text: c.text }
            : { type: 'image' as const, source: { type: 'base64' as const, media_type: c.source.mediaType, data: c.source.data } },
        ),
      };
  }
}

function errorContent(content: ToolResultBlock['content']): ToolResultBlock['content'] {
  const text = content.filter((c) => c.type === 'text' && c.text !== '');
  return text.length ? text : [{ type: 'text', text: 'The tool call failed.' }];
}

/** The tool list is a stable prefix of every request: cache it too (unless another entry ends it). */
export function toAnthropicTools(tools: readonly ToolDefinition[], options: { cacheLast?: boolean } = {}): ToolParam[] {
  const cacheLast = options.cacheLast ?? true;
  return tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as ToolParam['input_schema'],
    ...(cacheLast && i === tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
}

export function toStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return reason;
    default:
      return 'other';
  }
}

export interface AnthropicUsageShape {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

export function toUsage(usage: AnthropicUsageShape | undefined): TokenUsage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage?.output_tokens ?? 0,
    ...(cacheRead ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

export function fromAnthropicMessage(message: Anthropic.Messages.Message | Anthropic.Beta.Messages.BetaMessage): LlmResponse {
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content += block.text;
    else if (block.type === 'tool_use') toolCalls.push(limitToolCall(fromWireToolUse(block)));
  }
  return { content, toolCalls, stopReason: toStopReason(message.stop_reason), usage: toUsage(message.usage), model: message.model };
}

/** A member call of the computer toolset (`toolset_name: 'computer'`) becomes GAI's `computer` call. */
export function fromWireToolUse(block: { id: string; name: string; input: unknown; toolset_name?: string | null }): ToolCall {
  if (block.toolset_name !== COMPUTER_TOOLSET_NAME) return { id: block.id, name: block.name, input: block.input };
  const input = block.input && typeof block.input === 'object' && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
  const { action: _ignored, ...rest } = input;
  return { id: block.id, name: COMPUTER_TOOL_NAME, input: { action: block.name, ...rest } };
}
