import type { Desktop } from './ports/desktop';
import type { InputPort, KeyCombo, MouseButton, Point, ScrollDirection } from './ports/inputPort';

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
  constructor(
    private readonly inner: InputPort,
    private readonly gate: OwnInputGate,
  ) {}

  move(to: Point): Promise<void> {
    return this.send([to], () => this.inner.move(to));
  }

  click(at: Point, button: MouseButton, double: boolean): Promise<void> {
    return this.send([at], () => this.inner.click(at, button, double));
  }

  drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    return this.send([from, to], () => this.inner.drag(from, to, button));
  }

  scroll(direction: ScrollDirection, amount: number): Promise<void> {
    return this.send([], () => this.inner.scroll(direction, amount));
  }

  typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    return this.send([], () => {
      const stop = this.gate.stopSignal;
      const signals = [signal, stop].filter((s): s is AbortSignal => s !== undefined);
      return this.inner.typeText(text, delayMs, signals.length > 1 ? AbortSignal.any(signals) : signals[0]);
    });
  }

  pressKey(combo: KeyCombo): Promise<void> {
    return this.send([], () => this.inner.pressKey(combo));
  }

  isKnownKey(name: string): boolean {
    return this.inner.isKnownKey(name);
  }

  /** `points`: where this input aims, so a click GAI aims into a corner is not the fail-safe. */
  private async send(points: Point[], action: () => Promise<void>): Promise<void> {
    this.refuseIfStopped();
    await this.gate.beginOwnInput(points);
    try {
      this.refuseIfStopped(); // the person may have stopped GAI while the watcher answered
      await action();
    } finally {
      await this.gate.endOwnInput();
    }
  }

  private refuseIfStopped(): void {
    const refusal = this.gate.refusal;
    if (refusal !== undefined) throw new InputRefusedError(refusal);
  }
}

/** The desktop with its input watched through `gate` (what the composition roots build). */
export function withWatchedInput(desktop: Desktop, gate: OwnInputGate): Desktop {
  return { ...desktop, input: new WatchedInput(desktop.input, gate) };
}
