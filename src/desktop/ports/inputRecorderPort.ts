import type { KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from './inputPort';

// The person's own input, watched while they show GAI a task (Record Steps). Only watched: the
// events reach their apps as always, and are reported after they happened, off their path.

/** The top-level window an event went to, as the display server named it when it happened. */
export interface RecordedWindow {
  /** The platform's window id (X11: the client window, decimal). */
  id: string;
  title: string;
  /** The application's identity where known (X11: WM_CLASS's class, e.g. `Mousepad`). */
  app?: string;
  pid?: number;
}

interface RecordedBase {
  /** `performance.now()` of the process when the event reached it. */
  seenAt: number;
  /** The display server's time of the event in milliseconds (wraps; only for ordering and double-click gaps). */
  serverTime: number;
}

export interface RecordedButton extends RecordedBase {
  kind: 'button';
  button: MouseButton;
  /** Screen pixels where the button went down. */
  at: Point;
  /** Where it came up, when the release was seen (a drag when far from `at`). */
  upAt?: Point;
  /** Modifiers held when it went down. */
  modifiers: Modifier[];
  /** The window under the pointer. */
  window?: RecordedWindow;
}

export interface RecordedKey extends RecordedBase {
  kind: 'key';
  /** The portable key name (desktop/input/keys.ts): `a`, `enter`, `f`, `tab`, `shift`… */
  key: string;
  /** The character it typed, when it typed one (no ctrl/alt/super held): `A`, `@`, `é`, ` `. */
  text?: string;
  /** Modifiers held when it went down (the key itself not counted). */
  modifiers: Modifier[];
  /** The window that had the keyboard focus. */
  window?: RecordedWindow;
}

export interface RecordedScroll extends RecordedBase {
  kind: 'scroll';
  direction: ScrollDirection;
  at: Point;
  modifiers: Modifier[];
  window?: RecordedWindow;
}

export type RecordedInput = RecordedButton | RecordedKey | RecordedScroll;

export interface RecordingHandlers {
  /** Each event, in the order the display server processed them. */
  onInput(input: RecordedInput): void;
  /** The person pressed the stop hotkey (it is not recorded). */
  onStop(): void;
  /** Something that does not work here; said once. */
  onWarning(message: string): void;
}

export interface RecordingOptions {
  /** Grabbed while recording: pressing it ends the recording and is not recorded itself. */
  stopHotkey?: KeyCombo;
}

export interface InputRecording {
  /** Ends the watch; every event the display had processed before is delivered first. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface InputRecorderPort {
  /** Starts watching; rejects with a message saying why it cannot work on this machine. */
  record(options: RecordingOptions, handlers: RecordingHandlers): Promise<InputRecording>;
}
