// The audit trail of issue 12: one greppable line per tool call the agent (or a command, or a
// replayed navigation step) made, in the GAI output channel: when, which tool, its input with
// secrets masked, who approved it and how it ended. No vscode import: the host gives it a sink.
import type { AgentEvent } from '../agent/agentEvents';
import type { RiskLevel, ToolResult } from '../tools/toolTypes';
import type { ToolCall } from '../model/messages';
import { grantsApp, type ApprovalDecision } from '../runtime/toolRuntime';

/** Longest input and observation kept on a line; the chat has the rest. */
export const AUDIT_INPUT_MAX = 300;
export const AUDIT_OBSERVATION_MAX = 200;
/** Lines kept in memory for the extension's API (the output channel has them all). */
export const AUDIT_RECENT_MAX = 200;

/**
 * Who let a call run: the person on the chat card or in the modal, a grant for this
 * conversation, the `gai.approvals.alwaysAllow` or `gai.autoApprove` setting, nobody (a
 * read-only tool), the person's own command, or a learned path the person had approved.
 */
export type ApprovalSource = 'chat' | 'modal' | 'conversation-grant' | 'app-conversation-grant' | 'setting-always-allow' | 'setting-auto-approve' | 'read-only' | 'command' | 'learned-path' | 'recorded-routine';

export interface AuditEntry {
  at: Date;
  tool: string;
  /** The public input (typed secrets already masked by the tool); redacted again here. */
  input: unknown;
  /** `approved`/`denied` with who; `none` when the call never reached approval (bad input, policy). */
  approval: { decision: 'approved' | 'denied' | 'cancelled' | 'none'; by?: ApprovalSource; forConversation?: boolean };
  result: Pick<ToolResult, 'success' | 'code' | 'durationMs' | 'observation'>;
}

/** `[audit] 2026-11-25T21:10:03Z click {"text":"7"} approved-by=chat result=ok 412ms: Clicked 7…` */
export function formatAuditLine(entry: AuditEntry, redact: (text: string) => string): string {
  const time = entry.at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const input = shorten(oneLine(safeJson(entry.input)), AUDIT_INPUT_MAX);
  const { decision, by, forConversation } = entry.approval;
  const approval = decision === 'none' ? 'approval=none' : decision === 'cancelled' ? 'approval=cancelled' : `${decision}-by=${by ?? 'unknown'}${forConversation ? '(for-conversation)' : ''}`;
  const result = entry.result.success ? 'ok' : (entry.result.code ?? 'FAILED');
  const observation = shorten(oneLine(entry.result.observation), AUDIT_OBSERVATION_MAX);
  return redact(`[audit] ${time} ${entry.tool} ${input} ${approval} result=${result} ${Math.round(entry.result.durationMs)}ms: ${observation}`);
}

/** What decides a call that asked nobody; read when the call starts (a grant given later does not count). */
export interface StandingRules {
  conversationGrants(): readonly string[];
  alwaysAllow(): readonly string[];
  autoApprove(): readonly RiskLevel[];
}

interface OpenCall {
  tool: string;
  risk: RiskLevel;
  standing?: ApprovalSource;
  asked: boolean;
  decision?: ApprovalDecision;
}

/** Follows the agent's events and writes one line per finished call. */
export class AuditTrail {
  private readonly open = new Map<string, OpenCall>();
  /** Calls the modal answered (the chat card is the default answerer). */
  private readonly byModal = new Set<string>();
  private readonly lines: string[] = [];

  constructor(
    private readonly write: (line: string) => void,
    private readonly redact: (text: string) => string,
    private readonly rules: StandingRules,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The host's modal answered this call (set before the runtime resumes). */
  answeredInModal(callId: string): void {
    this.byModal.add(callId);
  }

  follow(event: AgentEvent): void {
    if (event.type === 'tool_started') {
      this.open.set(event.call.id, { tool: event.call.name, risk: event.risk, standing: this.standing(event.call.name, event.risk), asked: false });
    } else if (event.type === 'approval_requested') {
      const open = this.open.get(event.request.call.id);
      if (open) open.asked = true;
    } else if (event.type === 'approval_resolved') {
      const open = this.open.get(event.call.id);
      if (open && event.byAppGrant) open.standing = 'app-conversation-grant';
      else if (open) open.decision = event.decision;
    } else if (event.type === 'tool_finished') {
      this.finish(event.call, event.result);
    }
  }

  /** A call the person ran by command (the command is the approval). */
  command(call: Pick<ToolCall, 'name' | 'input'>, result: ToolResult): void {
    this.record({ at: this.now(), tool: call.name, input: call.input, approval: { decision: 'approved', by: 'command' }, result });
  }

  /** A replayed step of a learned path; `approval` says who, when the step had to ask. */
  replayStep(
    step: { action: string; pathId: string; ok: boolean; observation: string; durationMs: number },
    approval?: { decision: ApprovalDecision; by: 'chat' | 'modal' },
    origin: 'learned-path' | 'recorded-routine' = 'learned-path',
  ): void {
    const decision = approval ? (approval.decision === 'deny' ? 'denied' : 'approved') : 'approved';
    this.record({
      at: this.now(),
      tool: 'replay_step',
      input: { [origin === 'learned-path' ? 'path' : 'routine']: step.pathId, step: step.action },
      approval: { decision, by: approval?.by ?? origin, ...(approval?.decision === 'always' ? { forConversation: true } : {}) },
      result: { success: step.ok, ...(step.ok ? {} : { code: 'FAILED' as const }), durationMs: step.durationMs, observation: step.observation },
    });
  }

  private finish(call: ToolCall, result: ToolResult): void {
    const open = this.open.get(call.id);
    this.open.delete(call.id);
    const modal = this.byModal.delete(call.id);
    let approval: AuditEntry['approval'];
    if (open?.asked) {
      if (open.decision === undefined) approval = { decision: 'cancelled' };
      else approval = { decision: open.decision === 'deny' ? 'denied' : 'approved', by: modal ? 'modal' : 'chat', ...(open.decision === 'always' || grantsApp(open.decision) ? { forConversation: true } : {}) };
    } else if (result.code === 'DENIED' || result.code === 'INVALID_INPUT' || !open?.standing) {
      // Refused by policy, bad input or no one to ask: it never got as far as an approval.
      approval = { decision: 'none' };
    } else {
      approval = { decision: 'approved', by: open.standing };
    }
    this.record({ at: this.now(), tool: call.name, input: call.input, approval, result });
  }

  private standing(tool: string, risk: RiskLevel): ApprovalSource | undefined {
    if (risk === 'read') return 'read-only';
    if (this.rules.conversationGrants().includes(tool)) return 'conversation-grant';
    if (this.rules.alwaysAllow().includes(tool)) return 'setting-always-allow';
    if (this.rules.autoApprove().includes(risk)) return 'setting-auto-approve';
    return undefined;
  }

  /** The newest lines, as written (newest last). */
  recent(): string[] {
    return [...this.lines];
  }

  private record(entry: AuditEntry): void {
    const line = formatAuditLine(entry, this.redact);
    this.lines.push(line);
    if (this.lines.length > AUDIT_RECENT_MAX) this.lines.shift();
    this.write(line);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return '"(input not shown: not serialisable)"';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
