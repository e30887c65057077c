// UI furniture that the glyph search finds among the glyphs: bits of borders and edges that
// read as "-", "|" or "l" and glue neighbouring labels together.
import type { GreyImage, PixelBox as Box } from './ocrHelpers';

/**
 * A flat dash-like piece whose row goes on, fainter, beyond one of its ends: a piece of a
 * button's or field's border (read as "-", it made a "−" query ambiguous), not a dash.
 */
export function isBorderPiece(grey: GreyImage, c: Box): boolean {
  if (c.y1 - c.y0 + 1 > 3 || c.x1 - c.x0 + 1 < 3) return false;
  const y = (c.y0 + c.y1) >> 1;
  const at = (x: number, yy: number): number | undefined => (x >= 0 && x < grey.width && yy >= 0 && yy < grey.height ? grey.data[yy * grey.width + x] : undefined);
  // The background: two rows above and below the piece's middle.
  const above = at(c.x0, c.y0 - 3);
  const below = at(c.x0, c.y1 + 3);
  if (above === undefined || below === undefined) return false;
  const background = (above + below) / 2;
  const continues = (x: number): boolean => {
    const v = at(x, y);
    return v !== undefined && Math.abs(v - background) >= 12;
  };
  // Either side: at a rounded corner the border fades out on one side.
  return (continues(c.x0 - 2) && continues(c.x0 - 3)) || (continues(c.x1 + 2) && continues(c.x1 + 3));
}

/** A lone bar wider than a dash: the end of a frame edge or a scrollbar groove, not text. */
export function isBar(c: Box): boolean {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  return h <= 3 && w > 12;
}

/** A tall thin bar: a button's edge or a separator, never part of a label's line. */
export function isEdge(c: Box): boolean {
  return c.x1 - c.x0 + 1 <= 2 && c.y1 - c.y0 + 1 >= 18;
}
