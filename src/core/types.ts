// Shared types of the host-independent core (seed 001 "types"), in camelCase; providers map
// them to each wire format.

// ---- Messages and content blocks -------------------------------------------------------

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

// ---- Tools -----------------------------------------------------------------------------

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

/**
 * How much a tool may change: `read` only observes, `action` acts on the desktop through
 * input devices, `system` starts programs or changes state beyond the windows in front.
 */
export type RiskLevel = 'read' | 'action' | 'system';

export const TOOL_ERROR_CODES = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'TIMEOUT',
  'CANCELLED',
  'DENIED',
  'UNSUPPORTED_PLATFORM',
  'FAILED',
  /** What the tool needs is down for now (an MCP server that died twice); retrying will not help. */
  'UNAVAILABLE',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export interface ToolResult<T = unknown> {
  success: boolean;
  data?: T;
  error?: string;
  code?: ToolErrorCode;
  durationMs: number;
  /** One or two sentences for people and the model: what happened, or what did not. */
  observation: string;
  /** Screenshots and other pictures; sent to the model as image blocks. */
  images?: ImageBlock[];
  /** A suggestion for the model when the call failed (from the tool or the replanner). */
  hint?: string;
  /** Ids of the call's `confirm` checks the person confirmed before it ran. */
  confirmed?: string[];
}

// ---- LLM -------------------------------------------------------------------------------

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

/**
 * `openai` covers every OpenAI-compatible chat-completions server; ollama and google are presets.
 * `vscode-lm` is VS Code's chat models (vscode.lm): only the extension can make that provider.
 */
export type Provider = 'anthropic' | 'openai' | 'ollama' | 'google' | 'vscode-lm';

/**
 * How the agent works the desktop: `native` through the model vendor's own computer tool, `gai-tools`
 * through GAI's JSON tools, `auto` native where the model is known to take a computer tool.
 */
export type ComputerUseMode = 'auto' | 'native' | 'gai-tools';
export const COMPUTER_USE_MODES: readonly ComputerUseMode[] = ['auto', 'native', 'gai-tools'];

export interface ProviderConfig {
  provider: Provider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  maxTokens?: number;
  temperature?: number;
  /** Per request, in ms. */
  timeoutMs?: number;
  /** Retries of 408/409/429/5xx and connection errors, done by the SDK. */
  maxRetries?: number;
  /** Whether the model gets its vendor's computer tool (default `auto`). */
  computerUse?: ComputerUseMode;
  /**
   * Provider `openai` only: `responses` for OpenAI's Responses API; otherwise chat completions,
   * which every compatible server speaks, unless the model takes OpenAI's computer tool.
   */
  api?: OpenAiApi;
}

export type OpenAiApi = 'chat-completions' | 'responses';
export const OPENAI_APIS: readonly OpenAiApi[] = ['chat-completions', 'responses'];

export type SingleLlmConfig = ProviderConfig;

export interface LlmModeConfig {
  default: ProviderConfig;
  fast?: ProviderConfig;
  vision?: ProviderConfig;
}

export type LlmConfig = SingleLlmConfig | LlmModeConfig;

// ---- GUI -------------------------------------------------------------------------------

/** Screen pixels of the captured image. */
export interface PixelCoordinate {
  x: number;
  y: number;
}

/** Fractions of the screen, 0.0 to 1.0. */
export interface NormalizedCoordinate {
  nx: number;
  ny: number;
}

export type Coordinate = PixelCoordinate | NormalizedCoordinate;

export interface BBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OcrElement {
  text: string;
  /** 0.0 to 1.0. */
  confidence: number;
  bbox: BBox;
  level: 'word' | 'line';
}

export interface OcrAnalysis {
  fullText: string;
  elements: OcrElement[];
}

// ---- Agent -----------------------------------------------------------------------------

export interface ExecutedToolCall {
  call: ToolCall;
  result: ToolResult;
}

export type AgentStopReason = 'end_turn' | 'max_iterations' | 'cancelled' | 'aborted';

export interface AgentResponse {
  message: string;
  toolCalls: ExecutedToolCall[];
  finished: boolean;
  iterations: number;
  stopReason: AgentStopReason;
  /** Why the request ended early, e.g. `[Max iterations reached]`; also appended to `message`. */
  note?: string;
  usage: TokenUsage;
}
