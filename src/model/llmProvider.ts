import type { LlmResponse, LlmStreamChunk, Message, ToolDefinition } from './messages';

/** The largest screenshot a model takes as it is: the API rejects (or silently shrinks) larger ones. */
export interface ImageLimits {
  /** Longest edge in pixels. */
  maxLongEdge: number;
  /** Width × height in pixels. */
  maxPixels: number;
}

/**
 * A provider that speaks its vendor's own computer-use tool for the chosen model. The agent then
 * offers GAI's `computer` tool (its vocabulary: model/computer/computerActions.ts), which the
 * provider sends as the native tool entry, and leaves out the GAI tools the native tool replaces.
 */
export interface NativeComputerUse {
  /** The wire tool, for logs and tests: 'computer_toolset_20260801', 'computer_20251124', 'computer_20250124', 'computer' (OpenAI), 'computer_use_preview'. */
  readonly tool: string;
  /** Screenshots for this model are scaled to fit these. */
  readonly imageLimits: ImageLimits;
}

export interface LlmRequest {
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** With a native computer tool: the screenshot size the model sees (the display it is told of). */
  computer?: { displayWidth: number; displayHeight: number };
}

/**
 * One model behind one API. Implementations translate our message types to the wire format
 * and map every transport failure to a GaiError with an `LLM_*` code.
 */
export interface LlmProvider {
  readonly providerName: string;
  readonly model: string;
  /** Set when this provider sends GAI's `computer` tool as its vendor's native computer tool. */
  readonly nativeComputer?: NativeComputerUse;
  send(request: LlmRequest): Promise<LlmResponse>;
  /** Yields text deltas and completed tool calls as they arrive, then one `end` chunk. */
  stream(request: LlmRequest): AsyncIterable<LlmStreamChunk>;
}
