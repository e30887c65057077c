import type { RiskLevel, OpenAiFunctionDefinition, ToolCall, ToolDefinition, ToolResult } from '../core/types';
import { sleep } from '../core/timing';
import { NullLogger, type Logger } from '../logging/logger';
import { Replanner, type RecoveryDecision } from './replanner';
import type { AnyTool } from './toolBase';
import { ToolPolicy } from './toolPolicy';
import { invokeTool, notFoundResult, toOpenAiFunction, type ToolRegistry } from './toolRegistry';
import { ToolResults } from './toolResult';

export interface ApprovalRequest {
  call: ToolCall;
  risk: RiskLevel;
  /** e.g. `click {"text":"Save"}`, for a prompt or a card. */
  summary: string;
}

/** `always`: approve, and do not ask again for this tool until approvals are reset. */
export type ApprovalDecision = 'approve' | 'deny' | 'always';
export type ApprovalHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** What the runtime tells its caller while a turn runs (the agent turns these into events). */
export interface ExecutionHooks {
  onToolStarted?(call: ToolCall, risk: RiskLevel): void;
  onApprovalRequested?(request: ApprovalRequest): void;
  onApprovalResolved?(call: ToolCall, decision: ApprovalDecision): void;
  onToolFinished?(call: ToolCall, result: ToolResult): void;
  onRecovery?(call: ToolCall, decision: RecoveryDecision): void;
}

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
}

export interface TurnOutcome {
  /** One result per call, in the order of the calls. */
  results: ToolResult[];
  /** Set when the replanner decided to stop the request. */
  abort?: string;
}

/**
 * Every tool call goes through here: policy, validation, approval, timeout, cancellation,
 * timing, logging and recovery (seed 002's ToolRuntime + Replanner).
 */
export class ToolRuntime {
  readonly policy: ToolPolicy;
  readonly replanner: Replanner;
  requestApproval?: ApprovalHandler;
  autoApprove: Set<RiskLevel>;
  private readonly logger: Logger;
  private readonly defaultTimeoutMs: number;
  private readonly timeouts: Record<string, number>;
  private readonly alwaysAllowed = new Set<string>();

  constructor(
    readonly registry: ToolRegistry,
    options: ToolRuntimeOptions = {},
  ) {
    this.policy = options.policy ?? new ToolPolicy();
    this.replanner = options.replanner ?? new Replanner();
    this.logger = options.logger ?? new NullLogger();
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.timeouts = options.timeouts ?? {};
    this.requestApproval = options.requestApproval;
    this.autoApprove = new Set(options.autoApprove ?? ['read']);
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

  resetApprovals(): void {
    this.alwaysAllowed.clear();
  }

  /**
   * Runs the calls of one model turn. Read tools run in parallel; action and system tools run
   * one at a time in the model's order, after everything before them has finished. After an
   * action fails or is denied, later actions of the turn are not run: they were planned on
   * the assumption that it worked.
   */
  async executeTurn(calls: ToolCall[], signal: AbortSignal, hooks: ExecutionHooks = {}): Promise<TurnOutcome> {
    const results: ToolResult[] = new Array<ToolResult>(calls.length);
    let abort: string | undefined;
    let blockedBy: string | undefined;
    let reads: Promise<void>[] = [];

    const run = async (index: number, call: ToolCall): Promise<void> => {
      const outcome = await this.executeWithRecovery(call, signal, hooks);
      results[index] = outcome.result;
      if (outcome.abort) abort ??= outcome.abort;
    };
    const skip = (index: number, call: ToolCall, why: string): void => {
      results[index] = ToolResults.cancelled(call.name, why);
      hooks.onToolFinished?.(call, results[index]);
    };

    for (const [index, call] of calls.entries()) {
      if (signal.aborted || abort) {
        skip(index, call, stopReason(signal, abort));
        continue;
      }
      if ((this.riskOf(call.name) ?? 'read') === 'read') {
        reads.push(run(index, call));
        continue;
      }
      await Promise.all(reads);
      reads = [];
      if (signal.aborted || abort) {
        skip(index, call, stopReason(signal, abort));
      } else if (blockedBy) {
        skip(index, call, `not run because ${blockedBy}`);
      } else {
        await run(index, call);
        if (!results[index]?.success) blockedBy = `the earlier action ${call.name} did not succeed`;
      }
    }
    await Promise.all(reads);
    return { results, abort };
  }

  /** One call with the replanner's retries; the result carries its hint when it failed. */
  async executeWithRecovery(
    call: ToolCall,
    signal: AbortSignal,
    hooks: ExecutionHooks = {},
  ): Promise<{ result: ToolResult; abort?: string }> {
    const risk = this.riskOf(call.name) ?? 'read';
    hooks.onToolStarted?.(call, risk);
    for (let attempt = 1; ; attempt++) {
      const result = await this.execute(call, signal, hooks);
      if (result.success) {
        if (attempt > 1) this.replanner.recordRecovered();
        hooks.onToolFinished?.(call, result);
        return { result };
      }
      const decision = this.replanner.decide(call, result, risk, attempt);
      hooks.onRecovery?.(call, decision);
      if (decision.action === 'retry' && !signal.aborted) {
        this.logger.info(`retrying ${call.name} in ${decision.delayMs} ms after ${result.code}`);
        await sleep(decision.delayMs, signal);
        continue;
      }
      const final = decision.action === 'hint' ? { ...result, hint: decision.hint } : result;
      hooks.onToolFinished?.(call, final);
      return decision.action === 'abort' ? { result: final, abort: decision.reason } : { result: final };
    }
  }

  /** One attempt: policy, validation, approval, then the tool under timeout and cancellation. */
  async execute(call: ToolCall, signal: AbortSignal, hooks: ExecutionHooks = {}): Promise<ToolResult> {
    const tool = this.registry.get(call.name);
    if (!tool) return notFoundResult(call.name, this.visibleTools().map((t) => t.name));
    if (!this.policy.permits(tool)) {
      return ToolResults.failure('DENIED', `Tool not allowed: ${this.policy.refusal(tool)}`, {
        observation: `${tool.name} did NOT run: ${this.policy.refusal(tool)}.`,
      });
    }
    const validation = tool.validateInput(call.input);
    if (!validation.ok) return ToolResults.invalidInput(tool.name, validation.errors);
    if (signal.aborted) return ToolResults.cancelled(tool.name);

    const denied = await this.approve(tool, call, signal, hooks);
    if (denied) return denied;

    const started = performance.now();
    const result = await this.runWithTimeout(tool, validation.value, signal);
    const timed = { ...result, durationMs: performance.now() - started };
    const status = timed.success ? 'ok' : `${timed.code}: ${timed.error}`;
    this.logger.debug(`tool ${tool.name} ${status} (${timed.durationMs.toFixed(1)} ms)`);
    return timed;
  }

  private visibleTools(): AnyTool[] {
    return this.registry.getAll().filter((tool) => this.policy.permits(tool));
  }

  private async approve(
    tool: AnyTool,
    call: ToolCall,
    signal: AbortSignal,
    hooks: ExecutionHooks,
  ): Promise<ToolResult | undefined> {
    if (this.autoApprove.has(tool.risk) || this.alwaysAllowed.has(tool.name)) return undefined;
    const request: ApprovalRequest = { call, risk: tool.risk, summary: summarize(call) };
    if (!this.requestApproval) {
      return ToolResults.denied(tool.name, request.summary, 'no one could approve it: approvals are needed for ' + tool.risk + ' tools');
    }
    hooks.onApprovalRequested?.(request);
    let decision: ApprovalDecision;
    try {
      decision = await raceAbort(this.requestApproval(request, signal), signal);
    } catch {
      return ToolResults.cancelled(tool.name, 'the request was cancelled while waiting for approval');
    }
    hooks.onApprovalResolved?.(call, decision);
    if (decision === 'deny') return ToolResults.denied(tool.name, request.summary);
    if (decision === 'always') this.alwaysAllowed.add(tool.name);
    return undefined;
  }

  private async runWithTimeout(tool: AnyTool, input: unknown, signal: AbortSignal): Promise<ToolResult> {
    const timeoutMs = this.timeouts[tool.name] ?? tool.timeoutMs ?? this.defaultTimeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let onAbort = (): void => {};
    // One listener both stops the tool and settles the race, and is removed afterwards,
    // so a long-lived request signal collects no listeners.
    const cancelled = new Promise<ToolResult>((resolve) => {
      onAbort = (): void => {
        controller.abort(signal.reason);
        resolve(ToolResults.cancelled(tool.name));
      };
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const timedOut = new Promise<ToolResult>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error('timeout'));
        resolve(ToolResults.timeout(tool.name, timeoutMs));
      }, timeoutMs);
    });
    try {
      return await Promise.race([invokeTool(tool, input, { signal: controller.signal, logger: this.logger }), timedOut, cancelled]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }
}

function stopReason(signal: AbortSignal, abort: string | undefined): string {
  return signal.aborted || !abort ? 'the request was cancelled' : `the request was stopped: ${abort}`;
}

function summarize(call: ToolCall): string {
  const input = JSON.stringify(call.input) ?? '';
  return `${call.name} ${input.length > 200 ? input.slice(0, 200) + '…' : input}`;
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
