// Points and boxes in screen pixels (or fractions of the screen), shared by every layer, and the
// one copy of the arithmetic on them. Edges matter for clicks: where two semantics are both
// needed, both are here under names that say which edges count.

/** Screen pixels of the captured image. */
export interface PixelCoordinate {
  x: number;
  y: number;
}

/** Fractions of the screen, 0.0 to 1.0. */
export interface NormalizedCoordinate {
  nx: number;
  ny: number;
}

export type Coordinate = PixelCoordinate | NormalizedCoordinate;

export interface BBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The screen area an image covers: its size at its origin (a screen grab, a crop of one). */
export function imageBounds(image: { origin: PixelCoordinate; width: number; height: number }): BBox {
  return { x: image.origin.x, y: image.origin.y, width: image.width, height: image.height };
}

export function boxArea(box: BBox): number {
  return box.width * box.height;
}

export function sameBox(a: BBox, b: BBox): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** The centre rounded to a whole pixel: where a click on the box lands. */
export function centreOf(box: BBox): PixelCoordinate {
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

/** The centre as it is, halves kept: for comparing boxes, not for clicking. */
export function exactCentreOf(box: BBox): PixelCoordinate {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The unrounded vertical middle: whether two boxes sit on one row. */
export function centreY(box: BBox): number {
  return box.y + box.height / 2;
}

/**
 * Pixel-grid containment: the left and top edges are in, the right and bottom edges are not
 * (x + width is the first pixel of the next box). For which window or box a pixel belongs to.
 */
export function containsPoint(box: BBox, point: PixelCoordinate): boolean {
  return point.x >= box.x && point.y >= box.y && point.x < box.x + box.width && point.y < box.y + box.height;
}

/** Closed containment: all four edges are in. For OCR boxes, whose edges are the ink's. */
export function containsPointInclusive(box: BBox, point: PixelCoordinate): boolean {
  return point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height;
}

/** Whether the exact centre of `inner` lies in `outer`, edges included. */
export function centreInside(inner: BBox, outer: BBox): boolean {
  return containsPointInclusive(outer, exactCentreOf(inner));
}

/** Whether `inner` lies wholly in `outer` (edges included), allowing `slack` pixels past each edge. */
export function containsBox(outer: BBox, inner: BBox, slack = 0): boolean {
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

/** Whether the boxes share some area; boxes that only touch along an edge do not. */
export function intersects(a: BBox, b: BBox): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The area the boxes share; 0 when they only touch or lie apart. */
export function intersectionArea(a: BBox, b: BBox): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The shared area as a share of the smaller box: 1 when one box lies inside the other. */
export function overlapRatio(a: BBox, b: BBox): number {
  const shared = intersectionArea(a, b);
  return shared === 0 ? 0 : shared / Math.min(boxArea(a), boxArea(b));
}

/** The smallest box holding all the boxes; the list must not be empty. */
export function union(boxes: readonly BBox[]): BBox {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

export function distance(a: PixelCoordinate, b: PixelCoordinate): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** The shortest distance between the boxes' edges; 0 when they touch or overlap. */
export function boxGap(a: BBox, b: BBox): number {
  const dx = Math.max(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
  const dy = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
  return Math.hypot(dx, dy);
}

/** The box moved by (dx, dy), its size kept. */
export function offsetBox(box: BBox, dx: number, dy: number): BBox {
  return { x: box.x + dx, y: box.y + dy, width: box.width, height: box.height };
}

/** The box grown by `by` on every side; with `within`, each edge stops at that box's edge (no rounding). */
export function padBox(box: BBox, by: number, within?: BBox): BBox {
  if (!within) return { x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by };
  const x = Math.max(within.x, box.x - by);
  const y = Math.max(within.y, box.y - by);
  const right = Math.min(within.x + within.width, box.x + box.width + by);
  const bottom = Math.min(within.y + within.height, box.y + box.height + by);
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * The part of a box inside `limit`, grown outward to whole pixels (floor of the left and top,
 * ceiling of the right and bottom) so no partly covered pixel is lost; undefined when nothing
 * of it is inside.
 */
export function clipBox(box: BBox, limit: BBox): BBox | undefined {
  const x = Math.max(limit.x, Math.floor(box.x));
  const y = Math.max(limit.y, Math.floor(box.y));
  const right = Math.min(limit.x + limit.width, Math.ceil(box.x + box.width));
  const bottom = Math.min(limit.y + limit.height, Math.ceil(box.y + box.height));
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/**
 * Like clipBox, but never undefined: a box outside `limit` comes back empty (zero width or
 * height) at the nearest edge. For loops over a region that may be empty.
 */
export function clampBox(box: BBox, limit: BBox): BBox {
  const right = limit.x + limit.width;
  const bottom = limit.y + limit.height;
  const x = Math.min(right, Math.max(limit.x, Math.floor(box.x)));
  const y = Math.min(bottom, Math.max(limit.y, Math.floor(box.y)));
  const x1 = Math.min(right, Math.max(x, Math.ceil(box.x + box.width)));
  const y1 = Math.min(bottom, Math.max(y, Math.ceil(box.y + box.height)));
  return { x, y, width: x1 - x, height: y1 - y };
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** The nearest pixel of `box` to the point (the last pixel is x + width - 1, as in containsPoint). */
export function clampPoint(point: PixelCoordinate, box: BBox): PixelCoordinate {
  return { x: clamp(point.x, box.x, box.x + box.width - 1), y: clamp(point.y, box.y, box.y + box.height - 1) };
}
