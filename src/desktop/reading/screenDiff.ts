import { imageBounds, union, type BBox } from '../../common/geometry';
import type { ScreenImage } from '../ports/screenPort';

const TILE = 16;

/**
 * The boxes of the pixels that differ between two frames of the same size, one box per cluster
 * of changed 16 px tiles (clusters closer than `gap` pixels are one), or none when they are
 * equal. A caret that moved, a scrollbar that faded in and a status bar that followed are three
 * small boxes, not one box the size of the window. Rows are compared as whole byte ranges
 * (memcmp) and only changed rows tile by tile, so a 1920x1080 frame takes a few milliseconds.
 * Box rows are exact; columns are whole tiles.
 */
export function changedRegions(before: ScreenImage, after: ScreenImage, gap = 32): BBox[] {
  if (before.width !== after.width || before.height !== after.height) {
    return [imageBounds(after)];
  }
  const { width, height } = after;
  const stride = width * 4;
  const segmentDiffers = (y: number, x0: number, x1: number): boolean =>
    before.data.compare(after.data, y * stride + x0 * 4, y * stride + x1 * 4, y * stride + x0 * 4, y * stride + x1 * 4) !== 0;
  const columns = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  const changed = new Uint8Array(columns * rows);
  let any = false;
  for (let y = 0; y < height; y++) {
    if (!segmentDiffers(y, 0, width)) continue;
    any = true;
    const row = Math.floor(y / TILE) * columns;
    for (let tx = 0; tx < columns; tx++) {
      if (changed[row + tx] === 0 && segmentDiffers(y, tx * TILE, Math.min(width, (tx + 1) * TILE))) changed[row + tx] = 1;
    }
  }
  if (!any) return [];
  const reach = Math.max(1, Math.ceil(gap / TILE));
  const boxes: BBox[] = [];
  const seen = new Uint8Array(columns * rows);
  for (let start = 0; start < changed.length; start++) {
    if (changed[start] === 0 || seen[start] === 1) continue;
    // One cluster: every changed tile within `reach` tiles of another of the cluster.
    let [left, right, top, bottom] = [columns, -1, rows, -1];
    const queue = [start];
    seen[start] = 1;
    while (queue.length > 0) {
      const tile = queue.pop()!;
      const tx = tile % columns;
      const ty = (tile - tx) / columns;
      [left, right, top, bottom] = [Math.min(left, tx), Math.max(right, tx), Math.min(top, ty), Math.max(bottom, ty)];
      for (let ny = Math.max(0, ty - reach); ny <= Math.min(rows - 1, ty + reach); ny++) {
        for (let nx = Math.max(0, tx - reach); nx <= Math.min(columns - 1, tx + reach); nx++) {
          const next = ny * columns + nx;
          if (changed[next] === 1 && seen[next] === 0) {
            seen[next] = 1;
            queue.push(next);
          }
        }
      }
    }
    const x0 = left * TILE;
    const x1 = Math.min(width, (right + 1) * TILE);
    let y0 = top * TILE;
    let y1 = Math.min(height, (bottom + 1) * TILE) - 1;
    while (y0 < y1 && !segmentDiffers(y0, x0, x1)) y0++;
    while (y1 > y0 && !segmentDiffers(y1, x0, x1)) y1--;
    boxes.push({ x: after.origin.x + x0, y: after.origin.y + y0, width: x1 - x0, height: y1 - y0 + 1 });
  }
  return boxes.sort((a, b) => a.y - b.y || a.x - b.x);
}

/** The smallest box holding every changed pixel, or undefined when the frames are equal. */
export function changedRegion(before: ScreenImage, after: ScreenImage): BBox | undefined {
  const regions = changedRegions(before, after);
  if (regions.length === 0) return undefined;
  return union(regions);
}

export function framesEqual(a: ScreenImage, b: ScreenImage): boolean {
  return a.width === b.width && a.height === b.height && a.data.equals(b.data);
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
