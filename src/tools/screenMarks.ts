// The points a call acted at (or could have), as hosts mark them on a picture of the screen.
// Each tool decodes its own result into these (ToolBase.screenMarks); the helpers here read the
// shapes several tools share. Results arrive as `unknown` data (bounded, maybe from an older
// build), so every field is checked before it is used.
import type { BBox } from '../common/geometry';

/**
 * A point in screen pixels with what happened there: `click` where it acted, `candidate` where it
 * could have, `target` where it will act (a small dot that leaves the label under it readable).
 */
export interface ScreenMark {
  x: number;
  y: number;
  label: string;
  kind: 'click' | 'candidate' | 'target';
}

export function isScreenPoint(value: unknown): value is { x: number; y: number } {
  return typeof value === 'object' && value !== null && Number.isFinite((value as { x?: unknown }).x) && Number.isFinite((value as { y?: unknown }).y);
}

export function isScreenBox(value: unknown): value is BBox {
  return isScreenPoint(value) && Number.isFinite((value as { width?: unknown }).width) && Number.isFinite((value as { height?: unknown }).height);
}

/** The data as a record of unknown fields; an array or a scalar has none. */
export function dataFields(data: unknown): Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/** Numbered marks at the centres of the candidates a tool would not choose between (`{ bbox, foundText }`). */
export function candidateMarks(candidates: unknown): ScreenMark[] {
  if (!Array.isArray(candidates)) return [];
  const marks: ScreenMark[] = [];
  candidates.forEach((candidate: unknown, index) => {
    const { bbox, foundText } = dataFields(candidate);
    if (!isScreenBox(bbox)) return;
    marks.push({ x: bbox.x + bbox.width / 2, y: bbox.y + bbox.height / 2, label: `${index + 1}: ${typeof foundText === 'string' ? foundText : 'candidate'}`, kind: 'candidate' });
  });
  return marks;
}
