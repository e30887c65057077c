// Turns what the agent saw (the screen reader's newest reading) into a chat picture: a
// downscaled JPEG plus OCR boxes and click points in picture pixels, drawn by the webview.
// No vscode import: unit-tested with the real codec.
import type { BBox } from '../../common/geometry';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import type { ToolResult } from '../../tools/toolTypes';
import type { ImageCodec } from '../../desktop/ports/imageCodec';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import type { ScreenPicture } from '../../shared/protocol';

/** Wide enough to read in a sidebar opened large, small enough (~40–80 KB) to keep several. */
export const PICTURE_MAX_WIDTH = 960;
const MAX_BOXES = 400;

export interface PicturePoint {
  x: number;
  y: number;
  label: string;
  kind: 'click' | 'candidate';
}

export async function buildScreenPicture(
  codec: ImageCodec,
  reading: { image: ScreenImage; analysis: OcrAnalysis },
  points: PicturePoint[] = [],
  maxWidth = PICTURE_MAX_WIDTH,
): Promise<ScreenPicture> {
  const { image, analysis } = reading;
  const encoded = await codec.encode(image, 'jpeg', { maxWidth, quality: 70 });
  const scale = encoded.scale;
  const toPicture = (x: number, y: number): { x: number; y: number } => ({
    x: round((x - image.origin.x) * scale),
    y: round((y - image.origin.y) * scale),
  });
  const boxes = analysis.elements
    .filter((element) => element.level === 'line' || !analysis.elements.some((e) => e.level === 'line'))
    .slice(0, MAX_BOXES)
    .map((element) => ({ ...toPicture(element.bbox.x, element.bbox.y), ...size(element.bbox, scale), text: element.text }));
  return {
    src: `data:image/jpeg;base64,${encoded.data.toString('base64')}`,
    width: encoded.width,
    height: encoded.height,
    boxes,
    points: points.map((point) => ({ ...toPicture(point.x, point.y), label: point.label, kind: point.kind })),
  };
}

/** Where a tool result says it clicked, or the candidates it refused to choose between. */
export function pointsOf(result: ToolResult): PicturePoint[] {
  const data = result.data as { point?: unknown; candidates?: unknown; text?: unknown } | undefined;
  if (!data || typeof data !== 'object') return [];
  const points: PicturePoint[] = [];
  if (isPoint(data.point)) {
    points.push({ ...data.point, label: typeof data.text === 'string' ? `clicked "${data.text}"` : 'clicked', kind: 'click' });
  }
  if (Array.isArray(data.candidates)) {
    data.candidates.forEach((candidate: unknown, index) => {
      const box = (candidate as { bbox?: unknown; foundText?: unknown }).bbox;
      if (!isBox(box)) return;
      const text = (candidate as { foundText?: unknown }).foundText;
      points.push({
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
        label: `${index + 1}: ${typeof text === 'string' ? text : 'candidate'}`,
        kind: 'candidate',
      });
    });
  }
  return points;
}

function size(box: BBox, scale: number): { width: number; height: number } {
  return { width: Math.max(1, round(box.width * scale)), height: Math.max(1, round(box.height * scale)) };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function isPoint(value: unknown): value is { x: number; y: number } {
  return typeof value === 'object' && value !== null && typeof (value as { x?: unknown }).x === 'number' && typeof (value as { y?: unknown }).y === 'number';
}

function isBox(value: unknown): value is BBox {
  return isPoint(value) && typeof (value as { width?: unknown }).width === 'number' && typeof (value as { height?: unknown }).height === 'number';
}
