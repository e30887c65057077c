import type { Annotation, EncodedImage, ImageCodec, ImageFormat } from '../../desktop/ports/imageCodec';
import type { ScreenImage } from '../../desktop/ports/screenPort';

type Sharp = (typeof import('sharp'))['default'];

let loading: Promise<Sharp> | undefined;
// sharp is a native module: loaded on first use like nut-js. Bundled as CommonJS, the module
// itself is the function; under an ES loader it is the default export.
function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((m) => (typeof m === 'function' ? (m as unknown as Sharp) : m.default));
  return loading;
}

/** PNG/JPEG encoding, downscaling and annotation with sharp (libvips). */
export class SharpImages implements ImageCodec {
  async encode(image: ScreenImage, format: ImageFormat, options: { maxWidth?: number; quality?: number } = {}): Promise<EncodedImage> {
    const sharp = await loadSharp();
    let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
    let width = image.width;
    let height = image.height;
    if (options.maxWidth && options.maxWidth < image.width) {
      width = options.maxWidth;
      height = Math.round((image.height * width) / image.width);
      pipeline = pipeline.resize(width, height, { kernel: 'lanczos3' });
    }
    const data = await (format === 'jpeg' ? pipeline.jpeg({ quality: options.quality ?? 80 }) : pipeline.png({ compressionLevel: 6 })).toBuffer();
    return { data, format, width, height, scale: width / image.width };
  }

  async annotate(image: ScreenImage, annotation: Annotation, format: ImageFormat): Promise<EncodedImage> {
    const sharp = await loadSharp();
    const svg = annotationSvg(image, annotation);
    const pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } }).composite([
      { input: Buffer.from(svg), top: 0, left: 0 },
    ]);
    const data = await (format === 'jpeg' ? pipeline.jpeg({ quality: 85 }) : pipeline.png()).toBuffer();
    return { data, format, width: image.width, height: image.height, scale: 1 };
  }

  async decode(data: Buffer): Promise<ScreenImage> {
    const sharp = await loadSharp();
    const { data: pixels, info } = await sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: pixels, origin: { x: 0, y: 0 } };
  }
}

function annotationSvg(image: ScreenImage, annotation: Annotation): string {
  const ox = image.origin.x;
  const oy = image.origin.y;
  const parts: string[] = [];
  for (const box of annotation.boxes) {
    const color = box.color ?? '#00a0ff';
    parts.push(`<rect x="${box.x - ox}" y="${box.y - oy}" width="${box.width}" height="${box.height}" fill="none" stroke="${color}" stroke-width="2"/>`);
    if (box.label) parts.push(label(box.x - ox, box.y - oy - 3, box.label, color));
  }
  for (const point of annotation.points) {
    const color = point.color ?? '#ff2d55';
    const x = point.x - ox;
    const y = point.y - oy;
    parts.push(`<circle cx="${x}" cy="${y}" r="9" fill="none" stroke="${color}" stroke-width="3"/>`);
    parts.push(`<line x1="${x - 14}" y1="${y}" x2="${x + 14}" y2="${y}" stroke="${color}" stroke-width="2"/>`);
    parts.push(`<line x1="${x}" y1="${y - 14}" x2="${x}" y2="${y + 14}" stroke="${color}" stroke-width="2"/>`);
    if (point.label) parts.push(label(x + 12, y - 12, point.label, color));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">${parts.join('')}</svg>`;
}

function label(x: number, y: number, text: string, color: string): string {
  return `<text x="${x}" y="${Math.max(10, y)}" font-family="sans-serif" font-size="12" fill="${color}">${escapeXml(text)}</text>`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}
