// The live view's frames: the desktop is read a few times a second and compared with the last
// reading; only a changed screen is encoded and sent. While the screen is still, a tick is one
// copy and one compare of its bytes (no conversion, no encoding, nothing sent).
import { errorMessage } from '../../common/errors';
import type { ImageCodec } from '../ports/imageCodec';
import type { LiveDesktopPort } from '../ports/liveDesktopPort';
import { frameImage } from './bgrxPixels';

export interface LiveFrame {
  seq: number;
  width: number;
  height: number;
  /** A data: URL (JPEG). */
  image: string;
  /** Date.now() when the changed pixels were read. */
  capturedAt: number;
}

export interface LiveFramesOptions {
  onFrame(frame: LiveFrame): void;
  /** A reading or an encoding failed (said once per distinct message); frames go on. */
  onError?(message: string): void;
  /** Between readings; default 125 ms (8 a second at most). */
  intervalMs?: number;
  /** Frames wider are scaled down; default 1600 px. */
  maxWidth?: number;
  quality?: number;
}

export interface LiveFrameStats {
  ticks: number;
  frames: number;
  /** Time spent reading and comparing, and encoding, in ms. */
  readMs: number;
  encodeMs: number;
}

export class LiveFrames {
  private timer?: NodeJS.Timeout;
  private last?: Buffer;
  private spare?: Buffer;
  private seq = 0;
  private running = false;
  private ticking = false;
  private lastError?: string;
  readonly stats: LiveFrameStats = { ticks: 0, frames: 0, readMs: 0, encodeMs: 0 };

  constructor(
    private readonly source: LiveDesktopPort,
    private readonly codec: ImageCodec,
    private readonly options: LiveFramesOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The next reading is sent even if nothing changed (a page that loaded again has no picture). */
  resend(): void {
    this.last = undefined;
    // A tick under way schedules the next one itself.
    if (this.running && !this.ticking) this.schedule(0);
  }

  /** One reading now: whether it sent a frame (the tests and the bench step through this). */
  async tick(): Promise<boolean> {
    this.stats.ticks++;
    const started = performance.now();
    let frame;
    try {
      frame = this.source.readFrame(this.spare);
    } catch (error) {
      this.report(`reading GAI's desktop failed: ${errorMessage(error)}`);
      return false;
    }
    const capturedAt = Date.now();
    const same = this.last !== undefined && this.last.equals(frame.data);
    this.stats.readMs += performance.now() - started;
    if (same) {
      this.spare = frame.data;
      return false;
    }
    // The buffer just read is kept to compare with; the previous one is read into next time.
    this.spare = this.last;
    this.last = frame.data;
    const encoding = performance.now();
    try {
      const encoded = await this.codec.encode(frameImage(frame), 'jpeg', { maxWidth: this.options.maxWidth ?? 1600, quality: this.options.quality ?? 75 });
      this.stats.encodeMs += performance.now() - encoding;
      this.stats.frames++;
      this.options.onFrame({ seq: ++this.seq, width: frame.width, height: frame.height, image: `data:image/jpeg;base64,${encoded.data.toString('base64')}`, capturedAt });
      return true;
    } catch (error) {
      this.last = undefined;
      this.report(`encoding a frame of GAI's desktop failed: ${errorMessage(error)}`);
      return false;
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ticking = true;
      const started = performance.now();
      void this.tick().finally(() => {
        this.ticking = false;
        // The interval counts from the reading's start: encoding a frame does not slow the rate.
        if (this.running && !this.timer) this.schedule(Math.max(10, (this.options.intervalMs ?? 125) - (performance.now() - started)));
      });
    }, delayMs);
    this.timer.unref?.();
  }

  private report(message: string): void {
    if (message === this.lastError) return;
    this.lastError = message;
    this.options.onError?.(message);
  }
}
