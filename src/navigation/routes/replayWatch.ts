// Watches one replayed path's steps: after each, waits while the step's window keeps changing,
// then checks the step did what it did when learned (the screen changed, and it is the screen
// the step led to), by the screen's signature first and OCR only when that does not match.
import type { BBox } from '../../common/geometry';
import type { ScreenImage, ScreenPort } from '../../desktop/ports/screenPort';
import type { WindowInfo, WindowPort } from '../../desktop/ports/windowPort';
import { framesEqual } from '../../desktop/reading/screenDiff';
import { waitForSettle } from '../../desktop/reading/settle';
import type { BrainNode } from '../store/brainTypes';
import type { StepVerifier } from './pathReplayer';
import type { ObservedSignature } from '../recognition/screenSignature';
import { windowRegion } from '../recognition/signatureProbe';

/** Between grabs while a replayed step settles: short, so a fast app is not waited for. */
const SETTLE_INTERVAL_MS = 25;

/** Which known node a frame shows; `by` says whether OCR was needed, `observed` its signature. */
export interface PeekResult {
  node?: BrainNode;
  by: 'signature' | 'ocr';
  observed?: ObservedSignature;
}

export interface ReplayWatchDeps {
  screen: ScreenPort;
  windows: WindowPort;
  /** The known node the screen shows (signature first); `frame`: a full-screen frame grabbed already. */
  peek(signal: AbortSignal, frame?: ScreenImage): Promise<PeekResult>;
  /** OCR confirmed the node: its signature learns the screen. */
  teach(key: string, observed: ObservedSignature): Promise<void>;
  labelOf(key: string): string;
}

export class ReplayWatch {
  private before?: ScreenImage;
  /**
   * The step's window: only it is grabbed and watched (a full 1920x1080 grab costs 30–300 ms on
   * a busy machine, a window's a few), and a caret blinking elsewhere does not keep the settle waiting.
   */
  private window?: WindowInfo;
  private region?: BBox;
  private settled?: ScreenImage;

  constructor(private readonly deps: ReplayWatchDeps) {}

  /** After a step: until its window changed from before it (when known) and stopped changing. */
  async settle(timeoutMs: number, signal: AbortSignal): Promise<void> {
    const region = this.region;
    const before = this.before;
    const result = await waitForSettle(this.deps.screen, {
      timeoutMs,
      signal,
      intervalMs: SETTLE_INTERVAL_MS,
      ...(before ? { before } : {}),
      ...(region ? { region } : {}),
    });
    this.settled = result.frame;
  }

  verifier(): StepVerifier {
    return {
      prepare: async () => {
        // The window the step acts in (a persistent X connection answers in ~1 ms).
        this.window = await this.deps.windows.activeWindow().catch(() => undefined);
        this.region = this.window ? await windowRegion(this.deps.screen, this.window.bounds) : undefined;
        this.before = await this.deps.screen.grab(this.region);
        this.settled = undefined;
      },
      check: async (_index, action, last, signal) => {
        const after = this.settled ?? (await this.deps.screen.grab(this.region));
        if (this.before && framesEqual(this.before, after) && !(await this.otherWindow())) return 'the screen did not change after it';
        const expected = 'reaches' in action ? action.reaches : undefined;
        if (last || expected === undefined) return undefined; // the arrival is checked at the end
        const seen = await this.deps.peek(signal, this.region ? undefined : after);
        if (seen.node?.key === expected) {
          if (seen.by === 'ocr' && seen.observed) await this.deps.teach(expected, seen.observed);
          return undefined;
        }
        const wanted = this.deps.labelOf(expected);
        return `the screen is ${seen.node ? `"${seen.node.label}"` : 'one not seen before'}, not "${wanted}" that this step led to when it was learned`;
      },
    };
  }

  /** With only the step's window watched: whether another window is active now (a dialog opened), or this one moved. */
  private async otherWindow(): Promise<boolean> {
    if (!this.region || !this.window) return false;
    const now = await this.deps.windows.activeWindow().catch(() => undefined);
    const was = this.window;
    if (!now) return true;
    const sameBounds = now.bounds.x === was.bounds.x && now.bounds.y === was.bounds.y && now.bounds.width === was.bounds.width && now.bounds.height === was.bounds.height;
    return now.id !== was.id || now.title !== was.title || !sameBounds;
  }
}
