import type { RiskLevel, ToolResult } from '../tools/toolTypes';
import type { OpenAiFunctionDefinition, ToolCall, ToolDefinition } from '../model/messages';
import { raceAbort, sleep } from '../common/timing';
import { NullLogger, type Logger } from '../common/logger';
import { errorMessage } from '../common/errors';
import { Replanner } from './replanner';
import type { AnyTool } from '../tools/toolBase';
import { ToolPolicy } from './toolPolicy';
import { notFoundResult, toOpenAiFunction, type ToolRegistry } from '../tools/toolRegistry';
import { runToolBounded, type BoundedRunOptions } from './boundedRun';
import { ToolResults } from '../tools/toolResult';
import { previewCall, summarizeCall } from '../tools/callPreview';
import { runTurn } from './turnRunner';
import { withConfirmation } from './safetyCheckApproval';
import { wayItActs, whereItLands, type ActionTarget } from '../tools/actionTarget';
import { approvalApp, locateTarget, runInsideGuards } from './targetedRun';
import { grantsApp, type ActionGuard, type ApprovalApp, type ApprovalDecision, type ApprovalHandler, type ApprovalRequest, type ExecuteOptions, type ExecutionHooks, type FirstApproval, type TurnOutcome } from './runtimeTypes';

// Callers import these from here, beside the class they configure.
export type { ActionGuard, ApprovalApp, ApprovalDecision, ApprovalHandler, ApprovalKind, ApprovalRequest, ExecuteOptions, ExecutionHooks, TurnOutcome } from './runtimeTypes';
export { grantsApp } from './runtimeTypes';

export interface ToolRuntimeOptions {
  policy?: ToolPolicy;
  replanner?: Replanner;
  logger?: Logger;
  defaultTimeoutMs?: number;
  /** Per tool name; wins over the tool's own timeout. */
  timeouts?: Record<string, number>;
  requestApproval?: ApprovalHandler;
  /** Risk levels that run without asking; `read` by default. */
  autoApprove?: RiskLevel[];
  /** Tool names that never ask in the default mode (the person's "allow always" setting). */
  alwaysAllow?: string[];
  guards?: ActionGuard[];
}

/**
 * Every tool call goes through here: policy, validation, approval, timeout, cancellation,
 * timing, logging and recovery (seed 002's ToolRuntime + Replanner).
 */
export class ToolRuntime {
  readonly replanner: Replanner;
  private readonly shared: SharedRules;

  constructor(
    readonly registry: ToolRegistry,
    options: ToolRuntimeOptions = {},
    shared?: SharedRules,
  ) {
    this.replanner = options.replanner ?? new Replanner();
    this.shared = shared ?? {
      policy: options.policy ?? new ToolPolicy(),
      logger: options.logger ?? new NullLogger(),
      defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
      timeouts: options.timeouts ?? {},
      requestApproval: options.requestApproval,
      autoApprove: new Set(options.autoApprove ?? ['read']),
      alwaysAllowed: new Set(),
      settingAllowed: new Set(options.alwaysAllow ?? []),
      guards: [...(options.guards ?? [])],
    };
  }

  get policy(): ToolPolicy {
    return this.shared.policy;
  }

  get guards(): readonly ActionGuard[] { return [...this.shared.guards]; } // in the order they run

  get requestApproval(): ApprovalHandler | undefined {
    return this.shared.requestApproval;
  }

  set requestApproval(handler: ApprovalHandler | undefined) {
    this.shared.requestApproval = handler;
  }

  get autoApprove(): Set<RiskLevel> {
    return this.shared.autoApprove;
  }

  set autoApprove(risks: Set<RiskLevel>) {
    this.shared.autoApprove = risks;
  }

  private get logger(): Logger {
    return this.shared.logger;
  }

  /**
   * A runtime over other tools under the same rules: policy, approval handler, auto-approved
   * risks, "always" grants and guards are shared (a grant in one holds in the other), so a tool
   * that runs tools of its own (navigate_to's learner) can never do more than the host allows.
   */
  derive(registry: ToolRegistry): ToolRuntime {
    return new ToolRuntime(registry, {}, this.shared);
  }

  /** Adds a guard to this runtime and every runtime derived from it; returns its removal. */
  addGuard(guard: ActionGuard): () => void {
    this.shared.guards.push(guard);
    return () => {
      const index = this.shared.guards.indexOf(guard);
      if (index >= 0) this.shared.guards.splice(index, 1);
    };
  }

  /** The definitions the model may see under the policy. */
  getDefinitions(): ToolDefinition[] {
    return this.visibleTools().map((tool) => tool.getDefinition());
  }

  getOpenAiDefinitions(): OpenAiFunctionDefinition[] {
    return this.getDefinitions().map(toOpenAiFunction);
  }

  riskOf(name: string): RiskLevel | undefined {
    return this.registry.get(name)?.risk;
  }

  /** The risk of this call (its tool's `riskFor` its input); the tool's risk when the input is invalid. */
  riskOfCall(call: ToolCall): RiskLevel | undefined {
    const tool = this.registry.get(call.name);
    return tool ? riskFor(tool, call.input) : undefined;
  }

  resetApprovals(): void {
    this.shared.alwaysAllowed.clear();
  }

  /** The tools allowed for this conversation ("Allow for this conversation"), in grant order. */
  conversationGrants(): string[] {
    return [...this.shared.alwaysAllowed];
  }

  /** Forgets a conversation grant: the tool asks again. False when it had none. */
  revokeGrant(name: string): boolean {
    return this.shared.alwaysAllowed.delete(name);
  }

  /** The apps whose actions the person approved for this conversation (its guards keep them). */
  conversationApps(): ApprovalApp[] {
    return this.shared.guards.flatMap((guard) => guard.conversationApps?.() ?? []);
  }

  /** Takes back an app's conversation approval: actions there ask again. False when it had none. */
  revokeApp(key: string): boolean {
    return this.shared.guards.map((guard) => guard.revokeApp?.(key) ?? false).some(Boolean);
  }

  /** Runs the calls of one model turn (see runTurn for the order and when later calls are skipped). */
  executeTurn(calls: ToolCall[], signal: AbortSignal, hooks: ExecutionHooks = {}): Promise<TurnOutcome> {
    return runTurn(
      {
        run: (call) => this.executeWithRecovery(call, signal, hooks),
        isOrdered: (call) => this.registry.get(call.name)?.ordered ?? false,
        riskOf: (call) => this.riskOfCall(call) ?? 'read',
      },
      calls,
      signal,
      hooks,
    );
  }

  /** One call with the replanner's retries; the result carries its hint when it failed. */
  async executeWithRecovery(
    call: ToolCall,
    signal: AbortSignal,
    hooks: ExecutionHooks = {},
    options: ExecuteOptions = {},
  ): Promise<{ result: ToolResult; publicCall: ToolCall; abort?: string }> {
    const prepared = await this.prepare(call, signal);
    const risk = prepared.risk ?? this.riskOf(call.name) ?? 'read';
    const publicCall = prepared.publicCall;
    hooks.onToolStarted?.(publicCall, risk);
    for (let attempt = 1; ; attempt++) {
      const result = await this.attempt(prepared, signal, hooks, options);
      if (result.success) {
        if (attempt > 1) this.replanner.recordRecovered();
        hooks.onToolFinished?.(publicCall, result);
        return { result, publicCall };
      }
      // The real input tells repeats apart: two different secrets have the same masked form.
      const decision = this.replanner.decide(call, result, risk, attempt);
      hooks.onRecovery?.(publicCall, decision);
      if (decision.action === 'retry' && !signal.aborted) {
        this.logger.info(`retrying ${call.name} in ${decision.delayMs} ms after ${result.code}`);
        await sleep(decision.delayMs, signal);
        continue;
      }
      const final = decision.action === 'hint' ? { ...result, hint: decision.hint } : result;
      hooks.onToolFinished?.(publicCall, final);
      return decision.action === 'abort' ? { result: final, publicCall, abort: decision.reason } : { result: final, publicCall };
    }
  }

  /** One attempt: policy, validation, approval, guards, then the tool under timeout and cancellation. */
  async execute(call: ToolCall, signal: AbortSignal, hooks: ExecutionHooks = {}, options: ExecuteOptions = {}): Promise<ToolResult> {
    return this.attempt(await this.prepare(call, signal), signal, hooks, options);
  }

  /** Looks the tool up, checks the policy and the input, and makes the public form of the call. */
  private async prepare(call: ToolCall, signal: AbortSignal): Promise<PreparedCall> {
    const publicCall = previewCall(call);
    const tool = this.registry.get(call.name);
    if (!tool) return { publicCall, failure: notFoundResult(call.name, this.visibleTools().map((t) => t.name)) };
    if (!this.policy.permits(tool)) {
      const failure = ToolResults.failure('DENIED', `Tool not allowed: ${this.policy.refusal(tool)}`, {
        observation: `${tool.name} did NOT run: ${this.policy.refusal(tool)}.`,
      });
      return { tool, publicCall, failure };
    }
    let validation: ReturnType<AnyTool['validateInput']>;
    try {
      validation = tool.validateInput(call.input);
    } catch (error) {
      return { tool, publicCall, failure: ToolResults.invalidInput(tool.name, [`input: could not be checked (${errorMessage(error)})`]) };
    }
    if (!validation.ok) return { tool, publicCall, failure: ToolResults.invalidInput(tool.name, validation.errors) };
    const risk = tool.riskFor(validation.value);
    let input: unknown;
    try {
      input = await tool.publicInput(validation.value, { signal, logger: this.logger });
    } catch (error) {
      // Showing nothing is safer than showing what may be a secret.
      this.logger.warn(`${tool.name}: its input could not be masked (${errorMessage(error)}); it is shown hidden`);
      input = { hidden: 'the input could not be shown safely' };
    }
    return { tool, value: validation.value, risk, publicCall: { ...call, input } };
  }

  private async attempt(prepared: PreparedCall, signal: AbortSignal, hooks: ExecutionHooks, options: ExecuteOptions): Promise<ToolResult> {
    const { tool, publicCall } = prepared;
    if (prepared.failure || !tool) return prepared.failure ?? ToolResults.failure('FAILED', 'no tool');
    if (signal.aborted) return ToolResults.cancelled(tool.name);

    const risk = prepared.risk ?? tool.risk;
    // Where it lands first: the approval and the guards judge that place, not the active window.
    const located = risk === 'read' ? undefined : await locateTarget(tool, prepared.value, signal, this.logger);
    if (located && 'failure' in located) return located.failure;
    const target = located?.target;
    const approval = await this.approve(tool, risk, publicCall, signal, hooks, withConfirmation(publicCall, options), target);
    if (approval.denied) return approval.denied;
    const guards = risk === 'read' ? [] : [...this.shared.guards];
    for (const guard of guards) {
      const stopped = await guard.beforeAction(publicCall, tool, signal, target);
      if (stopped) return stopped;
    }
    if (signal.aborted) return ToolResults.cancelled(tool.name);

    const started = performance.now();
    const fallback = { tool, risk, call: publicCall, signal, hooks, options, askedFirst: approval.asked, guards };
    // After a person's answer the screen may have moved on: the tool looks again (the input port
    // still judges where it lands), but acts the way the approval named.
    const run = (): Promise<ToolResult> =>
      this.runWithTimeout(tool, prepared.value, signal, {
        ...(target && !approval.asked ? { target } : {}),
        ...(target?.way ? { way: target.way } : {}),
        pointerFallback: (pointer) => this.approvePointer(fallback, pointer),
      });
    const result = await runInsideGuards(guards, publicCall, tool, run);
    const timed = { ...result, durationMs: performance.now() - started };
    for (const guard of guards) {
      try {
        await guard.afterAction?.(publicCall, tool, timed);
      } catch (error) {
        this.logger.warn(`guard ${guard.name}: ${errorMessage(error)}`);
      }
    }
    const status = timed.success ? 'ok' : `${timed.code}: ${timed.error}`;
    this.logger.debug(`tool ${tool.name} ${status} (${timed.durationMs.toFixed(1)} ms)`);
    // The checks were confirmed and the call ran: the provider may now tell the vendor so.
    return publicCall.confirm?.length ? { ...timed, confirmed: publicCall.confirm.map((c) => c.id) } : timed;
  }

  private visibleTools(): AnyTool[] {
    return this.registry.getAll().filter((tool) => this.policy.permits(tool));
  }

  /** `denied`: the call does not run; `asked`: a person was asked (time passed). */
  private async approve(
    tool: AnyTool,
    risk: RiskLevel,
    call: ToolCall,
    signal: AbortSignal,
    hooks: ExecutionHooks,
    options: ExecuteOptions,
    target: ActionTarget | undefined,
  ): Promise<{ denied?: ToolResult; asked: boolean }> {
    const mode = options.approval ?? 'default';
    if (mode === 'skip') return { asked: false };
    const guards = risk === 'read' ? [] : this.shared.guards;
    if (mode === 'default' && (this.autoApprove.has(risk) || this.shared.alwaysAllowed.has(tool.name) || this.shared.settingAllowed.has(tool.name))) return { asked: false };
    if (mode === 'default' && guards.some((guard) => guard.preApproved?.(tool, risk, target) === true)) {
      hooks.onApprovalResolved?.(call, 'approve', true);
      return { asked: false };
    }
    const app = await approvalApp(guards, call, tool, target, signal, this.logger);
    const summary = [summarizeCall(call), target ? whereItLands(target) : '', wayItActs(target?.way)].filter(Boolean).join(' ');
    const request: ApprovalRequest = {
      call,
      risk,
      summary,
      ...(options.approvalNote ? { note: options.approvalNote } : {}),
      ...(options.approvalKind ? { kind: options.approvalKind } : {}),
      ...(target ? { target } : {}),
      ...(app ? { app } : {}),
    };
    if (!this.requestApproval) {
      const why = options.approvalNote ?? `approvals are needed for ${risk} tools`;
      return { denied: ToolResults.denied(tool.name, request.summary, `no one could approve it: ${why}`), asked: false };
    }
    hooks.onApprovalRequested?.(request);
    let decision: ApprovalDecision;
    try {
      decision = await raceAbort(this.requestApproval(request, signal), signal);
    } catch {
      return { denied: ToolResults.cancelled(tool.name, 'the request was cancelled while waiting for approval'), asked: true };
    }
    // A stop while the question was open answers it too (the host denies what is pending): that is a cancel, not the person's "no".
    if (signal.aborted) return { denied: ToolResults.cancelled(tool.name, 'stopped while waiting for approval'), asked: true };
    // An answer about an app the request did not name would grant what nobody was shown.
    if (!app && grantsApp(decision)) decision = 'approve';
    hooks.onApprovalResolved?.(call, decision);
    for (const guard of guards) guard.approvalAnswered?.(call, decision, app);
    if (decision === 'deny') return { denied: ToolResults.denied(tool.name, request.summary), asked: true };
    // "Always" on a step that must ask every time approves that step, and grants nothing more.
    if (decision === 'always' && mode !== 'required') this.shared.alwaysAllowed.add(tool.name);
    return { asked: true };
  }

  /**
   * The pointer after a press through accessibility did not take, under the pointer's own
   * approval rules: a person asked about the press (a question that said the pointer stays) is
   * asked again; else the rules that let the press run unasked decide for the pointer too. The
   * guards then judge it as any action (a stop, a takeover, the app under the point).
   */
  private async approvePointer(first: FirstApproval, target: ActionTarget): Promise<ToolResult | undefined> {
    const { tool, risk, call, signal, hooks, options, guards } = first;
    const approval: ExecuteOptions['approval'] = first.askedFirst ? 'required' : options.approval;
    const pointer: ActionTarget = { ...target, way: 'pointer-after-press' };
    const answer = await this.approve(tool, risk, call, signal, hooks, { ...options, ...(approval ? { approval } : {}) }, pointer);
    if (answer.denied) return answer.denied;
    for (const guard of guards) {
      const stopped = await guard.beforeAction(call, tool, signal, pointer);
      if (stopped) return stopped;
    }
    return signal.aborted ? ToolResults.cancelled(tool.name) : undefined;
  }

  private runWithTimeout(tool: AnyTool, input: unknown, signal: AbortSignal, context: Pick<BoundedRunOptions, 'target' | 'way' | 'pointerFallback'>): Promise<ToolResult> {
    const timeoutMs = this.shared.timeouts[tool.name] ?? tool.timeoutMs ?? this.shared.defaultTimeoutMs;
    return runToolBounded(tool, input, { signal, timeoutMs, logger: this.logger, ...context });
  }
}

/** What runtimes derived from one another share: the rules a person set and the grants they gave. */
interface SharedRules {
  policy: ToolPolicy;
  logger: Logger;
  defaultTimeoutMs: number;
  timeouts: Record<string, number>;
  requestApproval?: ApprovalHandler;
  autoApprove: Set<RiskLevel>;
  alwaysAllowed: Set<string>;
  /** Tools the person allows always (a setting): never asked, kept across conversations. */
  settingAllowed: Set<string>;
  guards: ActionGuard[];
}

interface PreparedCall {
  tool?: AnyTool;
  /** The validated input (defaults applied). */
  value?: unknown;
  /** The tool's risk for this input (set once the input is valid). */
  risk?: RiskLevel;
  publicCall: ToolCall;
  failure?: ToolResult;
}

/** `tool.riskFor(input)` when the input is valid; the tool's own risk otherwise (it will not run). */
function riskFor(tool: AnyTool, input: unknown): RiskLevel {
  try {
    const validation = tool.validateInput(input);
    return validation.ok ? tool.riskFor(validation.value) : tool.risk;
  } catch {
    return tool.risk;
  }
}
