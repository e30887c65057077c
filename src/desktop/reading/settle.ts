import { sleep } from '../../common/timing';
import type { BBox } from '../../common/geometry';
import type { ScreenImage, ScreenPort } from '../ports/screenPort';
import { framesEqual } from './screenDiff';

export interface SettleOptions {
  timeoutMs?: number;
  /** Between grabs; default 40 ms. */
  intervalMs?: number;
  region?: BBox;
  signal?: AbortSignal;
  /**
   * The frame from before the action (same region): the wait first lasts until the screen
   * differs from it, so an app that reacts a little late is not taken as settled on the old
   * picture, then until it stops changing.
   */
  before?: ScreenImage;
  /** How long to wait for that first change before giving up on it; default 500 ms (within timeoutMs). */
  reactionMs?: number;
}

export interface SettleResult {
  settled: boolean;
  waitedMs: number;
  frame: ScreenImage;
  /** With `before`: whether the screen changed from it at all. */
  changed?: boolean;
}

/**
 * Waits until the screen stops changing (two grabs in a row are equal) instead of sleeping a
 * fixed time after an action: fast apps are not waited for, slow ones are. With `before`, a
 * screen that has not changed yet is not "settled": the wait lasts until a change was seen
 * (or `reactionMs` passed without one) and then as long as the screen keeps changing.
 */
export async function waitForSettle(screen: ScreenPort, options: SettleOptions = {}): Promise<SettleResult> {
  const timeoutMs = options.timeoutMs ?? 1_500;
  const intervalMs = options.intervalMs ?? 40;
  const reactionMs = Math.min(timeoutMs, options.reactionMs ?? 500);
  const before = options.before;
  const started = performance.now();
  let previous = await screen.grab(options.region);
  let changed = before ? !framesEqual(before, previous) : undefined;
  for (;;) {
    await sleep(intervalMs, options.signal);
    const frame = await screen.grab(options.region);
    const waitedMs = performance.now() - started;
    const result = (settled: boolean): SettleResult => ({ settled, waitedMs, frame, ...(changed === undefined ? {} : { changed }) });
    if (changed === false) {
      // Nothing happened yet: keep watching for the app's reaction, but not forever.
      if (framesEqual(before!, frame)) {
        if (waitedMs >= reactionMs || options.signal?.aborted) return result(true);
        continue;
      }
      changed = true;
    } else if (framesEqual(previous, frame)) {
      return result(true);
    }
    if (waitedMs >= timeoutMs || options.signal?.aborted) return result(false);
    previous = frame;
  }
}

/**
 * Whether the screen (the region of `before`) differs from `before` within `withinMs`: the first
 * grab that differs ends the wait, so an action that shows its effect is not waited on further.
 */
export async function waitForChange(screen: ScreenPort, before: ScreenImage, options: { region?: BBox; withinMs: number; intervalMs?: number; signal?: AbortSignal }): Promise<boolean> {
  const started = performance.now();
  for (;;) {
    if (!framesEqual(before, await screen.grab(options.region))) return true;
    if (performance.now() - started >= options.withinMs || options.signal?.aborted) return false;
    await sleep(options.intervalMs ?? 30, options.signal);
  }
}

/** When GAI last sent input (InputClock's, desktop/input/inputClock.ts). */
export interface InputTimes {
  readonly generation: number;
  readonly lastAt: number;
}

/** A reading this soon after GAI's input waits for the app to show its effect. */
const REACTION_MS = 300;
/** Without a frame from before the input to compare with, a reading waits at least this long after it. */
const MIN_REACTION_MS = 120;

/**
 * The screen once GAI's last input has had its effect, or undefined when the input was long
 * enough ago to have had it. `before` (a frame grabbed before that input, same region): the wait
 * lasts until the screen differs from it, at most 300 ms after the input; without it, at least
 * 120 ms after the input; then until the screen stops changing.
 */
export async function frameAfterInput(screen: ScreenPort, input: InputTimes, options: { region?: BBox; before?: ScreenImage; signal?: AbortSignal } = {}): Promise<ScreenImage | undefined> {
  const since = performance.now() - input.lastAt;
  if (since >= REACTION_MS) return undefined;
  if (!options.before && since < MIN_REACTION_MS) await sleep(MIN_REACTION_MS - since, options.signal);
  const settled = await waitForSettle(screen, {
    ...(options.region ? { region: options.region } : {}),
    ...(options.before ? { before: options.before } : {}),
    reactionMs: Math.max(0, REACTION_MS - since),
    timeoutMs: 1_500,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return settled.frame;
}
