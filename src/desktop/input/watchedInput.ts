import type { Desktop } from '../ports/desktop';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../ports/inputPort';
import type { ScreenPort } from '../ports/screenPort';
import type { InputClock, SentInput } from './inputClock';

/**
 * What the input decorator reports to and asks of whoever watches the person's input (the
 * safety monitor): GAI's own input is announced so it is not mistaken for the person's, and
 * after a stop no further input is sent.
 */
export interface OwnInputGate {
  /** Why input is refused (the person stopped GAI), or undefined. */
  readonly refusal: string | undefined;
  /** Aborted when the person stops GAI, while a watch runs; undefined otherwise. */
  readonly stopSignal: AbortSignal | undefined;
  beginOwnInput(points: Point[]): Promise<void>;
  /** GAI finished sending; the watcher records where GAI left the pointer. */
  endOwnInput(): Promise<void>;
}

export class InputRefusedError extends Error {
  constructor(reason: string) {
    super(`input refused: ${reason}`);
    this.name = 'InputRefusedError';
  }
}

/**
 * Decorates the platform's InputPort: every call is bracketed by begin/end so the watcher
 * attributes what it sees in between to GAI and records where GAI left the pointer. Once the
 * person stopped GAI, calls are refused and a running type_text stops between characters.
 */
export class WatchedInput implements InputPort {
  /** `screen`: points off it are refused (nut-js wraps one far off around: 99999 lands at 0, a corner). */
  constructor(
    private readonly inner: InputPort,
    private readonly gate: OwnInputGate,
    private readonly screen?: ScreenPort,
    /** Noted when each input has been sent: a reading right after it waits for its effect. */
    private readonly clock?: InputClock,
  ) {}

  move(to: Point): Promise<void> {
    return this.send([to], () => this.inner.move(to), 'move');
  }

  /** Only reads the pointer: not GAI's input, so neither bracketed nor refused. */
  position(): Promise<Point> {
    return this.inner.position();
  }

  click(at: Point, button: MouseButton, count: ClickCount, modifiers?: readonly Modifier[]): Promise<void> {
    return this.send([at], () => this.inner.click(at, button, count, modifiers), 'click');
  }

  drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    return this.send([from, to], () => this.inner.drag(from, to, button), 'drag');
  }

  dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    return this.send([...path], () => this.inner.dragAlong(path, button), 'drag');
  }

  mouseDown(button: MouseButton): Promise<void> {
    return this.send([], () => this.inner.mouseDown(button), 'button');
  }

  /**
   * Releasing is never refused: after a stop, a button GAI left pressed must still come up
   * (it gives the person their mouse back rather than acting), even when the watcher refuses.
   */
  async mouseUp(button: MouseButton): Promise<void> {
    try {
      await this.gate.beginOwnInput([]);
    } catch (error) {
      await this.inner.mouseUp(button);
      throw error;
    }
    try {
      await this.inner.mouseUp(button);
    } finally {
      this.clock?.note({ kind: 'button', points: [] });
      await this.gate.endOwnInput();
    }
  }

  scroll(direction: ScrollDirection, amount: number, modifiers?: readonly Modifier[]): Promise<void> {
    return this.send([], () => this.inner.scroll(direction, amount, modifiers), 'scroll');
  }

  typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    return this.send([], () => this.inner.typeText(text, delayMs, this.withStop(signal)), 'type');
  }

  /** `signal`, also aborted when the person stops GAI (read when the input starts). */
  private withStop(signal: AbortSignal | undefined): AbortSignal | undefined {
    const signals = [signal, this.gate.stopSignal].filter((s): s is AbortSignal => s !== undefined);
    return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  }

  pressKey(combo: KeyCombo): Promise<void> {
    return this.send([], () => this.inner.pressKey(combo), 'key');
  }

  /** A stop by the person releases the keys at once. */
  holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    return this.send([], () => this.inner.holdKey(combo, ms, this.withStop(signal)), 'key');
  }

  isKnownKey(name: string): boolean {
    return this.inner.isKnownKey(name);
  }

  /** `points`: where this input aims, so a click GAI aims into a corner is not the fail-safe. */
  private async send(points: Point[], action: () => Promise<void>, kind: SentInput['kind']): Promise<void> {
    this.refuseIfStopped();
    await this.refuseOffScreen(points);
    await this.gate.beginOwnInput(points);
    try {
      this.refuseIfStopped(); // the person may have stopped GAI while the watcher answered
      await action();
    } finally {
      this.clock?.note({ kind, points });
      await this.gate.endOwnInput();
    }
  }

  private async refuseOffScreen(points: Point[]): Promise<void> {
    if (!this.screen || points.length === 0) return;
    const { width, height } = await this.screen.size();
    const off = points.find((p) => !(p.x >= 0 && p.y >= 0 && p.x < width && p.y < height));
    if (off) throw new InputRefusedError(`(${off.x}, ${off.y}) is off the ${width}x${height} screen`);
  }

  private refuseIfStopped(): void {
    const refusal = this.gate.refusal;
    if (refusal !== undefined) throw new InputRefusedError(refusal);
  }
}

/** The desktop with its input watched through `gate` (what the composition roots build), each input noted on `clock`. */
export function withWatchedInput(desktop: Desktop, gate: OwnInputGate, clock?: InputClock): Desktop {
  return { ...desktop, input: new WatchedInput(desktop.input, gate, desktop.screen, clock) };
}
