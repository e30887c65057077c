// Turns a cropped text region into dark ink on white along its own ink-background colour axis,
// before recognition. The engines read grey luma, where white-on-blue buttons, light header
// bars and badges come out inverted and red or green text on white comes out faint; tesseract
// reads dark-on-light best. Done per region (each has its own colours), never on a whole screen.
import type { ScreenImage } from '../ports/screenPort';

/** Ink closer than this (RGB distance) to the background is not worth remapping. */
const MIN_INK_DISTANCE = 40;
/** Pixels at least this share of the farthest pixel's distance count as ink. */
const INK_SHARE = 0.7;

/**
 * The crop with every pixel replaced by grey = how far it lies from `background` towards the
 * ink colour (the mean of the pixels farthest from the background inside `inner`, the glyphs'
 * box): background white, ink black, anti-aliasing in between. Left as it is when no ink
 * stands out.
 */
export function inkOnWhite(crop: ScreenImage, background: number, inner: { x: number; y: number; width: number; height: number }): ScreenImage {
  const br = background & 0xff;
  const bg = (background >>> 8) & 0xff;
  const bb = (background >>> 16) & 0xff;
  const { data, width } = crop;
  const x0 = Math.max(0, inner.x);
  const y0 = Math.max(0, inner.y);
  const x1 = Math.min(width, inner.x + inner.width);
  const y1 = Math.min(crop.height, inner.y + inner.height);
  let farthest = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, p = (y * width + x0) * 4; x < x1; x++, p += 4) {
      const d = (data[p]! - br) ** 2 + (data[p + 1]! - bg) ** 2 + (data[p + 2]! - bb) ** 2;
      if (d > farthest) farthest = d;
    }
  }
  if (farthest < MIN_INK_DISTANCE ** 2) return crop;
  const threshold = farthest * INK_SHARE * INK_SHARE;
  let ir = 0;
  let ig = 0;
  let ib = 0;
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, p = (y * width + x0) * 4; x < x1; x++, p += 4) {
      const d = (data[p]! - br) ** 2 + (data[p + 1]! - bg) ** 2 + (data[p + 2]! - bb) ** 2;
      if (d < threshold) continue;
      ir += data[p]!;
      ig += data[p + 1]!;
      ib += data[p + 2]!;
      count++;
    }
  }
  const ar = ir / count - br;
  const ag = ig / count - bg;
  const ab = ib / count - bb;
  const axis = ar * ar + ag * ag + ab * ab;
  if (axis < MIN_INK_DISTANCE ** 2) return crop;
  const out = Buffer.alloc(data.length);
  for (let p = 0; p < data.length; p += 4) {
    const t = ((data[p]! - br) * ar + (data[p + 1]! - bg) * ag + (data[p + 2]! - bb) * ab) / axis;
    const v = 255 - Math.round(255 * Math.min(1, Math.max(0, t)));
    out[p] = v;
    out[p + 1] = v;
    out[p + 2] = v;
    out[p + 3] = 255;
  }
  return { width, height: crop.height, data: out, origin: crop.origin };
}
