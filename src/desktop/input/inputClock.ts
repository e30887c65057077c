import type { Point } from '../ports/inputPort';

/** One input GAI sent: what kind, and where it aimed (none for keys, typing and scrolls). */
export interface SentInput {
  kind: 'move' | 'click' | 'drag' | 'button' | 'scroll' | 'type' | 'key' | 'other';
  points: Point[];
}

/**
 * When GAI last sent input (noted by WatchedInput as each input ends): a reading of the screen
 * soon after must show what that input did, not the picture from just before the app redrew (a
 * fast or scripted model reads within milliseconds of a click).
 */
export class InputClock {
  private count = 0;
  private at = 0;
  private readonly listeners = new Set<(input: SentInput) => void>();

  /** Changes with every input sent. */
  get generation(): number {
    return this.count;
  }

  /** performance.now() when the last input was sent; 0 before any. */
  get lastAt(): number {
    return this.at;
  }

  note(input: SentInput = { kind: 'other', points: [] }): void {
    this.count++;
    this.at = performance.now();
    for (const listener of this.listeners) listener(input);
  }

  /** Each input GAI sent, as it ends (the live view marks where GAI acted). */
  onInput(listener: (input: SentInput) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
