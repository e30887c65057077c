// Turns what the agent saw (the screen reader's newest reading) into a chat picture: a
// downscaled JPEG plus OCR boxes and click points in picture pixels, drawn by the webview.
// The points are the tool's own (ToolBase.screenMarks): no decoding of results here.
// No vscode import: unit-tested with the real codec.
import type { BBox } from '../../common/geometry';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import type { ScreenMark } from '../../tools/screenMarks';
import type { ImageCodec } from '../../desktop/ports/imageCodec';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import type { ScreenPicture } from '../../shared/protocol';

/** Wide enough to read in a sidebar opened large, small enough (~40–80 KB) to keep several. */
export const PICTURE_MAX_WIDTH = 960;
const MAX_BOXES = 400;

/** A point to mark, in screen pixels: what a tool's screenMarks gives. */
export type PicturePoint = ScreenMark;

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

function size(box: BBox, scale: number): { width: number; height: number } {
  return { width: Math.max(1, round(box.width * scale)), height: Math.max(1, round(box.height * scale)) };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
