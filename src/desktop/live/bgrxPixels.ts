import type { ScreenImage } from '../ports/screenPort';

/** Rows of BGRX pixels (`stride` bytes each) to opaque RGBA, columns [x, x + width). */
export function bgrxToRgba(rows: Buffer, stride: number, x: number, width: number, height: number): Buffer {
  const out = Buffer.allocUnsafe(width * height * 4);
  for (let row = 0; row < height; row++) {
    let from = row * stride + x * 4;
    let to = row * width * 4;
    for (let col = 0; col < width; col++, from += 4, to += 4) {
      out[to] = rows[from + 2]!;
      out[to + 1] = rows[from + 1]!;
      out[to + 2] = rows[from]!;
      out[to + 3] = 255;
    }
  }
  return out;
}

/** A whole BGRX frame as a screen image. */
export function frameImage(frame: { width: number; height: number; stride: number; data: Buffer }): ScreenImage {
  return { width: frame.width, height: frame.height, data: bgrxToRgba(frame.data, frame.stride, 0, frame.width, frame.height), origin: { x: 0, y: 0 } };
}
