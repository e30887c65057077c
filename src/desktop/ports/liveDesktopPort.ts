import type { InputPort } from './inputPort';

/** The screen's pixels as the display server keeps them: rows of `stride` bytes, 4 bytes a pixel, blue first (BGRX). */
export interface RawFrame {
  width: number;
  height: number;
  stride: number;
  data: Buffer;
}

/**
 * GAI's own desktop as the live view sees it: its pixels, read cheaply many times a second, and
 * the person's input when they take over (not GAI's input, so not watched or guarded).
 */
export interface LiveDesktopPort {
  /** Where it is, e.g. ":5". */
  readonly display: string;
  /** Copies the screen as it is now into `into` when that has the right size, else into a new buffer. */
  readFrame(into?: Buffer): RawFrame;
  readonly input: InputPort;
}
