// What the agent did, for the person: the audit trail in the output channel and the last
// action on the status bar. Fed by the chat's agent events, commands, Navigate To's replayed
// steps and its learning agent; split from GaiController so it stays one job.
import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent/agentEvents';
import type { ReplayStep } from '../../navigation/routes/pathReplayer';
import type { ToolCall } from '../../model/messages';
import type { ToolResult } from '../../tools/toolTypes';
import type { ApprovalDecision, ApprovalRequest } from '../../runtime/toolRuntime';
import { AuditTrail, type StandingRules } from '../auditTrail';
import type { LastAction } from '../status/statusSummary';

export class AgentActivity implements vscode.Disposable {
  /** One line per tool call in the output channel (issue 12's audit trail). */
  readonly audit: AuditTrail;
  /** The newest action that worked, for the status bar (no model needed to say it). */
  lastAction?: LastAction;
  private readonly acted = new vscode.EventEmitter<LastAction>();
  readonly onDidAct = this.acted.event;
  /** The newest answer to a replayed step's approval, taken by that step's audit line. */
  private lastAnswer?: { decision: ApprovalDecision; by: 'chat' | 'modal' };

  /** `isReadTool`: whether a tool only looks (its declared risk), so it is never "the last action". */
  constructor(
    write: (line: string) => void,
    redact: (text: string) => string,
    rules: StandingRules,
    private readonly isReadTool: (name: string) => boolean,
  ) {
    this.audit = new AuditTrail(write, redact, rules);
  }

  /** An event of the chat's agent or of Navigate To's learning agent. */
  follow(event: AgentEvent): void {
    this.audit.follow(event);
    if (event.type === 'tool_finished') this.noteAction(event.call.name, event.result);
  }

  /** A tool the person ran by command. */
  command(call: Pick<ToolCall, 'name' | 'input'>, result: ToolResult): void {
    this.audit.command(call, result);
    this.noteAction(call.name, result);
  }

  /** A navigation starts: no earlier answer belongs to its steps. */
  beginNavigation(): void {
    this.lastAnswer = undefined;
  }

  /** A replayed step: its audit line (who approved it) and, when it worked, the last action. */
  replayStep(step: Pick<ReplayStep, 'action' | 'pathId' | 'ok' | 'observation' | 'durationMs'>, origin: 'learned-path' | 'recorded-routine' = 'learned-path'): void {
    // A step that had to ask (imported path, consequential label) was answered just before it ended.
    const answer = this.lastAnswer;
    this.lastAnswer = undefined;
    this.audit.replayStep(step, answer, origin);
    if (step.ok) this.noteAction(step.action, { success: true, observation: step.observation });
  }

  /** The modal answered this call (call it in the same turn as the answer). */
  answeredInModal(callId: string): void {
    this.audit.answeredInModal(callId);
  }

  /** An approval was answered; only a replayed step asks with a kind, and its line says who answered. */
  answered(request: ApprovalRequest, decision: ApprovalDecision, byModal: boolean): void {
    if (request.kind === 'untrusted-path' || request.kind === 'consequential') this.lastAnswer = { decision, by: byModal ? 'modal' : 'chat' };
  }

  dispose(): void {
    this.acted.dispose();
  }

  /** Remembers an action that worked (reads do not change the screen, so they are not "the last action"). */
  private noteAction(tool: string, result: Pick<ToolResult, 'success' | 'observation'>): void {
    if (!result.success || this.isReadTool(tool)) return;
    this.lastAction = { tool, observation: result.observation, at: Date.now() };
    this.acted.fire(this.lastAction);
  }
}
