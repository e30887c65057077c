// Finds where text probably is on a screen image, without recognizing it: small labels and
// single-glyph buttons that a whole-screen sparse OCR pass tends to miss. Pure TS.
//
// Steps: greyscale; foreground = pixels that stand out from their local background (mean and
// spread over a window, so gradients and big flat areas drop out); connected components over
// runs; components that cannot be glyphs (too big, thin rules, solid blocks) are dropped; the
// pieces of one glyph (`=`, `:`, `i`) are joined; glyphs are grouped into lines by proximity.
// At the end: the same glyph geometry settles the letter case of OCR words (`cancel` -> `Cancel`).
import { clampBox, offsetBox, type BBox } from '../../common/geometry';
import { connectedComponents, cropGrey, DARK_INK, foregroundMask, LIGHT_INK, toGrey, type EngineLine, type EngineWord, type GreyImage, type PixelBox as Box } from './ocrHelpers';
import type { OcrLayout } from '../ports/ocrPort';
import { splitPlates } from './textPlates';
import { isBar, isBorderPiece, isEdge } from './uiEdges';
import type { ScreenImage } from '../ports/screenPort';

export interface TextRegion {
  /** Tight box around the glyphs, screen pixels. */
  bbox: BBox;
  /** `char` for a lone glyph, `word` for one word, `line` for several. */
  layout: Exclude<OcrLayout, 'sparse'>;
  /** The words inside, left to right. */
  words: TextWord[];
  glyphs: number;
  /** Share of the ring around the box within a few grey levels of its median: 1 on flat UI. */
  flatness: number;
}

export interface TextWord {
  /** Screen pixels. */
  bbox: BBox;
  /** Connected shapes after joining the pieces of one glyph; about one per character. */
  glyphs: number;
}

export interface TextRegionOptions {
  /** Minimum difference from the local background for a text pixel (0-255). */
  minContrast?: number;
  /** Glyphs taller than this are not text (icons, borders, images). */
  maxGlyphHeight?: number;
  /** Stop after this many regions (reading order), to bound the time spent on them. */
  maxRegions?: number;
  /**
   * Drop regions whose surroundings are less flat than this (0 keeps all). Texture such as a
   * noisy wallpaper makes glyph-sized blobs everywhere; UI text sits on flat fills.
   */
  minFlatness?: number;
  /** Only look inside this rectangle (screen pixels). */
  area?: BBox;
}

const DEFAULTS = { minContrast: 60, maxGlyphHeight: 48, maxRegions: 200, minFlatness: 0.7 };

export function findTextRegions(image: ScreenImage, options: TextRegionOptions = {}): TextRegion[] {
  return findTextRegionsInGrey(toGrey(image), image.origin, options);
}

export function findTextRegionsInGrey(grey: GreyImage, origin: { x: number; y: number }, options: TextRegionOptions = {}): TextRegion[] {
  const minContrast = options.minContrast ?? DEFAULTS.minContrast;
  const maxGlyphHeight = options.maxGlyphHeight ?? DEFAULTS.maxGlyphHeight;
  const maxRegions = options.maxRegions ?? DEFAULTS.maxRegions;
  if (options.area) {
    // Work on the crop only: the mask and components cost time in proportion to the pixels.
    const local = clampBox(offsetBox(options.area, -origin.x, -origin.y), { x: 0, y: 0, width: grey.width, height: grey.height });
    const { area: _area, ...rest } = options;
    return findTextRegionsInGrey(cropGrey(grey, local), { x: origin.x + local.x, y: origin.y + local.y }, rest);
  }
  const mask = foregroundMask(grey, minContrast);
  // Dark and light ink apart: white text on a blue button is light ink, the button's edge
  // against the page dark ink; joined, the label vanished into the button (and the gaps
  // between neighbouring buttons, light against their mean, joined whole toolbars into one).
  const components = [...connectedComponents(mask, grey.width, grey.height, DARK_INK), ...connectedComponents(mask, grey.width, grey.height, LIGHT_INK)];
  const plates = splitPlates(grey, components.filter((c) => mayBeGlyphPiece(c, maxGlyphHeight)), minContrast);
  const pieces = dropFrames(plates.pieces);
  const glyphs = joinGlyphPieces(pieces, maxGlyphHeight, plates.plateOf);
  const lines = groupLines(glyphs.filter((g) => mayBeGlyph(g, maxGlyphHeight)), maxGlyphHeight, plates.plateOf);
  const regions: TextRegion[] = [];
  const minFlatness = options.minFlatness ?? DEFAULTS.minFlatness;
  for (const line of lines) {
    if (line.length === 1 && (isBar(line[0]!) || isBorderPiece(grey, line[0]!))) continue;
    const box = union(line);
    const flatness = ringFlatness(grey, box);
    if (flatness < minFlatness) continue;
    const words = splitWords(line);
    const layout = line.length === 1 ? 'char' : words.length === 1 ? 'word' : 'line';
    regions.push({ bbox: toBBox(box, origin), layout, words: words.map((w) => ({ bbox: toBBox(union(w), origin), glyphs: w.length })), glyphs: line.length, flatness });
  }
  // Over budget, the flattest surroundings (UI) go first; the result is in reading order.
  const kept = regions.length > maxRegions ? regions.sort((a, b) => b.flatness - a.flatness).slice(0, maxRegions) : regions;
  return kept.sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x);
}

/** Drops what cannot be (part of) a glyph: large shapes, long thin rules, specks. */
function mayBeGlyphPiece(c: Box, maxGlyphHeight: number): boolean {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (h > maxGlyphHeight || w > maxGlyphHeight * 4) return false;
  if (c.pixels < 2) return false;
  // Separators and frame edges: one or two pixels thick and long.
  if (h <= 2 && w > 20) return false;
  if (w <= 2 && h > 30) return false;
  return true;
}

/**
 * Button and field borders (often just the dark bottom-right half of a 3D relief) are
 * components whose box holds the label's glyphs; joined with them the label would be lost.
 */
function dropFrames(pieces: Box[]): Box[] {
  const candidates = pieces.filter((c) => c.x1 - c.x0 >= 11 && c.y1 - c.y0 >= 11 && c.pixels / ((c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1)) < 0.35);
  if (candidates.length === 0) return pieces;
  const byLeft = [...pieces].sort((a, b) => a.x0 - b.x0);
  const frames = new Set<Box>();
  for (const frame of candidates) {
    // First piece starting right of the frame's left edge, by binary search; then scan along x.
    let lo = 0;
    let hi = byLeft.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byLeft[mid]!.x0 <= frame.x0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < byLeft.length && byLeft[i]!.x0 < frame.x1; i++) {
      const inner = byLeft[i]!;
      if (inner.x1 < frame.x1 && inner.y0 > frame.y0 && inner.y1 < frame.y1) {
        frames.add(frame);
        break;
      }
    }
  }
  return frames.size === 0 ? pieces : pieces.filter((piece) => !frames.has(piece));
}

/** After joining: lone specks, solid blocks and hollow frames are not text. */
function mayBeGlyph(c: Box, maxGlyphHeight: number): boolean {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (h > maxGlyphHeight) return false;
  // Specks of under 4 pixels are noise; a 2x2 dot can be a decimal point.
  if (w < 4 && h < 4) return c.pixels >= 4;
  const fill = c.pixels / (w * h);
  if (fill > 0.9 && w >= 5 && h >= 5) return false;
  // A checkbox or frame outline: big and hollow.
  if (fill < 0.12 && w >= 10 && h >= 10) return false;
  return true;
}

/**
 * How flat the surroundings are: over the rings 1 and 3 pixels outside the box, the share of
 * pixels within a few grey levels of their median. Blobs in a texture have a flat pixel or
 * two around them, rarely a flat margin.
 */
function ringFlatness(grey: GreyImage, box: Box): number {
  const values: number[] = [];
  const take = (x: number, y: number): void => {
    if (x >= 0 && y >= 0 && x < grey.width && y < grey.height) values.push(grey.data[y * grey.width + x]!);
  };
  for (const d of [1, 3]) {
    for (let x = box.x0 - d; x <= box.x1 + d; x++) {
      take(x, box.y0 - d);
      take(x, box.y1 + d);
    }
    for (let y = box.y0 - d + 1; y < box.y1 + d; y++) {
      take(box.x0 - d, y);
      take(box.x1 + d, y);
    }
  }
  if (values.length === 0) return 1;
  values.sort((a, b) => a - b);
  const middle = values[values.length >> 1]!;
  // A few levels of slack: button gradients change slowly along a label's height.
  return values.filter((v) => Math.abs(v - middle) <= 10).length / values.length;
}

/** Joins vertically stacked pieces of one glyph: the bars of `=`, the dots of `:` and `i`. */
function joinGlyphPieces(pieces: Box[], maxGlyphHeight: number, plateOf: Map<Box, number>): Box[] {
  const joinable = (a: Box, b: Box): boolean => {
    if (plateOf.get(a) !== plateOf.get(b)) return false;
    const ha = a.y1 - a.y0 + 1;
    const hb = b.y1 - b.y0 + 1;
    const wa = a.x1 - a.x0 + 1;
    const wb = b.x1 - b.x0 + 1;
    const overlapX = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) + 1;
    if (overlapX < 0.4 * Math.min(wa, wb)) return false;
    const gap = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1) - 1;
    if (gap < 0) return true;
    const small = Math.min(ha, hb) <= Math.max(3, 0.4 * Math.max(ha, hb));
    return small && gap <= Math.min(maxGlyphHeight, Math.max(4, 0.6 * Math.max(ha, hb), 0.7 * Math.min(wa, wb)));
  };
  // Joining is pairwise, so chains can grow: a glyph above a plate above a paragraph became one
  // 86-px "glyph". A cluster far taller than its tallest piece is pieces of several things.
  return clusterBoxes(pieces, maxGlyphHeight, joinable).flatMap((cluster) => {
    const box = union(cluster);
    const tallest = Math.max(...cluster.map((c) => c.y1 - c.y0 + 1));
    const height = box.y1 - box.y0 + 1;
    if (cluster.length > 1 && (height > maxGlyphHeight || height > 2.2 * tallest + 4)) return cluster;
    const plate = plateOf.get(cluster[0]!);
    if (plate !== undefined) plateOf.set(box, plate);
    return [box];
  });
}

/** Glyphs on one row, at most about a glyph height apart, form a line. */
function groupLines(glyphs: Box[], maxGlyphHeight: number, plateOf: Map<Box, number>): Box[][] {
  const sameLine = (a: Box, b: Box): boolean => {
    if (plateOf.get(a) !== plateOf.get(b)) return false;
    const ha = a.y1 - a.y0 + 1;
    const hb = b.y1 - b.y0 + 1;
    const overlapY = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) + 1;
    const [small, big] = ha <= hb ? [a, b] : [b, a];
    const centre = (small.y0 + small.y1) / 2;
    // Punctuation (`.`, `-`, `,`) only needs to sit inside the taller glyph's rows.
    const aligned = overlapY >= 0.5 * Math.min(ha, hb) || (Math.min(ha, hb) <= 3 && centre >= big.y0 && centre <= big.y1 + 2);
    if (!aligned) return false;
    // A tall thin bar is a button's edge or a separator: labels do not run through it.
    if (isEdge(a) !== isEdge(b)) return false;
    // Glyphs of very different sizes side by side are an icon next to text, or two widgets.
    if (Math.max(ha, hb) > 2.5 * Math.min(ha, hb) && Math.min(ha, hb) > 3) return false;
    const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1) - 1;
    return gap <= Math.max(3, 0.9 * Math.max(ha, hb));
  };
  return clusterBoxes(glyphs, maxGlyphHeight, sameLine).map((line) => line.sort((a, b) => a.x0 - b.x0));
}

/** Splits a line at gaps wider than about a third of its height. */
function splitWords(line: Box[]): Box[][] {
  const box = union(line);
  const height = box.y1 - box.y0 + 1;
  const words: Box[][] = [];
  let current: Box[] = [];
  let right = -Infinity;
  for (const glyph of line) {
    if (current.length > 0 && glyph.x0 - right - 1 > Math.max(2, 0.35 * height)) {
      words.push(current);
      current = [];
    }
    current.push(glyph);
    right = Math.max(right, glyph.x1);
  }
  if (current.length > 0) words.push(current);
  return words;
}

/**
 * Union-find over boxes, testing only neighbours found through a grid of `cell` pixels: `join`
 * must only accept boxes at most `cell` apart, so the cells around a box hold every candidate.
 */
function clusterBoxes(boxes: Box[], cell: number, join: (a: Box, b: Box) => boolean): Box[][] {
  const parent = boxes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  // Numeric cell keys and a stamp array: this runs over tens of thousands of blobs on a
  // textured wallpaper, where string keys and a Set per box cost more than the tests.
  const key = (gx: number, gy: number): number => (gy + 1) * 65536 + gx + 1;
  const grid = new Map<number, number[]>();
  boxes.forEach((box, i) => {
    for (let gy = Math.floor(box.y0 / cell); gy <= Math.floor(box.y1 / cell); gy++) {
      for (let gx = Math.floor(box.x0 / cell); gx <= Math.floor(box.x1 / cell); gx++) {
        const list = grid.get(key(gx, gy));
        if (list) list.push(i);
        else grid.set(key(gx, gy), [i]);
      }
    }
  });
  const seenBy = new Int32Array(boxes.length).fill(-1);
  boxes.forEach((box, i) => {
    for (let gy = Math.floor((box.y0 - cell) / cell); gy <= Math.floor((box.y1 + cell) / cell); gy++) {
      for (let gx = Math.floor((box.x0 - cell) / cell); gx <= Math.floor((box.x1 + cell) / cell); gx++) {
        for (const j of grid.get(key(gx, gy)) ?? []) {
          if (j <= i || seenBy[j] === i) continue;
          seenBy[j] = i;
          const a = find(i);
          const b = find(j);
          if (a !== b && join(box, boxes[j]!)) parent[Math.max(a, b)] = Math.min(a, b);
        }
      }
    }
  });
  const clusters = new Map<number, Box[]>();
  boxes.forEach((box, i) => {
    const root = find(i);
    const list = clusters.get(root);
    if (list) list.push(box);
    else clusters.set(root, [box]);
  });
  return [...clusters.values()];
}

function union(boxes: Box[]): Box {
  const out: Box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, pixels: 0 };
  for (const b of boxes) {
    out.x0 = Math.min(out.x0, b.x0);
    out.y0 = Math.min(out.y0, b.y0);
    out.x1 = Math.max(out.x1, b.x1);
    out.y1 = Math.max(out.y1, b.y1);
    out.pixels += b.pixels;
  }
  return out;
}

function toBBox(box: Box, origin: { x: number; y: number }): BBox {
  return { x: origin.x + box.x0, y: origin.y + box.y0, width: box.x1 - box.x0 + 1, height: box.y1 - box.y0 + 1 };
}


// ---- Letter case from glyph heights -----------------------------------------------------

/** Letters whose capital is the small letter drawn taller: only the height tells them apart. */
const SAME_SHAPE = new Set('cosuvwxz');
/** Small letters without ascender or descender: their height is the x-height. */
const X_HEIGHT_REFERENCE = new Set('aemnr');

/**
 * Fixes the case of c, o, s, u, v, w, x, z in engine words by their glyph heights: at UI sizes
 * the LSTM often reads `Cancel` as `cancel` or `Save` as `save`. A letter is a capital when it
 * stands clearly taller than the word's x-height letters (a, e, m, n, r), or as tall as its
 * capitals and digits. Words whose glyphs do not match their letters one to one are left alone.
 */
export function repairLetterCase(lines: EngineLine[], grey: GreyImage): void {
  for (const line of lines) {
    for (const word of line.words) {
      const chars = [...word.text];
      if (chars.length < 2 || !chars.some((c) => SAME_SHAPE.has(c.toLowerCase()))) continue;
      const glyphs = glyphsIn(grey, word);
      if (glyphs.length !== chars.length) continue;
      const heights = glyphs.map((g) => g.y1 - g.y0 + 1);
      const xRefs = heights.filter((_, i) => X_HEIGHT_REFERENCE.has(chars[i]!));
      const capRefs = heights.filter((_, i) => /[A-Z0-9]/.test(chars[i]!) && !SAME_SHAPE.has(chars[i]!.toLowerCase()));
      const xHeight = median(xRefs);
      const capHeight = median(capRefs);
      word.text = chars
        .map((c, i) => {
          if (!SAME_SHAPE.has(c.toLowerCase())) return c;
          const h = heights[i]!;
          if (xHeight !== undefined) return h >= xHeight * 1.2 ? c.toUpperCase() : c.toLowerCase();
          if (capHeight !== undefined) return h >= capHeight * 0.85 ? c.toUpperCase() : c.toLowerCase();
          return c;
        })
        .join('');
    }
  }
}

/** The word's glyphs: ink against the box's border colour, pieces above each other joined. */
function glyphsIn(grey: GreyImage, word: EngineWord): Box[] {
  const box = cropGrey(grey, { x: word.x0, y: word.y0, width: word.x1 - word.x0, height: word.y1 - word.y0 });
  if (box.width < 2 || box.height < 2) return [];
  // Engine word boxes are tight (their edge rows cut through the letters): the background is
  // sampled on a ring two pixels outside.
  const ring: number[] = [];
  const sample = (x: number, y: number): void => {
    if (x >= 0 && y >= 0 && x < grey.width && y < grey.height) ring.push(grey.data[y * grey.width + x]!);
  };
  for (let x = word.x0 - 2; x < word.x1 + 2; x++) {
    sample(x, word.y0 - 2);
    sample(x, word.y1 + 1);
  }
  for (let y = word.y0 - 1; y < word.y1 + 1; y++) {
    sample(word.x0 - 2, y);
    sample(word.x1 + 1, y);
  }
  const background = median(ring);
  if (background === undefined) return [];
  let contrast = 0;
  for (const v of box.data) contrast = Math.max(contrast, Math.abs(v - background));
  if (contrast < 40) return [];
  const mask = new Uint8Array(box.data.length);
  // Half the strongest contrast: anti-aliased edges do not merge neighbouring letters.
  box.data.forEach((v, i) => (mask[i] = Math.abs(v - background) > contrast / 2 ? 1 : 0));
  const pieces = connectedComponents(mask, box.width, box.height).filter((c) => c.pixels >= 2);
  const joined = clusterBoxes(pieces, Math.max(box.width, box.height), (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) + 1 >= 0.5 * Math.min(a.x1 - a.x0 + 1, b.x1 - b.x0 + 1));
  return joined.map(union).sort((a, b) => a.x0 - b.x0);
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
