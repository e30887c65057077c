import type { Modifier, MouseButton, Point, ScrollDirection } from '../../../desktop/ports/inputPort';
import type { RecordedInput, RecordedWindow } from '../../../desktop/ports/inputRecorderPort';

// Turns the X11 recorder helper's input lines (x11RecorderScript.ts) into the port's RecordedInput:
// one RecordedButton per click (its press and release lines merged, carrying upAt), and modifier
// keys reported only when pressed alone. A modifier pressed for a chord (shift for `Z`, ctrl for
// ctrl+a, the stop hotkey's own modifiers) is dropped: the chord's key or click carries it in
// `modifiers`. A lone one (super to open a launcher) is reported when it comes up. Inputs keep
// the order the X server processed them in: what follows a pending press waits behind it.

export interface RecorderInputLine {
  type: 'button' | 'scroll' | 'key';
  down: boolean;
  time: number;
  button?: MouseButton;
  direction?: ScrollDirection;
  at?: [number, number];
  key?: string;
  text?: string;
  modifier?: boolean;
  modifiers?: string[];
  window?: { id: string; title: string; app?: string; pid?: number } | null;
}

interface Slot {
  input: RecordedInput;
  /** What it waits for: a button's release, a modifier's release (lone) or a chord (dropped). */
  pending?: 'button' | 'modifier';
}

const MODIFIERS: readonly Modifier[] = ['ctrl', 'alt', 'shift', 'super', 'command'];
const BUTTONS: readonly MouseButton[] = ['left', 'middle', 'right'];
const DIRECTIONS: readonly ScrollDirection[] = ['up', 'down', 'left', 'right'];

/** A helper line's input fields checked, or undefined for a line that is not an input line. */
export function parseInputLine(message: Record<string, unknown>): RecorderInputLine | undefined {
  const { type, down, time } = message;
  if ((type !== 'button' && type !== 'scroll' && type !== 'key') || typeof down !== 'boolean' || typeof time !== 'number') return undefined;
  const line = message as unknown as RecorderInputLine;
  if (type === 'button' && !BUTTONS.includes(line.button as MouseButton)) return undefined;
  if (type === 'scroll' && !DIRECTIONS.includes(line.direction as ScrollDirection)) return undefined;
  if (type === 'key' && typeof line.key !== 'string') return undefined;
  if ((type !== 'key') && !isPair(line.at)) return undefined;
  return line;
}

export class RecordedInputAssembler {
  private readonly queue: Slot[] = [];
  private stopped = false;

  constructor(private readonly emit: (input: RecordedInput) => void) {}

  /** One input line of the helper, received at `seenAt` (performance.now()). */
  take(line: RecorderInputLine, seenAt: number): void {
    if (this.stopped) return;
    if (!line.down) {
      this.release(line);
      this.pump();
      return;
    }
    const base = { seenAt, serverTime: line.time, modifiers: modifiersOf(line.modifiers) };
    const window = windowOf(line.window);
    const isModifierKey = line.type === 'key' && line.modifier === true;
    // Anything but another modifier makes the modifiers held so far a chord's.
    if (!isModifierKey) this.dropPending('modifier');
    if (line.type === 'button') {
      this.queue.push({ pending: 'button', input: { kind: 'button', button: line.button!, at: pointOf(line.at!), ...base, ...(window ? { window } : {}) } });
    } else if (line.type === 'scroll') {
      this.queue.push({ input: { kind: 'scroll', direction: line.direction!, at: pointOf(line.at!), ...base, ...(window ? { window } : {}) } });
    } else {
      const text = line.text !== undefined && line.text !== '' && !isModifierKey ? { text: line.text } : {};
      this.queue.push({
        ...(isModifierKey ? { pending: 'modifier' as const } : {}),
        input: { kind: 'key', key: line.key!, ...text, ...base, ...(window ? { window } : {}) },
      });
    }
    this.pump();
  }

  /** The stop hotkey went down: the modifiers held for it are not input; nothing after it is. */
  stop(): void {
    if (this.stopped) return;
    this.dropPending('modifier');
    this.flush();
    this.stopped = true;
  }

  /** Delivers what still waits: a button not released yet (no upAt), a modifier still held. */
  flush(): void {
    for (const slot of this.queue) delete slot.pending;
    this.pump();
  }

  private release(line: RecorderInputLine): void {
    if (line.type === 'button') {
      const slot = this.queue.find((s) => s.pending === 'button' && s.input.kind === 'button' && s.input.button === line.button);
      if (!slot || slot.input.kind !== 'button') return;
      if (line.at) slot.input.upAt = pointOf(line.at);
      delete slot.pending;
    } else if (line.type === 'key') {
      // A modifier still pending at its release served no chord: it was pressed on its own.
      const slot = this.queue.find((s) => s.pending === 'modifier' && s.input.kind === 'key' && s.input.key === line.key);
      if (slot) delete slot.pending;
    }
  }

  private dropPending(kind: 'modifier'): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.pending === kind) this.queue.splice(i, 1);
    }
  }

  private pump(): void {
    while (this.queue.length > 0 && this.queue[0]!.pending === undefined) this.emit(this.queue.shift()!.input);
  }
}

function isPair(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'number' && typeof value[1] === 'number';
}

function pointOf(pair: [number, number]): Point {
  return { x: pair[0], y: pair[1] };
}

function modifiersOf(names: string[] | undefined): Modifier[] {
  return (names ?? []).filter((name): name is Modifier => (MODIFIERS as readonly string[]).includes(name));
}

function windowOf(window: RecorderInputLine['window']): RecordedWindow | undefined {
  if (!window || typeof window.id !== 'string') return undefined;
  return {
    id: window.id,
    title: typeof window.title === 'string' ? window.title : '',
    ...(typeof window.app === 'string' && window.app !== '' ? { app: window.app } : {}),
    ...(typeof window.pid === 'number' && window.pid > 0 ? { pid: window.pid } : {}),
  };
}
