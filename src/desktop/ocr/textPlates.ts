// Text on small coloured plates: primary and danger buttons, badges, dark glyph buttons. The
// screen-wide foreground mask compares each pixel with its neighbourhood; on a plate only a few
// pixels taller than the text, the plate itself stands out from the page and swallows its
// label (a badge became one blob, a button's edge band took the descenders of "Upgrade"). Each
// plate-like or frame-like component is looked at again on its own: ink = what differs from
// the plate's own colour, whatever its polarity.
import { connectedComponents, type GreyImage, type PixelBox as Box } from './ocrHelpers';

/** Grey levels around the plate's dominant value still counted as plate. */
const PLATE_TOLERANCE = 14;
/** The dominant value must cover at least this share of the plate's inside. */
const MIN_PLATE_SHARE = 0.5;

/** Pieces after the plates were looked into, and which plate each piece found inside one came from. */
export interface PlatePieces {
  pieces: Box[];
  /** A label does not run out of its button: pieces of different plates never share a line. */
  plateOf: Map<Box, number>;
}

/**
 * The pieces with every container (a frame or a filled plate that holds glyphs) replaced by
 * the glyph pieces found inside it against its own colour; containers where nothing is found
 * inside, and every other piece, stay as they are. The innermost container claims a glyph.
 */
export function splitPlates(grey: GreyImage, pieces: Box[], minContrast: number): PlatePieces {
  const plateOf = new Map<Box, number>();
  const containers = pieces.filter(isContainer).sort((a, b) => area(a) - area(b));
  if (containers.length === 0) return { pieces, plateOf };
  const removed = new Set<Box>();
  const added: Box[] = [];
  const claimed = new Set<string>();
  for (const [id, plate] of containers.entries()) {
    const inner = insidePieces(grey, plate, minContrast).filter((c) => !claimed.has(`${c.x0},${c.y0},${c.x1},${c.y1}`));
    if (inner.length === 0) continue;
    removed.add(plate);
    for (const c of inner) {
      claimed.add(`${c.x0},${c.y0},${c.x1},${c.y1}`);
      plateOf.set(c, id + 1);
    }
    for (const piece of pieces) {
      if (piece === plate || removed.has(piece)) continue;
      const cx = (piece.x0 + piece.x1) / 2;
      const cy = (piece.y0 + piece.y1) / 2;
      if (cx > plate.x0 && cx < plate.x1 && cy > plate.y0 && cy < plate.y1 && piece.y1 - piece.y0 < plate.y1 - plate.y0) removed.add(piece);
    }
    added.push(...inner);
  }
  return { pieces: removed.size === 0 ? pieces : [...pieces.filter((p) => !removed.has(p)), ...added], plateOf };
}

function area(c: Box): number {
  return (c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1);
}

/** Big enough to hold a label, and either hollow (a frame, a button's edge) or filled (a plate). */
function isContainer(c: Box): boolean {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (w < 12 || h < 12) return false;
  if (c.pixels / (w * h) < 0.35) return true;
  // Filled, or the thick edge band the mask leaves of a plate: wider than a glyph (a badge, a
  // button) or taller than UI text (a square glyph button). Letters are neither.
  return w >= 1.8 * h || h >= 20;
}

/**
 * Glyph pieces inside a container: pixels that differ from its dominant grey level by more
 * than `minContrast` (a little less: plates are flat), in components that do not touch the
 * inside's border (those are the container's own rounded corners and edges).
 */
function insidePieces(grey: GreyImage, plate: Box, minContrast: number): Box[] {
  const margin = 2;
  const x0 = plate.x0 + margin;
  const y0 = plate.y0 + margin;
  const width = plate.x1 - margin - x0 + 1;
  const height = plate.y1 - margin - y0 + 1;
  if (width < 6 || height < 6) return [];
  const histogram = new Uint32Array(256);
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = (y0 + y) * grey.width + x0; x < width; x++, i++) histogram[grey.data[i]!]!++;
  }
  let mode = 0;
  for (let v = 1; v < 256; v++) if (histogram[v]! > histogram[mode]!) mode = v;
  let near = 0;
  for (let v = Math.max(0, mode - PLATE_TOLERANCE); v <= Math.min(255, mode + PLATE_TOLERANCE); v++) near += histogram[v]!;
  if (near < MIN_PLATE_SHARE * width * height) return [];
  const threshold = Math.max(30, minContrast * 0.75);
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = (y0 + y) * grey.width + x0; x < width; x++, i++) {
      if (Math.abs(grey.data[i]! - mode) > threshold) mask[y * width + x] = 1;
    }
  }
  const out: Box[] = [];
  for (const c of connectedComponents(mask, width, height)) {
    if (c.x0 === 0 || c.y0 === 0 || c.x1 === width - 1 || c.y1 === height - 1) continue;
    if (c.pixels < 2) continue;
    out.push({ x0: c.x0 + x0, y0: c.y0 + y0, x1: c.x1 + x0, y1: c.y1 + y0, pixels: c.pixels });
  }
  return out;
}
