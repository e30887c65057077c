import { createHash } from 'node:crypto';
import type { RiskLevel, ToolResult } from '../tools/toolTypes';
import type { ToolCall } from '../model/messages';

// After a failed call the replanner decides (seed 002): retry with backoff, give the model
// an alternative hint, or abort the request. Retries are only for read tools: repeating a
// click or a keystroke that timed out may do it twice.

export type FailureClass = 'transient' | 'not_found' | 'denied' | 'invalid' | 'fatal';

export type RecoveryDecision =
  | { action: 'retry'; delayMs: number; failureClass: FailureClass }
  | { action: 'hint'; hint: string; failureClass: FailureClass }
  | { action: 'abort'; reason: string; failureClass: FailureClass };

export interface ReplannerOptions {
  /** Retries of one read call after a transient failure. */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Identical failing calls (same tool and input) in one request before giving up. */
  maxRepeatedFailures?: number;
}

export interface RecoveryStats {
  failures: Record<FailureClass, number>;
  retries: number;
  /** Calls that failed, were retried and then succeeded. */
  recovered: number;
  hints: number;
  aborts: number;
}

const TRANSIENT_PATTERN = /ECONNRESET|ETIMEDOUT|EAGAIN|EBUSY|ECONNREFUSED|socket hang up|temporar(y|ily)|try again/i;

export class Replanner {
  private readonly options: Required<ReplannerOptions>;
  private readonly repeated = new Map<string, number>();
  private statistics: RecoveryStats = emptyStats();

  constructor(options: ReplannerOptions = {}) {
    this.options = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000, maxRepeatedFailures: 3, ...options };
  }

  classify(result: ToolResult): FailureClass {
    switch (result.code) {
      case 'TIMEOUT':
        return 'transient';
      case 'NOT_FOUND':
        return 'not_found';
      case 'DENIED':
        return 'denied';
      case 'INVALID_INPUT':
        return 'invalid';
      case 'FAILED':
        return TRANSIENT_PATTERN.test(result.error ?? '') ? 'transient' : 'fatal';
      default:
        return 'fatal';
    }
  }

  /** `attempt` counts from 1 for the first run of the call. */
  decide(call: ToolCall, result: ToolResult, risk: RiskLevel, attempt: number): RecoveryDecision {
    const failureClass = this.classify(result);
    this.statistics.failures[failureClass]++;

    if (result.code === 'CANCELLED') return this.abort('the request was cancelled', failureClass);
    if (failureClass === 'transient' && risk === 'read' && attempt <= this.options.maxRetries) {
      this.statistics.retries++;
      const delayMs = Math.min(this.options.baseDelayMs * 2 ** (attempt - 1), this.options.maxDelayMs);
      return { action: 'retry', delayMs, failureClass };
    }
    // A digest: the input may hold a secret the person typed, and a long request keeps one per failure.
    const key = createHash('sha256').update(`${call.name}\u0000${stableJson(call.input)}`).digest('base64');
    const count = (this.repeated.get(key) ?? 0) + 1;
    this.repeated.set(key, count);
    if (count >= this.options.maxRepeatedFailures) {
      return this.abort(`${call.name} failed ${count} times with the same input; stopping instead of looping`, failureClass);
    }
    this.statistics.hints++;
    return { action: 'hint', hint: result.hint ?? defaultHint(failureClass), failureClass };
  }

  /** Call when a retried call finally succeeded. */
  recordRecovered(): void {
    this.statistics.recovered++;
  }

  /** A new request starts: repeated-failure counts start again; statistics are kept. */
  startRequest(): void {
    this.repeated.clear();
  }

  stats(): RecoveryStats {
    return structuredClone(this.statistics);
  }

  resetStats(): void {
    this.statistics = emptyStats();
  }

  private abort(reason: string, failureClass: FailureClass): RecoveryDecision {
    this.statistics.aborts++;
    return { action: 'abort', reason, failureClass };
  }
}

function defaultHint(failureClass: FailureClass): string {
  switch (failureClass) {
    case 'not_found':
      return 'Nothing matched. Look at the screen again (ocr or smart_screen_reader) and try another target or wording.';
    case 'denied':
      return 'The user refused this action. Do not repeat it; ask the user how to continue, or finish.';
    case 'invalid':
      return 'Fix the input to match the tool schema (the error names the field) and call again.';
    case 'transient':
      return 'This may have been a passing problem. Check the current screen state before repeating the action.';
    case 'fatal':
      return 'Retrying the same call will not help; use another tool or approach.';
  }
}

function emptyStats(): RecoveryStats {
  return { failures: { transient: 0, not_found: 0, denied: 0, invalid: 0, fatal: 0 }, retries: 0, recovered: 0, hints: 0, aborts: 0 };
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}
