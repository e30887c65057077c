// Pixel work shared by the OCR engines and the text-region search (pure TS, no native
// packages): RGBA -> 8-bit grey -> crop/upscale -> PGM; local-contrast foreground masks and
// their connected components; engine boxes -> screen boxes; reading order.
import { centreY, type BBox } from '../../common/geometry';
import type { OcrElement } from './ocrTypes';
import type { ScreenImage } from '../ports/screenPort';

/** One byte a pixel, row-major. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Largest upscale accepted: beyond this the image only grows, recognition does not improve. */
export const MAX_OCR_SCALE = 6;

export function normalizeScale(scale: number | undefined): number {
  if (scale === undefined || !Number.isFinite(scale) || scale <= 1) return 1;
  return Math.min(scale, MAX_OCR_SCALE);
}

/** Rec. 601 luma in integer arithmetic (a float version is ~2x slower on a 1080p frame). */
export function toGrey(image: ScreenImage): GreyImage {
  const { width, height, data } = image;
  const pixels = width * height;
  if (data.length < pixels * 4) throw new Error(`image data has ${data.length} bytes, expected ${pixels * 4} (RGBA ${width}x${height})`);
  const out = new Uint8Array(pixels);
  for (let i = 0, p = 0; i < pixels; i++, p += 4) {
    out[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
  }
  return { width, height, data: out };
}

/** Copies a rectangle (clamped to the image); x/y/width/height in image pixels. */
export function cropGrey(grey: GreyImage, rect: BBox): GreyImage {
  const x0 = Math.max(0, Math.floor(rect.x));
  const y0 = Math.max(0, Math.floor(rect.y));
  const x1 = Math.min(grey.width, Math.ceil(rect.x + rect.width));
  const y1 = Math.min(grey.height, Math.ceil(rect.y + rect.height));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (y0 + y) * grey.width + x0;
    out.set(grey.data.subarray(from, from + width), y * width);
  }
  return { width, height, data: out };
}

/**
 * Bilinear upscale. On 48 Tk and GTK labels and glyph buttons (PSM 7): 44 right at 3x against
 * 38 for nearest-neighbour, 42 each at 2x; nearest keeps pixel steps the LSTM misreads.
 */
export function upscaleGrey(grey: GreyImage, scale: number): GreyImage {
  if (scale === 1) return grey;
  const { width: sw, height: sh, data: src } = grey;
  const width = Math.max(1, Math.round(sw * scale));
  const height = Math.max(1, Math.round(sh * scale));
  const out = new Uint8Array(width * height);
  // Source x positions and weights are the same for every row: compute them once.
  const xs0 = new Int32Array(width);
  const xs1 = new Int32Array(width);
  const xw = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) / scale - 0.5));
    const ix = Math.floor(fx);
    xs0[x] = ix;
    xs1[x] = Math.min(sw - 1, ix + 1);
    xw[x] = fx - ix;
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) / scale - 0.5));
    const iy = Math.floor(fy);
    const wy = fy - iy;
    const row0 = iy * sw;
    const row1 = Math.min(sh - 1, iy + 1) * sw;
    const outRow = y * width;
    for (let x = 0; x < width; x++) {
      const a = xs0[x]!;
      const b = xs1[x]!;
      const wx = xw[x]!;
      const top = src[row0 + a]! + (src[row0 + b]! - src[row0 + a]!) * wx;
      const bottom = src[row1 + a]! + (src[row1 + b]! - src[row1 + a]!) * wx;
      out[outRow + x] = (top + (bottom - top) * wy + 0.5) | 0;
    }
  }
  return { width, height, data: out };
}

/** A connected component's box (inclusive corners) and its pixel count. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number;
}

const WINDOW_RADIUS = 10;
/** Ink deviates from the window mean by more than this many standard deviations. */
const SPREAD_FACTOR = 0.7;

/** Mask values: ink darker than its surroundings, and ink lighter (light text on a dark fill). */
export const DARK_INK = 1;
export const LIGHT_INK = 2;

/**
 * DARK_INK or LIGHT_INK where a pixel differs from the mean of its (2r+1)^2 window by more than
 * `minContrast` and by more than 0.7 of the window's standard deviation, by the sign of the
 * difference. The second test keeps the background
 * around bold glyphs out: there the mean is pulled towards the ink, but the ink deviates more.
 */
export function foregroundMask(grey: GreyImage, minContrast: number): Uint8Array {
  const { width, height, data } = grey;
  const mask = new Uint8Array(width * height);
  const r = WINDOW_RADIUS;
  // Column sums over the rows of the current window, updated as the window moves down
  // (integers throughout: 255^2 x 21 rows fits an Int32).
  const colSum = new Int32Array(width);
  const colSq = new Int32Array(width);
  const addRow = (y: number): void => {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const v = data[i]!;
      colSum[x]! += v;
      colSq[x]! += v * v;
    }
  };
  const removeRow = (y: number): void => {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const v = data[i]!;
      colSum[x]! -= v;
      colSq[x]! -= v * v;
    }
  };
  // How many window columns each x sees (fewer at the edges), to turn sums into means.
  const columns = new Int32Array(width);
  for (let x = 0; x < width; x++) columns[x] = Math.min(width - 1, x + r) - Math.max(0, x - r) + 1;
  // Window sums for each x of the current row, by a sliding sum over the column sums.
  const winSum = new Int32Array(width);
  const winSq = new Float64Array(width);
  const spread2 = SPREAD_FACTOR * SPREAD_FACTOR;
  for (let y = 0; y < Math.min(r, height); y++) addRow(y);
  for (let y = 0; y < height; y++) {
    if (y + r < height) addRow(y + r);
    if (y - r - 1 >= 0) removeRow(y - r - 1);
    const rows = Math.min(height - 1, y + r) - Math.max(0, y - r) + 1;
    let sum = 0;
    let sq = 0;
    for (let x = 0; x < Math.min(r, width); x++) {
      sum += colSum[x]!;
      sq += colSq[x]!;
    }
    for (let x = 0; x < width; x++) {
      if (x + r < width) {
        sum += colSum[x + r]!;
        sq += colSq[x + r]!;
      }
      if (x > r) {
        sum -= colSum[x - r - 1]!;
        sq -= colSq[x - r - 1]!;
      }
      winSum[x] = sum;
      winSq[x] = sq;
    }
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const count = columns[x]! * rows;
      const total = winSum[x]!;
      // Compared as sums (deviation x count) to avoid a division for the many plain pixels.
      const deviation = data[row + x]! * count - total;
      const limit = minContrast * count;
      if (deviation <= limit && deviation >= -limit) continue;
      const mean = total / count;
      const variance = winSq[x]! / count - mean * mean;
      const magnitude = deviation / count;
      if (magnitude * magnitude > spread2 * variance) mask[row + x] = deviation < 0 ? DARK_INK : LIGHT_INK;
    }
  }
  return mask;
}

/** 8-connected components of the pixels equal to `value`, found over horizontal runs (text masks are sparse). */
export function connectedComponents(mask: Uint8Array, width: number, height: number, value = 1): PixelBox[] {
  const runY: number[] = [];
  const runX0: number[] = [];
  const runX1: number[] = [];
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  let prevStart = 0;
  let prevEnd = 0;
  for (let y = 0; y < height; y++) {
    const rowStart = runY.length;
    const row = y * width;
    let x = 0;
    // Runs come left to right in both rows, so the scan of the previous row only moves on.
    let scan = prevStart;
    while (x < width) {
      if (mask[row + x] !== value) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && mask[row + x] === value) x++;
      const id = runY.length;
      runY.push(y);
      runX0.push(start);
      runX1.push(x - 1);
      parent.push(id);
      // Runs of the previous row touching this one (diagonals included) join its component.
      while (scan < prevEnd && runX1[scan]! < start - 1) scan++;
      for (let p = scan; p < prevEnd && runX0[p]! <= x; p++) {
        const a = find(p);
        const b = find(id);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    prevStart = rowStart;
    prevEnd = runY.length;
  }
  const boxes = new Map<number, PixelBox>();
  for (let i = 0; i < runY.length; i++) {
    const root = find(i);
    const y = runY[i]!;
    const box = boxes.get(root);
    const length = runX1[i]! - runX0[i]! + 1;
    if (box) {
      box.x0 = Math.min(box.x0, runX0[i]!);
      box.x1 = Math.max(box.x1, runX1[i]!);
      box.y1 = Math.max(box.y1, y);
      box.pixels += length;
    } else {
      boxes.set(root, { x0: runX0[i]!, y0: y, x1: runX1[i]!, y1: y, pixels: length });
    }
  }
  return [...boxes.values()];
}

/** Binary PGM (P5): the cheapest format both tesseract.js and the tesseract CLI decode. */
export function encodePgm(grey: GreyImage): Buffer {
  const header = Buffer.from(`P5\n${grey.width} ${grey.height}\n255\n`, 'ascii');
  const out = Buffer.allocUnsafe(header.length + grey.data.length);
  header.copy(out, 0);
  out.set(grey.data, header.length);
  return out;
}

/** The image an engine sees: grey, upscaled, as PGM, plus how to map its boxes back. */
export interface PreparedImage {
  pgm: Buffer;
  /** The same pixels, for looking at the glyphs of what the engine read. */
  grey: GreyImage;
  scale: number;
  origin: { x: number; y: number };
}

export function prepareForOcr(image: ScreenImage, scale: number | undefined): PreparedImage {
  const factor = normalizeScale(scale);
  const grey = upscaleGrey(toGrey(image), factor);
  return { pgm: encodePgm(grey), grey, scale: factor, origin: image.origin };
}

/** Engine pixel box (x0,y0 inclusive; x1,y1 exclusive) -> screen pixels. */
export function toScreenBox(x0: number, y0: number, x1: number, y1: number, scale: number, origin: { x: number; y: number }): BBox {
  const left = Math.floor(x0 / scale);
  const top = Math.floor(y0 / scale);
  const right = Math.ceil(x1 / scale);
  const bottom = Math.ceil(y1 / scale);
  return { x: origin.x + left, y: origin.y + top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
}

/** A recognized word in engine terms, before mapping; `confidence` is 0..100 as engines report it. */
export interface EngineWord {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Words grouped as the engine grouped them into lines. */
export interface EngineLine {
  words: EngineWord[];
  confidence: number;
}

/**
 * A word of only vertical bars is a widget edge (a button's border, a separator), not text; left
 * in, it glues the labels of neighbouring buttons into one line ("cancel | save |").
 */
const EDGE_WORD = /^[|¦]+$/;

/**
 * Trims spaces, and the typographic quotes the LSTM puts in front of words next to a border or
 * an icon (`‘Submit`); ASCII quotes and apostrophes inside words stay.
 */
function cleanWord(text: string): string {
  const trimmed = text.trim();
  const stripped = trimmed.replace(/^[‘’`´]+/, '').replace(/[‘’`´]+$/, '');
  return stripped.length > 0 ? stripped : trimmed;
}

/** Maps engine lines to word and line elements in screen pixels; drops empty and edge words. */
export function elementsFromLines(lines: EngineLine[], scale: number, origin: { x: number; y: number }): OcrElement[] {
  const elements: OcrElement[] = [];
  for (const line of lines) {
    const words = line.words.map((w) => ({ ...w, text: cleanWord(w.text) })).filter((w) => w.text.length > 0 && !EDGE_WORD.test(w.text));
    if (words.length === 0) continue;
    for (const w of words) {
      elements.push({ text: w.text, confidence: clamp01(w.confidence / 100), bbox: toScreenBox(w.x0, w.y0, w.x1, w.y1, scale, origin), level: 'word' });
    }
    const x0 = Math.min(...words.map((w) => w.x0));
    const y0 = Math.min(...words.map((w) => w.y0));
    const x1 = Math.max(...words.map((w) => w.x1));
    const y1 = Math.max(...words.map((w) => w.y1));
    elements.push({
      text: words.map((w) => w.text).join(' '),
      confidence: clamp01(line.confidence / 100),
      bbox: toScreenBox(x0, y0, x1, y1, scale, origin),
      level: 'line',
    });
  }
  return elements;
}

/**
 * Lines in reading order: rows top to bottom (lines whose vertical centres fall within half a
 * line height of each other share a row), left to right within a row, rows joined by newlines.
 * Sparse mode returns one block per label in no useful order, so the engine order is not used.
 */
export function readingOrderText(elements: readonly OcrElement[]): string {
  const lines = elements.filter((e) => e.level === 'line').sort((a, b) => centreY(a.bbox) - centreY(b.bbox));
  const rows: OcrElement[][] = [];
  for (const line of lines) {
    const row = rows[rows.length - 1];
    const anchor = row?.[0];
    if (row && anchor && Math.abs(centreY(line.bbox) - centreY(anchor.bbox)) <= Math.max(4, Math.min(line.bbox.height, anchor.bbox.height) / 2)) {
      row.push(line);
    } else {
      rows.push([line]);
    }
  }
  return rows.map((row) => row.sort((a, b) => a.bbox.x - b.bbox.x).map((l) => l.text).join('  ')).join('\n');
}

function clamp01(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Rejects with an AbortError-named Error, as fetch and timers/promises do. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' ? reason : 'The operation was aborted');
  error.name = 'AbortError';
  return error;
}
