/** Input coordinates are screen pixels; adapters divide by the scale factor themselves. */
export interface Point {
  x: number;
  y: number;
}

export type MouseButton = 'left' | 'right' | 'middle';
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

/** Portable key names: letters, digits, `enter`, `tab`, `escape`, `f1`…, arrows, `space`… */
export type Modifier = 'command' | 'ctrl' | 'alt' | 'shift' | 'super';

/** `true` is a double click and `false` a single one (the original form); 3 is a triple click. */
export type ClickCount = boolean | 1 | 2 | 3;

export interface KeyCombo {
  modifiers: Modifier[];
  key: string;
}

export interface InputPort {
  move(to: Point): Promise<void>;
  /** Where the pointer is, in screen pixels. */
  position(): Promise<Point>;
  /** Clicks `count` times with `modifiers` held (released afterwards, whatever happens). */
  click(at: Point, button: MouseButton, count: ClickCount, modifiers?: readonly Modifier[]): Promise<void>;
  drag(from: Point, to: Point, button: MouseButton): Promise<void>;
  /** Presses at the first point, moves through the others and releases at the last (always released). */
  dragAlong(path: readonly Point[], button: MouseButton): Promise<void>;
  /** Presses a button where the pointer is and leaves it pressed (see `mouseUp`). */
  mouseDown(button: MouseButton): Promise<void>;
  mouseUp(button: MouseButton): Promise<void>;
  /** `amount` in wheel steps, with `modifiers` held (e.g. shift for sideways, ctrl for zoom). */
  scroll(direction: ScrollDirection, amount: number, modifiers?: readonly Modifier[]): Promise<void>;
  /** Types text exactly, including shifted symbols and non-ASCII; `delayMs` between characters. */
  typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void>;
  /** Presses a key with modifiers held, then releases all. */
  pressKey(combo: KeyCombo): Promise<void>;
  /**
   * Holds a combination down for `ms`, then releases it. Released early when `signal` aborts
   * (it then returns; the caller checks the signal), and released whatever else happens.
   */
  holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void>;
  /** Whether a key name is known to this adapter (for validation before acting). */
  isKnownKey(name: string): boolean;
}
