// What a screen picture draws, worked out without a DOM (unit-tested in Node): the screenshot,
// the OCR boxes and the click points, all in picture pixels so one SVG viewBox scales them
// together. Marker sizes are relative to the picture, so a 1280-px and a 400-px screenshot shown
// at the same width get markers of the same size on screen.
import type { ScreenPicture } from '../../shared/protocol';

/** Enough for a dense screen of words; beyond that the SVG gets slow and the boxes unreadable. */
export const MAX_BOXES = 1500;
export const MAX_POINTS = 50;

/** Only inline raster images: the CSP allows data: images, and nothing else should load here. */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PictureBox extends Rect {
  text: string;
  /** The element an approval asks about: outlined apart from the OCR boxes. */
  target: boolean;
  /** Where its outline is drawn: around the box with a gap, so the stroke never covers the text. */
  outline: Rect;
}

export interface PicturePoint {
  cx: number;
  cy: number;
  /** Marker radius in picture pixels. */
  r: number;
  kind: 'click' | 'candidate' | 'target';
  label: string;
  /** 1-based number shown on candidates, so the text can refer to them. */
  number: number;
  /** The centre of the number's badge: above right of the marker, kept inside the picture. */
  labelX: number;
  labelY: number;
  fontSize: number;
  /** The badge's radius (a filled disc under the number, readable on any screenshot). */
  badgeR: number;
}

export interface PictureModel {
  width: number;
  height: number;
  viewBox: string;
  /** Undefined when the picture's src is not an inline image (only the overlay is drawn). */
  src: string | undefined;
  boxes: PictureBox[];
  points: PicturePoint[];
  /** Boxes and points left out (invalid or over the limits). */
  omitted: number;
  /** A short description for screen readers. */
  description: string;
}

/** Undefined when the picture has no usable size. */
export function buildPictureModel(picture: ScreenPicture): PictureModel | undefined {
  const { width, height } = picture;
  if (!isPositive(width) || !isPositive(height)) return undefined;
  const boxes: PictureBox[] = [];
  let omitted = 0;
  const gap = outlineGap(width, height);
  for (const box of picture.boxes ?? []) {
    const clipped = clipBox(box, width, height);
    if (clipped && boxes.length < MAX_BOXES) boxes.push({ ...clipped, outline: grow(clipped, gap) });
    else omitted++;
  }
  const radius = markerRadius(width, height);
  const points: PicturePoint[] = [];
  let candidates = 0;
  for (const point of picture.points ?? []) {
    if (!Number.isFinite(point.x) || !Number.isFinite(point.y) || points.length >= MAX_POINTS) {
      omitted++;
      continue;
    }
    const kind = point.kind === 'candidate' || point.kind === 'target' ? point.kind : 'click';
    const cx = round(clamp(point.x, 0, width));
    const cy = round(clamp(point.y, 0, height));
    points.push({
      cx,
      cy,
      r: radius,
      kind,
      label: String(point.label ?? ''),
      number: kind === 'candidate' ? ++candidates : 0,
      ...labelPlace(cx, cy, radius, width, height),
    });
  }
  const src = typeof picture.src === 'string' && DATA_IMAGE.test(picture.src) ? picture.src : undefined;
  return {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    src,
    boxes,
    points,
    omitted,
    description: describe(width, height, boxes.length, points),
  };
}

/** About 1/80 of the longer side, at least 3 picture pixels. */
export function markerRadius(width: number, height: number): number {
  return Math.max(3, round(Math.max(width, height) / 80));
}

/**
 * Picture pixels between a text box and its outline: 1/400 of the longer side, at least 2, so the
 * (1 screen pixel) stroke stays off the glyphs from a sidebar thumbnail up to full size.
 */
export function outlineGap(width: number, height: number): number {
  return Math.max(2, round(Math.max(width, height) / 400));
}

function grow(box: Rect, by: number): Rect {
  return { x: round(box.x - by), y: round(box.y - by), width: round(box.width + 2 * by), height: round(box.height + 2 * by) };
}

/** The number's badge centre: above right of the marker, below it when there is no room above; inside the picture. */
function labelPlace(cx: number, cy: number, r: number, width: number, height: number): { labelX: number; labelY: number; fontSize: number; badgeR: number } {
  const fontSize = round(r * 1.6);
  const badgeR = round(r * 1.1);
  const offset = r + badgeR * 0.6;
  const above = cy - offset;
  const labelY = above - badgeR >= 0 ? above : Math.min(height - badgeR, cy + offset);
  const labelX = clamp(cx + offset, badgeR, Math.max(badgeR, width - badgeR));
  return { labelX: round(labelX), labelY: round(Math.max(badgeR, labelY)), fontSize, badgeR };
}

function clipBox(box: Rect & { text: string; kind?: string }, width: number, height: number): Omit<PictureBox, 'outline'> | undefined {
  if (![box.x, box.y, box.width, box.height].every(Number.isFinite)) return undefined;
  const x0 = clamp(box.x, 0, width);
  const y0 = clamp(box.y, 0, height);
  const x1 = clamp(box.x + box.width, 0, width);
  const y1 = clamp(box.y + box.height, 0, height);
  if (x1 - x0 <= 0 || y1 - y0 <= 0) return undefined;
  return { x: round(x0), y: round(y0), width: round(x1 - x0), height: round(y1 - y0), text: String(box.text ?? ''), target: box.kind === 'target' };
}

function describe(width: number, height: number, boxes: number, points: PicturePoint[]): string {
  const clicks = points.filter((point) => point.kind === 'click').length;
  const targets = points.filter((point) => point.kind === 'target');
  const candidates = points.length - clicks - targets.length;
  const parts = [`Screenshot ${width}×${height}`, `${boxes} text box${boxes === 1 ? '' : 'es'}`];
  if (clicks > 0) parts.push(`${clicks} click${clicks === 1 ? '' : 's'}`);
  for (const target of targets) parts.push(target.label || 'where it will act');
  if (candidates > 0) parts.push(`${candidates} candidate${candidates === 1 ? '' : 's'}`);
  return parts.join(', ');
}

function isPositive(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Two decimals keep the SVG attributes short. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
