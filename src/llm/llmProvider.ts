import type { LlmResponse, LlmStreamChunk, Message, ToolDefinition } from '../core/types';

export interface LlmRequest {
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

/**
 * One model behind one API. Implementations translate our message types to the wire format
 * and map every transport failure to a GaiError with an `LLM_*` code.
 */
export interface LlmProvider {
  readonly providerName: string;
  readonly model: string;
  send(request: LlmRequest): Promise<LlmResponse>;
  /** Yields text deltas and completed tool calls as they arrive, then one `end` chunk. */
  stream(request: LlmRequest): AsyncIterable<LlmStreamChunk>;
}
