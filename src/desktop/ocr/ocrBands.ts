// Reading a large image as horizontal bands, one per engine worker, in parallel. Bands overlap
// so that a text line cut by one band's edge is whole in its neighbour; each element is kept
// once, normally by the band that owns the rows holding its centre.
import { centreInside, centreY, type BBox } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from './ocrTypes';
import { readingOrderText } from './ocrHelpers';
import type { OcrEngine, OcrOptions } from '../ports/ocrPort';
import type { ScreenImage } from '../ports/screenPort';

/** An engine that reads several images at once (e.g. a pool of workers). */
export interface ParallelOcrEngine extends OcrEngine {
  /** How many recognize calls it runs at the same time. */
  readonly parallelism: number;
}

export function parallelismOf(engine: OcrEngine): number {
  const value = (engine as Partial<ParallelOcrEngine>).parallelism;
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : 1;
}

export interface Band {
  /** The rows the band reads, trimmed to their content; 0x0 when they hold nothing. */
  image: ScreenImage;
  /** Screen rows [top, bottom) whose elements this band keeps. */
  top: number;
  bottom: number;
}

/**
 * `count` bands owning about the same amount of text (OCR time follows the text, not the
 * area: on a screen with one window, the half without it read in 130 ms, the other in
 * 300 ms), each read with `margin` extra rows above and below. A line up to `2 * margin` tall
 * whose centre a band owns lies wholly inside that band. Blank borders are left out of each
 * band (a lone window on a plain desktop read ~8% faster cropped to itself).
 */
export function splitIntoBands(image: ScreenImage, count: number, margin: number, nudge = Math.floor(margin / 2)): Band[] {
  const activity = rowActivity(image);
  const cuts = balancedCuts(activity.edges, count, nudge);
  const bands: Band[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const y0 = Math.max(0, cuts[i]! - margin);
    const y1 = Math.min(image.height, cuts[i + 1]! + margin);
    bands.push({
      image: trimmedRows(image, y0, y1, activity),
      // The outer bands own everything beyond their outer edge, so nothing can fall between.
      top: i === 0 ? -Infinity : image.origin.y + cuts[i]!,
      bottom: i === cuts.length - 2 ? Infinity : image.origin.y + cuts[i + 1]!,
    });
  }
  return bands;
}

/** Sum of the RGB differences that counts as an edge: faint glyph edges exceed it, gradients (a few levels a pixel) do not. */
const EDGE_SUM = 20;
/** Blank pixels kept around trimmed content, so glyphs do not touch the image edge. */
const TRIM_BORDER = 16;

/** Whether the pixel at byte offset `p` and its right neighbour differ clearly. */
function edgeAt(data: Buffer, p: number): boolean {
  const r = data[p]! - data[p + 4]!;
  const g = data[p + 1]! - data[p + 5]!;
  const b = data[p + 2]! - data[p + 6]!;
  return (r < 0 ? -r : r) + (g < 0 ? -g : g) + (b < 0 ? -b : b) > EDGE_SUM;
}

/**
 * The pixels as 32-bit words, to skip equal neighbours (most of a UI) with one comparison;
 * undefined when the buffer is not 4-byte aligned.
 */
function pixelWords(data: Buffer): Uint32Array | undefined {
  return data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2) : undefined;
}

/** RGB of a little-endian RGBA word: alpha is ignored (grabs may leave it 0). */
const RGB_MASK = 0x00ffffff;

/** Per row: how many neighbouring pixel pairs differ clearly, and where the first and last are. */
export interface RowActivity {
  /** A cheap measure (a few ms on 1080p) of how much text, and so OCR time, a row holds. */
  edges: Uint32Array;
  /** x of the first and last pixel on an edge; meaningless where `edges` is 0. */
  first: Int32Array;
  last: Int32Array;
}

export function rowActivity(image: ScreenImage): RowActivity {
  const { width, height, data } = image;
  const words = pixelWords(data);
  const edges = new Uint32Array(height);
  const first = new Int32Array(height);
  const last = new Int32Array(height);
  for (let y = 0; y < height; y++) {
    let count = 0;
    let x0 = 0;
    let x1 = 0;
    for (let i = y * width, end = i + width - 1, x = 0; i < end; i++, x++) {
      if (words && ((words[i]! ^ words[i + 1]!) & RGB_MASK) === 0) continue;
      if (!edgeAt(data, i * 4)) continue;
      if (count++ === 0) x0 = x;
      x1 = x + 1;
    }
    edges[y] = count;
    first[y] = x0;
    last[y] = x1;
  }
  return { edges, first, last };
}

/**
 * Rows [y0, y1) of the image, cut down to the box around their edges plus a blank border (a
 * view of the same buffer when only rows go, a copy when columns go too); 0x0 when blank.
 */
export function trimmedRows(image: ScreenImage, y0: number, y1: number, activity: RowActivity): ScreenImage {
  const { width, data } = image;
  const { edges, first, last } = activity;
  let top = y0;
  while (top < y1 && edges[top] === 0) top++;
  let bottom = y1;
  while (bottom > top && edges[bottom - 1] === 0) bottom--;
  if (top >= bottom) return { width: 0, height: 0, data: data.subarray(0, 0), origin: { x: image.origin.x, y: image.origin.y + y0 } };
  let left = width;
  let right = 0;
  for (let y = top; y < bottom; y++) {
    if (edges[y] === 0) continue;
    left = Math.min(left, first[y]!);
    right = Math.max(right, last[y]!);
  }
  const ty0 = Math.max(y0, top - TRIM_BORDER);
  const ty1 = Math.min(y1, bottom + TRIM_BORDER);
  const tx0 = Math.max(0, left - TRIM_BORDER);
  const tx1 = Math.min(width, right + 1 + TRIM_BORDER);
  const origin = { x: image.origin.x + tx0, y: image.origin.y + ty0 };
  if (tx0 === 0 && tx1 === width) return { width, height: ty1 - ty0, data: data.subarray(ty0 * width * 4, ty1 * width * 4), origin };
  const w = tx1 - tx0;
  const out = Buffer.allocUnsafe(w * (ty1 - ty0) * 4);
  for (let y = ty0; y < ty1; y++) data.copy(out, (y - ty0) * w * 4, (y * width + tx0) * 4, (y * width + tx1) * 4);
  return { width: w, height: ty1 - ty0, data: out, origin };
}

/**
 * Row boundaries [0, c1, ..., height] splitting the activity into `count` equal parts, each
 * cut moved to the quietest row nearby (a gap between text lines) so fewer lines are read
 * twice. A blank image is split into equal heights.
 */
export function balancedCuts(activity: ArrayLike<number>, count: number, nudge: number): number[] {
  const height = activity.length;
  const n = Math.max(1, Math.min(Math.floor(count), height));
  let total = 0;
  for (let y = 0; y < height; y++) total += activity[y]!;
  const cuts = [0];
  let sum = 0;
  let y = 0;
  for (let i = 1; i < n; i++) {
    let cut: number;
    if (total === 0) {
      cut = Math.round((i * height) / n);
    } else {
      const target = (i * total) / n;
      while (y < height && sum + activity[y]! < target) sum += activity[y++]!;
      const balanced = y;
      cut = balanced;
      // Nearest first, so among equally quiet rows the one closest to the balance wins.
      for (let d = 1; d <= nudge; d++) {
        for (const c of [balanced - d, balanced + d]) {
          if (c >= 0 && c < height && activity[c]! < activity[Math.min(cut, height - 1)]!) cut = c;
        }
      }
    }
    // Strictly increasing, and room left for the bands still to come.
    cuts.push(Math.min(height - (n - i), Math.max(cuts[i - 1]! + 1, cut)));
  }
  cuts.push(height);
  return cuts;
}

/**
 * The elements of all bands, each once. A band keeps what has its centre in its own rows.
 * Where a line crosses a cut, the two bands may box it differently (a frame line joined to
 * the text in one of them), so ownership alone can keep it twice or not at all: an element
 * the owning band did not read is kept from the band that read it whole (clear of that band's
 * cut edges), and of one element read by two bands the more confident reading stays.
 */
export function joinBands(readings: ReadonlyArray<readonly OcrElement[]>, bands: readonly Band[]): OcrElement[] {
  const ownerOf = (box: BBox): number => {
    const cy = centreY(box);
    return bands.findIndex((band) => cy >= band.top && cy < band.bottom);
  };
  const kept: Array<{ element: OcrElement; band: number }> = [];
  readings.forEach((elements, i) => {
    for (const element of elements) if (ownerOf(element.bbox) === i) kept.push({ element, band: i });
  });
  readings.forEach((elements, i) => {
    const image = bands[i]!.image;
    for (const element of elements) {
      const owner = ownerOf(element.bbox);
      if (owner === i) continue;
      // Touching the band's top or bottom edge: cut off there, a fragment.
      const { y, height } = element.bbox;
      if (y <= image.origin.y + 1 || y + height >= image.origin.y + image.height - 1) continue;
      if (kept.some((k) => k.band === owner && sameSpot(k.element, element))) continue;
      kept.push({ element, band: i });
    }
  });
  const out: Array<{ element: OcrElement; band: number }> = [];
  for (const k of [...kept].sort((a, b) => b.element.confidence - a.element.confidence)) {
    if (!out.some((o) => o.band !== k.band && sameSpot(o.element, k.element))) out.push(k);
  }
  // Back in band order (and engine order within a band), as one reading would list them.
  const order = new Map(kept.map((k, i) => [k, i]));
  return out.sort((a, b) => order.get(a)! - order.get(b)!).map((k) => k.element);
}

/** Two readings of one thing: same level, one's centre inside the other's box. */
function sameSpot(a: OcrElement, b: OcrElement): boolean {
  return a.level === b.level && (centreInside(a.bbox, b.bbox) || centreInside(b.bbox, a.bbox));
}

/**
 * Reads the bands at once (the engine spreads them over its workers) and joins their elements.
 * `nudge`: how far a cut may move to a quiet row (0 in tests, to cut through text).
 */
export async function recognizeInBands(engine: OcrEngine, image: ScreenImage, count: number, margin: number, options: OcrOptions, nudge?: number): Promise<OcrAnalysis> {
  const bands = splitIntoBands(image, count, margin, nudge);
  // A blank band holds no text: nothing to read.
  const readings = await Promise.all(bands.map((band) => (band.image.width > 0 ? engine.recognize(band.image, options) : { fullText: '', elements: [] })));
  const elements = joinBands(
    readings.map((reading) => reading.elements),
    bands,
  );
  return { fullText: readingOrderText(elements), elements };
}
