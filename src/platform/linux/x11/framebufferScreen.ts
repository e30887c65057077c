// The screen of GAI's own desktop read straight from Xvfb's memory-mapped framebuffer (-fbdir):
// no X connection, so it works from a process whose own DISPLAY is another one (the VS Code
// extension host on the person's desktop, where libnut already holds the person's display) or
// none (a remote extension host), and reading it costs a copy, not a round trip.
import { closeSync, openSync, readSync } from 'node:fs';
import { DesktopUnavailableError, errorMessage } from '../../../common/errors';
import type { BBox } from '../../../common/geometry';
import type { RawFrame } from '../../../desktop/ports/liveDesktopPort';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../../desktop/ports/screenPort';
import { bgrxToRgba } from '../../../desktop/live/bgrxPixels';

/** The variable naming the framebuffer file of the display in DISPLAY (set by the own desktop). */
export const FRAMEBUFFER_VAR = 'GAI_X_FRAMEBUFFER';

/** What the XWD header says about the pixels that follow it. */
export interface FramebufferLayout {
  width: number;
  height: number;
  bytesPerLine: number;
  /** Where the first row starts in the file. */
  pixelOffset: number;
}

const HEADER_BYTES = 100;
const XWD_COLOR_BYTES = 12;
const Z_PIXMAP = 2;
const LSB_FIRST = 0;

/** Reads an XWD header (big-endian 32-bit fields); only 32-bit TrueColor, least significant byte first, as Xvfb writes at depth 24. */
export function parseXwdHeader(header: Buffer): FramebufferLayout {
  if (header.length < HEADER_BYTES) throw new Error(`an XWD header has ${HEADER_BYTES} bytes, got ${header.length}`);
  const field = (i: number): number => header.readUInt32BE(i * 4);
  const [headerSize, version, format, , width, height, , byteOrder, , , , bitsPerPixel, bytesPerLine] = Array.from({ length: 13 }, (_, i) => field(i)) as number[] as [
    number, number, number, number, number, number, number, number, number, number, number, number, number,
  ];
  const colors = field(19);
  if (version !== 7) throw new Error(`XWD version ${version}, not 7`);
  if (format !== Z_PIXMAP || bitsPerPixel !== 32 || byteOrder !== LSB_FIRST) {
    throw new Error(`framebuffer of ${bitsPerPixel} bits per pixel (format ${format}, byte order ${byteOrder}); GAI reads 32-bit ZPixmap, LSB first (Xvfb at depth 24)`);
  }
  return { width, height, bytesPerLine, pixelOffset: headerSize + colors * XWD_COLOR_BYTES };
}

export class FramebufferScreen implements ScreenPort {
  private layoutRead?: FramebufferLayout;

  constructor(private readonly path: string) {}

  async size(): Promise<ScreenSize> {
    const { width, height } = this.layout();
    return { width, height };
  }

  async scaleFactor(): Promise<number> {
    return 1; // X11: input and pixels agree
  }

  async grab(region?: BBox): Promise<ScreenImage> {
    return this.grabSync(region);
  }

  /** The pixels as BGRX rows exactly as Xvfb keeps them (the live view compares these between frames). */
  readFrame(into?: Buffer): RawFrame {
    const layout = this.layout();
    const bytes = layout.bytesPerLine * layout.height;
    const data = into && into.length === bytes ? into : Buffer.allocUnsafe(bytes);
    this.readAt(data, layout.pixelOffset);
    return { width: layout.width, height: layout.height, stride: layout.bytesPerLine, data };
  }

  private grabSync(region?: BBox): ScreenImage {
    const layout = this.layout();
    const x = clamp(Math.round(region?.x ?? 0), 0, layout.width);
    const y = clamp(Math.round(region?.y ?? 0), 0, layout.height);
    const width = clamp(Math.round(region?.width ?? layout.width), 0, layout.width - x);
    const height = clamp(Math.round(region?.height ?? layout.height), 0, layout.height - y);
    const rows = Buffer.allocUnsafe(layout.bytesPerLine * height);
    this.readAt(rows, layout.pixelOffset + y * layout.bytesPerLine);
    return { width, height, data: bgrxToRgba(rows, layout.bytesPerLine, x, width, height), origin: { x, y } };
  }

  private layout(): FramebufferLayout {
    if (!this.layoutRead) {
      const header = Buffer.alloc(HEADER_BYTES);
      this.readAt(header, 0);
      this.layoutRead = parseXwdHeader(header);
    }
    return this.layoutRead;
  }

  private readAt(into: Buffer, position: number): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      throw new DesktopUnavailableError(`cannot read GAI's own desktop's screen (${errorMessage(error)})`, 'restart it: gai desktop stop, then run the command again');
    }
    try {
      let done = 0;
      while (done < into.length) {
        const read = readSync(fd, into, done, into.length - done, position + done);
        if (read === 0) throw new DesktopUnavailableError(`GAI's own desktop's screen ended early (${done} of ${into.length} bytes)`, 'restart it: gai desktop stop');
        done += read;
      }
    } finally {
      closeSync(fd);
    }
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
