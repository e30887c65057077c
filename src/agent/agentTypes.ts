// What one request to the agent produced: its calls, why it stopped, what it spent.
import type { TokenUsage, ToolCall } from '../model/messages';
import type { ToolResult } from '../tools/toolTypes';

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
