// Zoom and pan of the picture panel as plain numbers (unit-tested without a DOM). The panel's SVG
// fills the stage and its viewBox is the part of the picture in view: `x`, `y` the picture pixel
// at the stage's top-left corner, `scale` stage pixels per picture pixel. The picture stays in
// view: centred along an axis where it is smaller than the stage, never scrolled off otherwise.

export const MIN_SCALE = 0.05;
export const MAX_SCALE = 16;
/** One zoom button press or key. */
export const ZOOM_STEP = 1.25;

export interface Size {
  width: number;
  height: number;
}

export interface Viewport {
  scale: number;
  x: number;
  y: number;
}

/** The whole picture in view, as large as the stage allows (never below MIN_SCALE). */
export function fitViewport(picture: Size, stage: Size): Viewport {
  const scale = clampScale(Math.min(stage.width / picture.width, stage.height / picture.height));
  return clampPan({ scale, x: 0, y: 0 }, picture, stage);
}

/** One picture pixel per stage pixel, keeping the stage's centre where it is. */
export function actualSize(view: Viewport, picture: Size, stage: Size): Viewport {
  return zoomAt(view, 1 / view.scale, stage.width / 2, stage.height / 2, picture, stage);
}

/** Zooms by `factor` about the stage point (px, py): the picture pixel under it stays under it. */
export function zoomAt(view: Viewport, factor: number, px: number, py: number, picture: Size, stage: Size): Viewport {
  const scale = clampScale(view.scale * factor);
  const ux = view.x + px / view.scale;
  const uy = view.y + py / view.scale;
  return clampPan({ scale, x: ux - px / scale, y: uy - py / scale }, picture, stage);
}

/** Moves the picture by (dx, dy) stage pixels (a drag to the right shows more of the left). */
export function panBy(view: Viewport, dx: number, dy: number, picture: Size, stage: Size): Viewport {
  return clampPan({ scale: view.scale, x: view.x - dx / view.scale, y: view.y - dy / view.scale }, picture, stage);
}

/** The SVG viewBox for a view of the stage. */
export function viewBoxOf(view: Viewport, stage: Size): string {
  const r = (value: number): number => Math.round(value * 100) / 100;
  return `${r(view.x)} ${r(view.y)} ${r(stage.width / view.scale)} ${r(stage.height / view.scale)}`;
}

export function clampPan(view: Viewport, picture: Size, stage: Size): Viewport {
  return { scale: view.scale, x: clampAxis(view.x, picture.width, stage.width / view.scale), y: clampAxis(view.y, picture.height, stage.height / view.scale) };
}

function clampAxis(start: number, length: number, visible: number): number {
  if (visible >= length) return (length - visible) / 2;
  return Math.min(length - visible, Math.max(0, start));
}

function clampScale(scale: number): number {
  return Number.isFinite(scale) && scale > 0 ? Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale)) : 1;
}
