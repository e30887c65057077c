import { execFile } from 'node:child_process';
import type { BBox } from '../../../common/geometry';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../../desktop/ports/screenPort';
import { DesktopUnavailableError } from '../../../common/errors';

// The screen of a wlroots compositor through grim (wlr-screencopy). It writes binary PPM to its
// stdout: no PNG to encode and decode, one copy of the pixels into RGBA.

const MAX_BYTES = 256 * 1024 * 1024;

export interface LayoutSource {
  /** The bounding box of every active output, in layout (input) units, and the largest scale. */
  layout(): Promise<{ width: number; height: number; scale: number }>;
}

export class GrimScreen implements ScreenPort {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly outputs: LayoutSource,
  ) {}

  async size(): Promise<ScreenSize> {
    const { width, height, scale } = await this.outputs.layout();
    return { width: Math.round(width * scale), height: Math.round(height * scale) };
  }

  async scaleFactor(): Promise<number> {
    return (await this.outputs.layout()).scale;
  }

  async grab(region?: BBox): Promise<ScreenImage> {
    const scale = await this.scaleFactor();
    const args = ['-t', 'ppm'];
    if (region) {
      const x = Math.floor(region.x / scale);
      const y = Math.floor(region.y / scale);
      args.push('-g', `${x},${y} ${Math.max(1, Math.ceil(region.width / scale))}x${Math.max(1, Math.ceil(region.height / scale))}`);
    }
    args.push('-');
    const ppm = await this.run(args);
    const image = decodePpm(ppm);
    return { ...image, origin: { x: region?.x ?? 0, y: region?.y ?? 0 } };
  }

  private run(args: string[]): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      execFile('grim', args, { env: this.env, encoding: 'buffer', maxBuffer: MAX_BYTES, timeout: 10_000 }, (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          return reject(new DesktopUnavailableError('grim is not installed: GAI captures a wlroots desktop (sway, Hyprland, river…) with it', 'install it: sudo apt install grim'));
        }
        const said = stderr.toString('utf8').trim().split('\n').pop() ?? '';
        reject(new DesktopUnavailableError(`grim could not capture the screen: ${said || error.message}`, 'the compositor must offer wlr-screencopy (sway, Hyprland, river, labwc, wayfire do)'));
      });
    });
  }
}

/** Binary PPM (P6, 8 bits) into opaque RGBA. */
export function decodePpm(ppm: Buffer): { width: number; height: number; data: Buffer } {
  let at = 0;
  const token = (): string => {
    for (;;) {
      while (at < ppm.length && /\s/.test(String.fromCharCode(ppm[at]!))) at++;
      if (ppm[at] !== 0x23) break; // '#': a comment to the end of the line
      while (at < ppm.length && ppm[at] !== 0x0a) at++;
    }
    const start = at;
    while (at < ppm.length && !/\s/.test(String.fromCharCode(ppm[at]!))) at++;
    return ppm.toString('latin1', start, at);
  };
  const magic = token();
  const width = Number(token());
  const height = Number(token());
  const max = Number(token());
  at++; // the single whitespace before the pixels
  if (magic !== 'P6' || !Number.isInteger(width) || !Number.isInteger(height) || max !== 255 || ppm.length - at < width * height * 3) {
    throw new Error(`grim's image is not an 8-bit binary PPM (${magic} ${width}x${height}, max ${max}, ${ppm.length} bytes)`);
  }
  const data = Buffer.allocUnsafe(width * height * 4);
  for (let i = 0, j = at, o = 0; i < width * height; i++, j += 3, o += 4) {
    data[o] = ppm[j]!;
    data[o + 1] = ppm[j + 1]!;
    data[o + 2] = ppm[j + 2]!;
    data[o + 3] = 255;
  }
  return { width, height, data };
}
