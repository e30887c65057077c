// Watches one replayed path's steps: after each, waits while the step's window keeps changing,
// then checks the step did what it did when learned (the screen changed, and it is the screen
// the step led to), by the screen's signature first and OCR only when that does not match.
import type { BBox } from '../core/types';
import type { ScreenImage, ScreenPort } from '../desktop/ports/screenPort';
import type { WindowInfo } from '../desktop/ports/windowPort';
import { crop, framesEqual } from '../desktop/screenDiff';
import { waitForSettle } from '../desktop/settle';
import type { BrainNode } from './brainTypes';
import type { StepVerifier } from './pathReplayer';
import type { ObservedSignature } from './screenSignature';

/** Between grabs while a replayed step settles: short, so a fast app is not waited for. */
const SETTLE_INTERVAL_MS = 25;
/** Less of a window than this on screen is no region to watch. */
const MIN_REGION = 16;

/** Which known node a frame shows; `by` says whether OCR was needed, `observed` its signature. */
export interface PeekResult {
  node?: BrainNode;
  by: 'signature' | 'ocr';
  observed?: ObservedSignature;
}

export interface ReplayWatchDeps {
  screen: ScreenPort;
  /** The active window as the last look at the screen saw it (the window the next step acts in). */
  lastWindow(): WindowInfo | undefined;
  /** The known node a full-screen frame shows (signature first). */
  peek(signal: AbortSignal, frame: ScreenImage): Promise<PeekResult>;
  /** OCR confirmed the node: its signature learns the screen. */
  teach(key: string, observed: ObservedSignature): Promise<void>;
  labelOf(key: string): string;
}

export class ReplayWatch {
  private before?: ScreenImage;
  /** The step's window: the settle watches it alone, so a caret blinking elsewhere does not keep it waiting. */
  private region?: BBox;
  private settled?: ScreenImage;

  constructor(private readonly deps: ReplayWatchDeps) {}

  /** After a step: until its window changed from before it (when known) and stopped changing. */
  async settle(timeoutMs: number, signal: AbortSignal): Promise<void> {
    const region = this.region;
    const before = this.before && region ? crop(this.before, region) : this.before;
    const result = await waitForSettle(this.deps.screen, {
      timeoutMs,
      signal,
      intervalMs: SETTLE_INTERVAL_MS,
      ...(before ? { before } : {}),
      ...(region ? { region } : {}),
    });
    // A window's frame is not the screen: the check grabs the whole screen itself then.
    this.settled = region ? undefined : result.frame;
  }

  verifier(): StepVerifier {
    return {
      prepare: async () => {
        this.before = await this.deps.screen.grab();
        const window = this.deps.lastWindow();
        this.region = window ? clipTo(window.bounds, this.before) : undefined;
        this.settled = undefined;
      },
      check: async (_index, action, last, signal) => {
        const after = this.settled ?? (await this.deps.screen.grab());
        if (this.before && framesEqual(this.before, after)) return 'the screen did not change after it';
        const expected = 'reaches' in action ? action.reaches : undefined;
        if (last || expected === undefined) return undefined; // the arrival is checked at the end
        const seen = await this.deps.peek(signal, after);
        if (seen.node?.key === expected) {
          if (seen.by === 'ocr' && seen.observed) await this.deps.teach(expected, seen.observed);
          return undefined;
        }
        const wanted = this.deps.labelOf(expected);
        return `the screen is ${seen.node ? `"${seen.node.label}"` : 'one not seen before'}, not "${wanted}" that this step led to when it was learned`;
      },
    };
  }
}

/** `bounds` cut to the frame in whole pixels, or undefined when little of it is on it. */
function clipTo(bounds: BBox, frame: ScreenImage): BBox | undefined {
  const left = Math.max(frame.origin.x, Math.floor(bounds.x));
  const top = Math.max(frame.origin.y, Math.floor(bounds.y));
  const right = Math.min(frame.origin.x + frame.width, Math.ceil(bounds.x + bounds.width));
  const bottom = Math.min(frame.origin.y + frame.height, Math.ceil(bounds.y + bounds.height));
  return right - left >= MIN_REGION && bottom - top >= MIN_REGION ? { x: left, y: top, width: right - left, height: bottom - top } : undefined;
}
