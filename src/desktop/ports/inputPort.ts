/** Input coordinates are screen pixels; adapters divide by the scale factor themselves. */
export interface Point {
  x: number;
  y: number;
}

export type MouseButton = 'left' | 'right' | 'middle';
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

/** Portable key names: letters, digits, `enter`, `tab`, `escape`, `f1`…, arrows, `space`… */
export type Modifier = 'command' | 'ctrl' | 'alt' | 'shift';

export interface KeyCombo {
  modifiers: Modifier[];
  key: string;
}

export interface InputPort {
  move(to: Point): Promise<void>;
  click(at: Point, button: MouseButton, double: boolean): Promise<void>;
  drag(from: Point, to: Point, button: MouseButton): Promise<void>;
  /** `amount` in wheel steps. */
  scroll(direction: ScrollDirection, amount: number): Promise<void>;
  /** Types text exactly, including shifted symbols and non-ASCII; `delayMs` between characters. */
  typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void>;
  /** Presses a key with modifiers held, then releases all. */
  pressKey(combo: KeyCombo): Promise<void>;
  /** Whether a key name is known to this adapter (for validation before acting). */
  isKnownKey(name: string): boolean;
}
