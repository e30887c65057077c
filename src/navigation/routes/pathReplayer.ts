// Replays a learned path through the real tools, without the model: each action by its text
// anchor, the screen left to settle after each step. Coordinates seen when the path was learned
// only pick among several matches of the text (or stand in when a step had no text at all); a
// label that is gone fails the step rather than clicking blind where it used to be.
import { centreOf, distance } from '../../common/geometry';
import type { ToolResult } from '../../tools/toolTypes';
import type { ExecuteOptions } from '../../runtime/toolRuntime';
import type { BrainPath, PathAction } from '../store/brainTypes';
import { describeAction, replayCalls, type ToolInvocation } from './pathActions';

/** Runs a step through the host's runtime: its policy, approvals and guards apply. */
/**
 * Asks the person for a secret a learned step typed (it was never stored): the terminal without
 * echo, or a password box. Undefined: no answer (cancelled, or no one to ask).
 */
export type SecretPrompt = (label: string, signal: AbortSignal) => Promise<string | undefined>;

export type ToolCaller = (call: ToolInvocation, signal: AbortSignal, options?: ExecuteOptions) => Promise<ToolResult>;

export interface ReplayStep {
  pathId: string;
  index: number;
  action: string;
  ok: boolean;
  observation: string;
  durationMs: number;
  /** How the step was done: its text, the learned point (to choose among matches), or a wait. */
  via: 'text' | 'point' | 'settle' | 'other';
  /** Where the step's time went: the tool call(s), waiting for the screen to settle, checking its effect. */
  timing: StepTiming;
}

export interface StepTiming {
  actMs: number;
  settleMs: number;
  /** The verifier's prepare and check together. */
  verifyMs: number;
}

export interface PathReplay {
  ok: boolean;
  steps: ReplayStep[];
  /** 0-based index of the step that failed. */
  failedStep?: number;
  reason?: string;
  /** The failed step was not allowed (DENIED): nothing is wrong with the path, the person's approval is missing. */
  denied?: boolean;
  durationMs: number;
}

export interface ReplayOptions {
  callTool: ToolCaller;
  /** Waits until the screen stops changing (after every step and for `wait` actions). */
  settle: (timeoutMs: number, signal: AbortSignal) => Promise<void>;
  signal: AbortSignal;
  onStep?: (step: ReplayStep) => void;
  /** Before each step runs, so a host can say which step is under way (not only which ended). */
  onStepStart?: (start: StepStart) => void;
  /** Default 1500 ms. */
  settleTimeoutMs?: number;
  /** For steps that typed a secret; without it such a step fails, saying why. */
  promptSecret?: SecretPrompt;
  /** How each step is approved (default: the runtime's rules). */
  approvalFor?: (index: number, action: PathAction) => ExecuteOptions;
  /**
   * Checks a step's effect once the screen settled: returns why it did not work (the screen did
   * not change, or shows another screen than the one recorded), so a wrong turn stops at once.
   * `prepare` runs before the step (e.g. to keep the frame it is compared with).
   */
  verifier?: StepVerifier;
}

export interface StepStart {
  pathId: string;
  /** 0-based, within this path. */
  index: number;
  /** Steps in this path. */
  total: number;
  /** The step in words, e.g. `click "Network"`. */
  action: string;
}

export interface StepVerifier {
  prepare(signal: AbortSignal): Promise<void>;
  check(index: number, action: PathAction, last: boolean, signal: AbortSignal): Promise<string | undefined>;
}

export async function replayPath(path: BrainPath, options: ReplayOptions): Promise<PathReplay> {
  const started = performance.now();
  const steps: ReplayStep[] = [];
  const settleTimeout = options.settleTimeoutMs ?? 1_500;
  for (const [index, action] of path.actions.entries()) {
    options.signal.throwIfAborted();
    options.onStepStart?.({ pathId: path.id, index, total: path.actions.length, action: describeAction(action) });
    const stepStarted = performance.now();
    const timing: StepTiming = { actMs: 0, settleMs: 0, verifyMs: 0 };
    const settle = async (timeoutMs: number, signal: AbortSignal): Promise<void> => {
      const started = performance.now();
      await options.settle(timeoutMs, signal);
      timing.settleMs += performance.now() - started;
    };
    const verify = action.tool !== 'wait' ? options.verifier : undefined;
    await verify?.prepare(options.signal);
    const acting = performance.now();
    timing.verifyMs = acting - stepStarted;
    const { denied, ...acted } = await replayAction(action, { ...options, settle }, settleTimeout, options.approvalFor?.(index, action) ?? {});
    let done = acted;
    const checking = performance.now();
    timing.actMs = checking - acting - timing.settleMs;
    if (done.ok && verify) {
      const problem = await verify.check(index, action, index === path.actions.length - 1, options.signal);
      if (problem) done = { ...done, ok: false, observation: `${done.observation} But ${problem}.` };
    }
    timing.verifyMs += performance.now() - checking;
    const step: ReplayStep = { pathId: path.id, index, action: describeAction(action), ...done, durationMs: performance.now() - stepStarted, timing };
    steps.push(step);
    options.onStep?.(step);
    if (!step.ok) {
      return { ok: false, steps, failedStep: index, reason: `step ${index + 1} (${step.action}): ${step.observation}`, ...(denied ? { denied } : {}), durationMs: performance.now() - started };
    }
  }
  return { ok: true, steps, durationMs: performance.now() - started };
}

type ActionDone = Pick<ReplayStep, 'ok' | 'observation' | 'via'> & { denied?: boolean };

async function replayAction(action: PathAction, options: ReplayOptions, settleTimeout: number, approval: ExecuteOptions): Promise<ActionDone> {
  const calls = replayCalls(action);
  if (calls.settle) {
    await options.settle(calls.settle.timeoutMs, options.signal);
    return { ok: true, observation: 'Waited for the screen to settle.', via: 'settle' };
  }
  if (!calls.primary) return { ok: false, observation: 'This step has nothing to replay (no text and no point).', via: 'other' };
  if (calls.secret) {
    const label = `${describeAction(action)}: enter it to continue the way`;
    const text = options.promptSecret ? await options.promptSecret(label, options.signal) : undefined;
    if (!text) {
      const why = options.promptSecret ? 'no secret was entered' : 'no one can enter it here (no terminal or window to ask in)';
      return { ok: false, observation: `This step types a secret that is not stored, and ${why}.`, via: 'other' };
    }
    calls.primary.input.text = text;
  }
  const byText = typeof calls.primary.input.text === 'string';
  let result = await options.callTool(calls.primary, options.signal, approval);
  let via: ReplayStep['via'] = byText ? 'text' : calls.primary.name === 'click' || calls.primary.name === 'scroll' ? 'point' : 'other';
  if (!result.success && byText && 'point' in action && action.point) {
    // Several matches of the text: the one nearest to where it was when learned.
    const nearest = nearestCandidate(result, action.point);
    if (nearest) {
      result = await options.callTool({ name: calls.primary.name, input: { ...withoutTextOptions(calls.primary.input), x: nearest.x, y: nearest.y } }, options.signal, approval);
      via = 'point';
    }
  }
  if (result.success) await options.settle(settleTimeout, options.signal);
  return { ok: result.success, observation: result.observation, via, ...(result.code === 'DENIED' ? { denied: true } : {}) };
}

function nearestCandidate(result: ToolResult, point: { x: number; y: number }): { x: number; y: number } | undefined {
  const candidates = (result.data as { candidates?: Array<{ bbox?: { x: number; y: number; width: number; height: number } }> } | undefined)?.candidates;
  if (!Array.isArray(candidates)) return undefined;
  let best: { x: number; y: number; distance: number } | undefined;
  for (const candidate of candidates) {
    const box = candidate.bbox;
    if (!box) continue;
    const centre = centreOf(box);
    const away = distance(centre, point);
    if (!best || away < best.distance) best = { ...centre, distance: away };
  }
  return best ? { x: best.x, y: best.y } : undefined;
}

function withoutTextOptions(input: Record<string, unknown>): Record<string, unknown> {
  const { text: _text, near: _near, occurrence: _occurrence, ...rest } = input;
  return rest;
}
