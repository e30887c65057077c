import type Anthropic from '@anthropic-ai/sdk';
import { limitToolCall } from '../../core/inputLimits';
import type { ContentBlock, LlmResponse, Message, StopReason, TokenUsage, ToolCall, ToolDefinition } from '../../core/types';

// Pure translation between our types and the Messages API wire format.

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type ToolParam = Anthropic.Messages.Tool;

const CACHE = { type: 'ephemeral' } as const;

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
        content: block.content.map((c) =>
          c.type === 'text'
            ? { type: 'text' as const, text: c.text }
            : { type: 'image' as const, source: { type: 'base64' as const, media_type: c.source.mediaType, data: c.source.data } },
        ),
      };
  }
}

/** The tool list is a stable prefix of every request: cache it too. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): ToolParam[] {
  return tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as ToolParam['input_schema'],
    ...(i === tools.length - 1 ? { cache_control: CACHE } : {}),
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

export function fromAnthropicMessage(message: Anthropic.Messages.Message): LlmResponse {
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content += block.text;
    else if (block.type === 'tool_use') toolCalls.push(limitToolCall({ id: block.id, name: block.name, input: block.input }));
  }
  return { content, toolCalls, stopReason: toStopReason(message.stop_reason), usage: toUsage(message.usage), model: message.model };
}
