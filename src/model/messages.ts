// The conversation with a model in GAI's own shape (seed 001 "types"), in camelCase; each
// provider maps it to its wire format. Tool definitions and calls are part of it.

export type Role = 'user' | 'assistant';

export interface TextBlock {
  type: 'text';
  text: string;
}

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; mediaType: ImageMediaType; data: string };
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  wire?: WireItems;
}

/**
 * What a model's API needs back verbatim on the next request (its own item ids, reasoning, the
 * call as it was sent), kept with the first call of the turn; only the provider that wrote it reads it.
 */
export interface WireItems {
  /** Whose items: a provider sends them back only in its own format (e.g. `openai-responses`). */
  format: string;
  items: unknown[];
}

/**
 * A check the model's vendor attached to a call (OpenAI's pending safety checks): the person must
 * confirm it before the call runs, whatever the approval settings.
 */
export interface CallConfirmation {
  id: string;
  code?: string;
  message?: string;
}

export interface ToolResultBlock {
  type: 'tool_result';
  toolUseId: string;
  content: Array<TextBlock | ImageBlock>;
  isError: boolean;
}

export type ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock;

export interface Message {
  role: Role;
  content: ContentBlock[];
}

/** JSON Schema of a tool's input; always an object schema at the top level (API rule). */
export interface JsonObjectSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonObjectSchema;
}

/** The OpenAI function-calling form of a definition (seed 003). */
export interface OpenAiFunctionDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonObjectSchema };
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /** For the history: see ToolUseBlock.wire. */
  wire?: WireItems;
  /** Checks the person must confirm before this call runs. */
  confirm?: CallConfirmation[];
}

export type LlmMode = 'default' | 'fast' | 'vision';

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';

export interface TokenUsage {
  /** All input tokens, cached or not. */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, read from the provider's prompt cache (cheaper). */
  cacheReadTokens?: number;
  /** Of inputTokens, written to the prompt cache. */
  cacheWriteTokens?: number;
}

export interface LlmResponse {
  content: string;
  toolCalls: ToolCall[];
  stopReason: StopReason;
  usage: TokenUsage;
  model: string;
}

export type LlmStreamChunk =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; toolCall: ToolCall }
  | { type: 'end'; response: LlmResponse };
