import type { LlmMode, LlmResponse, Message, ToolDefinition } from './messages';

/** What a tool may ask of the models: one stateless call, outside the conversation. */
export interface ModelAccess {
  /** True when this mode has its own model (not only the default fallback). */
  hasMode(mode: LlmMode): boolean;
  sendWithMode(
    mode: LlmMode,
    messages: Message[],
    options?: { system?: string; tools?: ToolDefinition[]; maxTokens?: number; signal?: AbortSignal },
  ): Promise<LlmResponse>;
}
