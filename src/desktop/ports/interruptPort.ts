import type { KeyCombo, Point } from './inputPort';

// The person's ways to interrupt the agent whatever window is focused: a global stop hotkey, the
// fail-safe corner, and their own mouse and keyboard (takeover). One implementation per platform.

export type StopTrigger = 'hotkey' | 'corner';

export interface InterruptOptions {
  /** Grabbed for the whole watch; undefined: no hotkey. */
  stopHotkey?: KeyCombo;
  /** Stop when the person pushes the pointer into a screen corner. */
  failSafeCorner: boolean;
  /** Count the person's key presses, button presses and pointer moves. */
  watchInput: boolean;
}

/** What the person did since GAI last sent input (or since the last reset). */
export interface PersonActivity {
  keys: number;
  buttons: number;
  /** The pointer is not where GAI left it. */
  moved: boolean;
  pointer: Point;
  left: Point;
}

/** When the platform saw the stop, in milliseconds of the monotonic clock (process.hrtime's), when known. */
export interface StopTiming {
  /** The watcher received it. */
  seenAt?: number;
  /** The display server processed the key press (X: the event's timestamp, 32-bit milliseconds). */
  serverTime?: number;
}

export interface InterruptHandlers {
  onStop(trigger: StopTrigger, timing?: StopTiming): void;
  /** Something that does not work here (e.g. the hotkey is held by another program); said once. */
  onWarning(message: string): void;
}

/** What a running watch could set up; the parts that are off were reported through onWarning. */
export interface WatchCapabilities {
  hotkey: boolean;
  corner: boolean;
  input: boolean;
}

/** One watch, from the start of a request to its end. */
export interface InterruptWatch {
  readonly capabilities: WatchCapabilities;
  /**
   * GAI is about to send input aimed at these points; what arrives until `endOwnInput` is GAI's.
   * Returns the person's activity since GAI's last input, up to this moment.
   */
  beginOwnInput(points: Point[]): Promise<PersonActivity>;
  /** GAI finished sending; returns where the pointer was left. */
  endOwnInput(): Promise<Point | undefined>;
  /** The person's activity since GAI's last input; covers everything the display had processed when asked. */
  activity(): Promise<PersonActivity>;
  /** Forgets the activity so far (after the person chose to resume). */
  reset(): Promise<void>;
  /** Ends the watch and releases the hotkey; safe to call more than once. */
  close(): Promise<void>;
}

export interface InterruptPort {
  /** Starts watching; rejects with a message saying why it cannot work on this machine. */
  watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch>;
  /** Ends what it keeps ready between requests (a helper process). */
  dispose?(): void;
}
