import { raceAbort } from '../common/timing';

// The person took GAI's desktop over on purpose (the live view's Take over): GAI's next action
// waits, and input GAI was about to send is refused, until they hand it back. The explicit form
// of the takeover pause, which otherwise starts from input the watcher sees.

export interface HoldState {
  /** Who holds it, e.g. "the live view". */
  by: string;
  since: number;
}

export class PersonHold {
  private current?: { state: HoldState; released: Promise<void>; release: () => void };
  private readonly listeners = new Set<(held: HoldState | undefined) => void>();

  get state(): HoldState | undefined {
    return this.current?.state;
  }

  /** Takes it (a second take while held keeps the first); returns the hand-back, safe to call twice. */
  take(by: string): () => void {
    if (!this.current) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      this.current = { state: { by, since: Date.now() }, released, release };
      this.emit();
    }
    const held = this.current;
    return () => {
      if (this.current !== held) return;
      this.current = undefined;
      held.release();
      this.emit();
    };
  }

  /** Resolves when nobody holds it; rejects when `signal` aborts first. */
  async whileHeld(signal: AbortSignal): Promise<boolean> {
    let waited = false;
    while (this.current) {
      waited = true;
      await raceAbort(this.current.released, signal);
    }
    return waited;
  }

  onChange(listener: (held: HoldState | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.state);
  }
}
