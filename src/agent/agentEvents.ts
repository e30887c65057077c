import type { GaiError } from '../common/errors';
import type { AgentResponse } from './agentTypes';
import type { RiskLevel, ToolResult } from '../tools/toolTypes';
import type { TokenUsage, ToolCall } from '../model/messages';
import type { RecoveryDecision } from '../runtime/replanner';
import type { ApprovalDecision, ApprovalRequest } from '../runtime/toolRuntime';

/** What the agent reports while it works; the UI and the CLI render these. */
export type AgentEvent =
  | { type: 'iteration'; iteration: number; maxIterations: number }
  | { type: 'text_delta'; text: string }
  | { type: 'assistant_message'; text: string; toolCalls: ToolCall[] }
  | { type: 'tool_started'; call: ToolCall; risk: RiskLevel }
  | { type: 'approval_requested'; request: ApprovalRequest }
  /** `byAppGrant`: asked nobody; the person approved actions in that app for this conversation. */
  | { type: 'approval_resolved'; call: ToolCall; decision: ApprovalDecision; byAppGrant?: boolean }
  | { type: 'tool_finished'; call: ToolCall; result: ToolResult }
  | { type: 'recovery'; call: ToolCall; decision: RecoveryDecision }
  | { type: 'usage'; request: TokenUsage; session: TokenUsage }
  | { type: 'done'; response: AgentResponse }
  | { type: 'error'; error: GaiError };

export type AgentEventListener = (event: AgentEvent) => void;
