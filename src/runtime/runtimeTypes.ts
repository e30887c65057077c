// The types toolRuntime.ts shares with the helpers it calls (turnRunner, safetyCheckApproval, targetedRun),
// apart so that those helpers need not import the runtime that imports them.
import type { RiskLevel, ToolResult } from '../tools/toolTypes';
import type { AnyTool } from '../tools/toolBase';
import type { ToolCall } from '../model/messages';
import type { RecoveryDecision } from './replanner';
import type { ActionTarget } from '../tools/actionTarget';

export interface ApprovalRequest {
  /** The public call: secrets masked, size bounded. */
  call: ToolCall;
  risk: RiskLevel;
  /** e.g. `click {"text":"Save"}`, for a prompt or a card. */
  summary: string;
  /** Why it asks when the usual rules would not (e.g. a step of an imported path). */
  note?: string;
  kind?: ApprovalKind;
  /** Where the action lands (the window under its point, or the focused one for keys), when the tool located it first. */
  target?: ActionTarget;
  /** The application it lands in, when a guard knows it: the approval can grant that app too (one question). */
  app?: ApprovalApp;
}

/** The application an action lands in, as a guard sees it. */
export interface ApprovalApp {
  /** Its name as the window gives it, made safe to show. */
  name: string;
  /** What a grant is kept under. */
  key: string;
  /** Nobody decided whether GAI may act there yet: a plain "approve" allows it for this action only. */
  undecided: boolean;
}

/**
 * `always`: approve, and do not ask again for this tool until approvals are reset.
 * `app-conversation` / `app-always` (only when the request names an app): approve, allow that app
 * for this conversation / always, and approve this conversation's later actions landing there.
 */
export type ApprovalDecision = 'approve' | 'deny' | 'always' | 'app-conversation' | 'app-always';

/** An answer that grants the request's app too (valid only when the request named one). */
export function grantsApp(decision: ApprovalDecision): decision is 'app-conversation' | 'app-always' {
  return decision === 'app-conversation' || decision === 'app-always';
}
export type ApprovalHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/**
 * A check that runs right before every action or system tool (after policy, validation and
 * approval): a stop by the person, an application the person has not allowed. Returning a
 * failure result stops that call; a guard may also wait (paused until the person resumes).
 */
export interface ActionGuard {
  readonly name: string;
  beforeAction(call: ToolCall, tool: AnyTool, signal: AbortSignal, target?: ActionTarget): Promise<ToolResult | undefined>;
  /** Runs the tool inside the guard's scope (the app permission follows the call down to the input port). */
  around?(call: ToolCall, tool: AnyTool, run: () => Promise<ToolResult>): Promise<ToolResult>;
  /** After the tool ran, whatever the result. */
  afterAction?(call: ToolCall, tool: AnyTool, result: ToolResult): void | Promise<void>;
  /** The app the call lands in, for its approval to ask about in the same question (the first guard that knows says). */
  approvalApp?(call: ToolCall, tool: AnyTool, target: ActionTarget | undefined, signal: AbortSignal): Promise<ApprovalApp | undefined>;
  /** The person answered the call's approval (which asked about `app` when set). */
  approvalAnswered?(call: ToolCall, decision: ApprovalDecision, app: ApprovalApp | undefined): void;
  /** Whether the person approved, for this conversation, actions of this risk landing where this target is. */
  preApproved?(tool: AnyTool, risk: RiskLevel, target: ActionTarget | undefined): boolean;
  /** The apps whose actions are approved for this conversation (listed and revocable in a front). */
  conversationApps?(): ApprovalApp[];
  /** Takes back an app's conversation approval; false when it had none. */
  revokeApp?(key: string): boolean;
}

export interface ExecuteOptions {
  /**
   * `skip`: no prompt (a replayed step of a path the person approved and trusts); `required`:
   * ask even when the risk is auto-approved or always allowed (a consequential step). Policy,
   * validation and guards apply in every case.
   */
  approval?: 'default' | 'skip' | 'required';
  /** Shown with the approval request: why it asks. */
  approvalNote?: string;
  /** What kind of step it is, so a host can treat it apart (`--yes` never confirms an untrusted path). */
  approvalKind?: ApprovalKind;
}

/** `safety-check`: the model's vendor flagged the call (ToolCall.confirm); only the person may confirm it. */
export type ApprovalKind = 'consequential' | 'untrusted-path' | 'safety-check';

/**
 * What the runtime tells its caller while a turn runs (the agent turns these into events).
 * Every callback gets the public call: secrets masked, input bounded in size.
 */
export interface ExecutionHooks {
  onToolStarted?(call: ToolCall, risk: RiskLevel): void;
  onApprovalRequested?(request: ApprovalRequest): void;
  /** `byAppGrant`: nobody was asked; the person approved actions in that app for this conversation. */
  onApprovalResolved?(call: ToolCall, decision: ApprovalDecision, byAppGrant?: boolean): void;
  onToolFinished?(call: ToolCall, result: ToolResult): void;
  onRecovery?(call: ToolCall, decision: RecoveryDecision): void;
}

/** What a call's first approval was asked with, for the pointer's own approval after a press. */
export interface FirstApproval {
  tool: AnyTool;
  risk: RiskLevel;
  call: ToolCall;
  signal: AbortSignal;
  hooks: ExecutionHooks;
  options: ExecuteOptions;
  /** A person was asked (a question that named the way it would act). */
  askedFirst: boolean;
  guards: readonly ActionGuard[];
}

export interface TurnOutcome {
  /** One result per call, in the order of the calls. */
  results: ToolResult[];
  /** The calls as they may be shown and stored (secrets masked, input bounded), same order. */
  publicCalls: ToolCall[];
  /** Set when the replanner decided to stop the request. */
  abort?: string;
}
