import type { BBox } from '../core/types';
import type { ScreenImage } from './ports/screenPort';

/**
 * The smallest box holding every pixel that differs between two frames of the same size, or
 * undefined when they are equal. Rows are compared as whole byte ranges (memcmp), columns in
 * blocks, so a 1920x1080 frame takes a few milliseconds.
 */
export function changedRegion(before: ScreenImage, after: ScreenImage): BBox | undefined {
  if (before.width !== after.width || before.height !== after.height) {
    return { x: after.origin.x, y: after.origin.y, width: after.width, height: after.height };
  }
  const stride = after.width * 4;
  const rowDiffers = (y: number): boolean => before.data.compare(after.data, y * stride, (y + 1) * stride, y * stride, (y + 1) * stride) !== 0;
  let top = 0;
  while (top < after.height && !rowDiffers(top)) top++;
  if (top === after.height) return undefined;
  let bottom = after.height - 1;
  while (bottom > top && !rowDiffers(bottom)) bottom--;

  const block = 16;
  const columnDiffers = (x0: number): boolean => {
    const start = x0 * 4;
    const end = Math.min(after.width, x0 + block) * 4;
    for (let y = top; y <= bottom; y++) {
      const offset = y * stride;
      if (before.data.compare(after.data, offset + start, offset + end, offset + start, offset + end) !== 0) return true;
    }
    return false;
  };
  let left = 0;
  while (left < after.width && !columnDiffers(left)) left += block;
  let right = Math.floor((after.width - 1) / block) * block;
  while (right > left && !columnDiffers(right)) right -= block;
  const rightEdge = Math.min(after.width, right + block);
  return { x: after.origin.x + left, y: after.origin.y + top, width: rightEdge - left, height: bottom - top + 1 };
}

export function framesEqual(a: ScreenImage, b: ScreenImage): boolean {
  return a.width === b.width && a.height === b.height && a.data.equals(b.data);
}

export function intersects(a: BBox, b: BBox): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function expand(box: BBox, margin: number, limit: BBox): BBox {
  const x = Math.max(limit.x, box.x - margin);
  const y = Math.max(limit.y, box.y - margin);
  const right = Math.min(limit.x + limit.width, box.x + box.width + margin);
  const bottom = Math.min(limit.y + limit.height, box.y + box.height + margin);
  return { x, y, width: right - x, height: bottom - y };
}

/** Copies a region (screen coordinates) out of a frame. */
export function crop(image: ScreenImage, region: BBox): ScreenImage {
  const x0 = region.x - image.origin.x;
  const y0 = region.y - image.origin.y;
  const data = Buffer.allocUnsafe(region.width * region.height * 4);
  for (let y = 0; y < region.height; y++) {
    const from = ((y0 + y) * image.width + x0) * 4;
    image.data.copy(data, y * region.width * 4, from, from + region.width * 4);
  }
  return { width: region.width, height: region.height, data, origin: { x: region.x, y: region.y } };
}
