import type { BBox } from '../../common/geometry';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../desktop/ports/screenPort';
import { loadNut } from './nutLoader';

/** Screen capture through nut-js. Grabs come in physical pixels; input uses logical units. */
export class NutScreen implements ScreenPort {
  private scale?: number;

  async size(): Promise<ScreenSize> {
    const nut = await loadNut();
    const scale = await this.scaleFactor();
    return { width: Math.round((await nut.screen.width()) * scale), height: Math.round((await nut.screen.height()) * scale) };
  }

  async scaleFactor(): Promise<number> {
    if (this.scale === undefined) {
      const nut = await loadNut();
      if (process.platform === 'linux') {
        this.scale = 1; // X11 input and pixels agree
      } else {
        const logicalWidth = await nut.screen.width();
        const image = await nut.screen.grabRegion(new nut.Region(0, 0, Math.min(logicalWidth, 64), 1));
        this.scale = image.pixelDensity.scaleX || image.width / Math.min(logicalWidth, 64) || 1;
      }
    }
    return this.scale;
  }

  async grab(region?: BBox): Promise<ScreenImage> {
    const nut = await loadNut();
    const scale = await this.scaleFactor();
    const image = region
      ? await nut.screen.grabRegion(new nut.Region(region.x / scale, region.y / scale, region.width / scale, region.height / scale))
      : await nut.screen.grab();
    return {
      width: image.width,
      height: image.height,
      data: toRgba(image.data, image.channels, image.colorMode === nut.ColorMode.BGR),
      origin: { x: region?.x ?? 0, y: region?.y ?? 0 },
    };
  }
}

/** nut-js hands out BGRA with alpha 0 on X11: swap to RGBA and make it opaque. */
function toRgba(data: Buffer, channels: number, bgr: boolean): Buffer {
  const pixels = data.length / channels;
  const out = Buffer.allocUnsafe(pixels * 4);
  for (let i = 0, j = 0; i < pixels; i++, j += channels) {
    const o = i * 4;
    out[o] = bgr ? data[j + 2]! : data[j]!;
    out[o + 1] = data[j + 1]!;
    out[o + 2] = bgr ? data[j]! : data[j + 2]!;
    out[o + 3] = 255;
  }
  return out;
}
