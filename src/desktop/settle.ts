import { sleep } from '../core/timing';
import type { BBox } from '../core/types';
import type { ScreenImage, ScreenPort } from './ports/screenPort';
import { framesEqual } from './screenDiff';

export interface SettleOptions {
  timeoutMs?: number;
  intervalMs?: number;
  region?: BBox;
  signal?: AbortSignal;
}

export interface SettleResult {
  settled: boolean;
  waitedMs: number;
  frame: ScreenImage;
}

/**
 * Waits until the screen stops changing (two grabs in a row are equal) instead of sleeping a
 * fixed time after an action: fast apps are not waited for, slow ones are.
 */
export async function waitForSettle(screen: ScreenPort, options: SettleOptions = {}): Promise<SettleResult> {
  const timeoutMs = options.timeoutMs ?? 1_500;
  const intervalMs = options.intervalMs ?? 40;
  const started = performance.now();
  let previous = await screen.grab(options.region);
  for (;;) {
    await sleep(intervalMs, options.signal);
    const frame = await screen.grab(options.region);
    const waitedMs = performance.now() - started;
    if (framesEqual(previous, frame)) return { settled: true, waitedMs, frame };
    if (waitedMs >= timeoutMs || options.signal?.aborted) return { settled: false, waitedMs, frame };
    previous = frame;
  }
}
