import type { Desktop } from '../ports/desktop';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../ports/inputPort';

/**
 * When GAI last sent input: a reading of the screen soon after must show what that input did,
 * not the picture from just before the app redrew (a fast or scripted model reads within
 * milliseconds of a click).
 */
export class InputClock {
  private count = 0;
  private at = 0;

  /** Changes with every input sent. */
  get generation(): number {
    return this.count;
  }

  /** performance.now() when the last input was sent; 0 before any. */
  get lastAt(): number {
    return this.at;
  }

  note(): void {
    this.count++;
    this.at = performance.now();
  }
}

/** Decorates an InputPort: every input that was sent (or may have been, partly) is noted on the clock. */
export class ClockedInput implements InputPort {
  constructor(
    private readonly inner: InputPort,
    private readonly clock: InputClock,
  ) {}

  private async noted(sent: Promise<void>): Promise<void> {
    try {
      await sent;
    } finally {
      this.clock.note();
    }
  }

  move(to: Point): Promise<void> {
    return this.noted(this.inner.move(to));
  }

  position(): Promise<Point> {
    return this.inner.position();
  }

  click(at: Point, button: MouseButton, count: ClickCount, modifiers?: readonly Modifier[]): Promise<void> {
    return this.noted(this.inner.click(at, button, count, modifiers));
  }

  drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    return this.noted(this.inner.drag(from, to, button));
  }

  dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    return this.noted(this.inner.dragAlong(path, button));
  }

  mouseDown(button: MouseButton): Promise<void> {
    return this.noted(this.inner.mouseDown(button));
  }

  mouseUp(button: MouseButton): Promise<void> {
    return this.noted(this.inner.mouseUp(button));
  }

  scroll(direction: ScrollDirection, amount: number, modifiers?: readonly Modifier[]): Promise<void> {
    return this.noted(this.inner.scroll(direction, amount, modifiers));
  }

  typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    return this.noted(this.inner.typeText(text, delayMs, signal));
  }

  pressKey(combo: KeyCombo): Promise<void> {
    return this.noted(this.inner.pressKey(combo));
  }

  holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    return this.noted(this.inner.holdKey(combo, ms, signal));
  }

  isKnownKey(name: string): boolean {
    return this.inner.isKnownKey(name);
  }
}

export function withClockedInput(desktop: Desktop, clock: InputClock): Desktop {
  return { ...desktop, input: new ClockedInput(desktop.input, clock) };
}
