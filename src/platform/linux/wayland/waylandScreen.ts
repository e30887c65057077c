import { readFileSync } from 'node:fs';
import type { BBox } from '../../../common/geometry';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../../desktop/ports/screenPort';
import type { GrimScreen, LayoutSource } from './grimScreen';
import type { WaylandHelper } from './waylandHelper';

/**
 * The screen copied by GAI's own Wayland helper into shared memory, no process per capture: on
 * wlroots through wlr-screencopy, on GNOME from Mutter's screen-cast stream. On wlroots grim does
 * what the helper does not (more than one monitor, a scaled output, no screencopy for this client).
 */
export class WaylandScreen implements ScreenPort {
  private direct: Promise<boolean> | undefined;
  /** What copied the last grab: for tests and benches that must know the helper did. */
  lastVia: 'helper' | 'grim' | undefined;

  constructor(
    private readonly helper: WaylandHelper,
    private readonly outputs: LayoutSource,
    private readonly grim?: GrimScreen,
  ) {}

  async size(): Promise<ScreenSize> {
    const { width, height, scale } = await this.outputs.layout();
    return { width: Math.round(width * scale), height: Math.round(height * scale) };
  }

  async scaleFactor(): Promise<number> {
    return (await this.outputs.layout()).scale;
  }

  /**
   * A number that stays the same while the screen does, where the helper can tell (GNOME's
   * damage-driven stream counts its frames); undefined elsewhere.
   */
  async frameStamp(): Promise<number | undefined> {
    if (this.grim) return undefined;
    const answer = await this.helper.request({ cmd: 'stamp' });
    return typeof answer.stamp === 'number' ? answer.stamp : undefined;
  }

  async grab(region?: BBox): Promise<ScreenImage> {
    const { width, height, scale } = await this.outputs.layout();
    this.direct ??= this.helper.canCapture().catch(() => false);
    if (this.grim && (scale !== 1 || !(await this.direct))) {
      this.lastVia = 'grim';
      return this.grim.grab(region);
    }
    const x = Math.max(0, Math.floor(region?.x ?? 0));
    const y = Math.max(0, Math.floor(region?.y ?? 0));
    const w = Math.min(width - x, Math.ceil(region?.width ?? width));
    const h = Math.min(height - y, Math.ceil(region?.height ?? height));
    if (w <= 0 || h <= 0) throw new Error(`the region ${JSON.stringify(region)} is off the screen (${width}x${height})`);
    const copy = (await this.helper.request({ cmd: 'capture', x, y, width: w, height: h })) as unknown as Copy;
    let bytes: Buffer;
    try {
      bytes = readFileSync(copy.path);
    } finally {
      void this.helper.request({ cmd: 'release', fd: copy.fd }).catch(() => undefined);
    }
    this.lastVia = 'helper';
    return { width: copy.width, height: copy.height, data: toRgba(bytes, copy), origin: { x, y } };
  }
}

interface Copy {
  path: string;
  fd: number;
  width: number;
  height: number;
  stride: number;
  /** Byte order of a pixel in memory: 'bgra' (wl_shm ARGB/XRGB8888) or 'rgba' (ABGR/XBGR8888). */
  order: 'bgra' | 'rgba';
  yInvert: boolean;
}

/** Shared-memory rows (with their stride, maybe upside down) into opaque RGBA. */
function toRgba(bytes: Buffer, copy: Copy): Buffer {
  const out = Buffer.allocUnsafe(copy.width * copy.height * 4);
  const swap = copy.order === 'bgra';
  for (let row = 0; row < copy.height; row++) {
    const from = (copy.yInvert ? copy.height - 1 - row : row) * copy.stride;
    let o = row * copy.width * 4;
    for (let i = from, end = from + copy.width * 4; i < end; i += 4, o += 4) {
      out[o] = bytes[swap ? i + 2 : i]!;
      out[o + 1] = bytes[i + 1]!;
      out[o + 2] = bytes[swap ? i : i + 2]!;
      out[o + 3] = 255;
    }
  }
  return out;
}
