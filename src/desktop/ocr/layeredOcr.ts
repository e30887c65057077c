// Two-pass OCR over any engine: a sparse pass over the whole image, then a close look at the
// text regions that pass left unread (small labels, single-glyph buttons), each cropped,
// padded with its own background, upscaled and read with a layout that fits it.
import { boxArea, centreInside, imageBounds, intersectionArea, offsetBox, union, type BBox } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from './ocrTypes';
import { parallelismOf, recognizeInBands } from './ocrBands';
import { inkOnWhite } from './ocrContrast';
import { abortError, readingOrderText } from './ocrHelpers';
import type { OcrEngine, OcrOptions } from '../ports/ocrPort';
import type { ScreenImage } from '../ports/screenPort';
import { findTextRegions, type TextRegion, type TextRegionOptions, type TextWord } from './textRegions';

export interface LayeredOcrOptions {
  /** A pass-1 word at least this confident counts as having read the text under it. */
  coverConfidence?: number;
  /** Pass-2 words below this are dropped: crops of icons and borders read as junk. */
  minRegionConfidence?: number;
  /** At most this many regions get a second look per call (flattest surroundings first). */
  maxRegions?: number;
  /** Upscale each crop so its text is about this tall (pixels); tesseract reads ~30 px best. */
  targetTextHeight?: number;
  regions?: TextRegionOptions;
  /** Pass-2 results kept for crops seen before (same pixels); 0 turns the cache off. */
  cacheSize?: number;
  /**
   * Pass 1 of a large image is read as this many horizontal bands at once; default: as many
   * as the engine reads in parallel (`parallelism`, e.g. TesseractJsOcr's workers), else 1.
   */
  bands?: number;
  /** Rows each band reads beyond its own part, so lines up to twice this tall are never cut. */
  bandMargin?: number;
}

/** What the last recognize did, for benchmarks and logs. */
export interface LayeredOcrStats {
  /** Candidate text regions found. */
  regions: number;
  /** Of those, the ones pass 1 did not read confidently. */
  uncovered: number;
  /** Engine calls in pass 2 (a region may take up to three). */
  recognized: number;
  /** Regions answered from the cache or from an identical crop in the same call. */
  cached: number;
  /** Words pass 2 contributed. */
  added: number;
  /** Bands pass 1 was read in (0: a small image, read whole as it is). */
  bands: number;
  pass1Ms: number;
  regionsMs: number;
  pass2Ms: number;
}

const DEFAULTS = { coverConfidence: 0.85, minRegionConfidence: 0.5, maxRegions: 80, targetTextHeight: 30, cacheSize: 500, bandMargin: 40 };
const MAX_REGION_SCALE = 3;
const SMALL_IMAGE_PIXELS = 250_000;
/** Below this many engine pixels, bands and trimming cost more than they save. */
const BAND_MIN_PIXELS = 400_000;
/** Bands are at least this many screen rows (before margins). */
const BAND_MIN_ROWS = 160;
/** Below this the first reading is junk (an icon, a border), not a glyph read at a bad scale. */
const RETRY_FLOOR = 0.25;

export class LayeredOcr implements OcrEngine {
  readonly name: string;
  lastStats: LayeredOcrStats | undefined;
  private readonly settings: typeof DEFAULTS;
  private readonly bands: number;
  private readonly regionOptions: TextRegionOptions;
  /** Pass-2 words by crop content, with boxes relative to the crop's origin. */
  private readonly cache = new Map<string, OcrElement[]>();

  constructor(
    private readonly engine: OcrEngine,
    options: LayeredOcrOptions = {},
  ) {
    this.name = `layered(${engine.name})`;
    const { regions, bands, ...rest } = options;
    this.settings = { ...DEFAULTS, ...definedOnly(rest) };
    this.bands = Math.max(1, Math.floor(bands ?? parallelismOf(engine)));
    this.regionOptions = regions ?? {};
  }

  async recognize(image: ScreenImage, options: OcrOptions = {}): Promise<OcrAnalysis> {
    // Asked for one line, word or glyph, or for text already cut out: the caller knows where the text is.
    if ((options.layout !== undefined && options.layout !== 'sparse') || options.firstPassOnly) return this.engine.recognize(image, options);
    const started = performance.now();
    // Small images (a window part, a changed region) are read at 2x: cheap at that size, and
    // 10-px text reads better (a crop read "status:" at 1x, "Status:" at 2x, in 40 ms).
    const scale = options.scale ?? (image.width * image.height <= SMALL_IMAGE_PIXELS ? 2 : undefined);
    const bands = this.bandsFor(image, scale);
    const pass1Options = { ...options, layout: 'sparse' as const, scale };
    const pass1 = bands > 0 ? recognizeInBands(this.engine, image, bands, this.settings.bandMargin, pass1Options) : this.engine.recognize(image, pass1Options);
    pass1.catch(() => undefined);
    // Let pass 1 reach its worker before the (synchronous) region search takes this thread.
    await new Promise((resolve) => setImmediate(resolve));
    const regionsStarted = performance.now();
    const regions = findTextRegions(image, this.regionOptions);
    const regionsMs = performance.now() - regionsStarted;
    const first = await pass1;
    const pass1Ms = performance.now() - started;

    if (options.signal?.aborted) throw abortError(options.signal);
    const pass2Started = performance.now();
    const words1 = first.elements.filter((e) => e.level === 'word');
    // A word boxed over its neighbours (light text on a dark header read whole) has not read them.
    const confident = words1.filter((e) => e.confidence >= this.settings.coverConfidence && !spansOthers(e, words1));
    const uncovered = regions.filter((region) => region.words.some((word) => !covered(word, confident)));
    let recognized = 0;
    let cached = 0;
    // Over budget, regions on flat fills (UI labels) before those on textures.
    const chosen = uncovered.length > this.settings.maxRegions ? [...uncovered].sort((a, b) => b.flatness - a.flatness).slice(0, this.settings.maxRegions) : uncovered;
    // All issued at once: the engine spreads them over its workers (or serializes them on one),
    // and meanwhile this thread prepares the next crops instead of waiting for each answer.
    // Identical crops (two "OK" buttons) are read once; words are kept relative to the crop so
    // they can be moved.
    const pending = new Map<string, Promise<OcrElement[]>>();
    const read = await Promise.all(
      chosen.map(async (region) => {
        const crop = cropRegion(image, region);
        const key = `${region.layout}:${crop.width}x${crop.height}:${hashPixels(crop.data)}`;
        let relative = this.recall(key) ?? pending.get(key);
        if (relative) {
          cached++;
        } else {
          relative = this.readRegion(crop, region, options.signal).then((result) => {
            recognized += result.attempts;
            const words = result.words.map((w) => ({ ...w, bbox: offsetBox(w.bbox, -crop.origin.x, -crop.origin.y) }));
            if (this.settings.cacheSize > 0) this.remember(key, words);
            return words;
          });
          pending.set(key, relative);
        }
        return (await relative).map((w) => ({ ...w, bbox: offsetBox(w.bbox, crop.origin.x, crop.origin.y) }));
      }),
    );
    const added = read.filter((words) => words.length > 0);
    const elements = merge(first.elements, added);
    const now = performance.now();
    this.lastStats = {
      regions: regions.length,
      uncovered: uncovered.length,
      recognized,
      cached,
      added: added.reduce((n, words) => n + words.length, 0),
      bands,
      pass1Ms,
      regionsMs,
      pass2Ms: now - pass2Started,
    };
    return { fullText: readingOrderText(elements), elements };
  }

  /**
   * How many bands to read pass 1 of a large image in (one per parallel reader; one band still
   * leaves blank borders out); 0 for a small image, read as it is.
   */
  private bandsFor(image: ScreenImage, scale: number | undefined): number {
    const factor = scale !== undefined && scale > 1 ? scale : 1;
    if (image.width * image.height * factor * factor < BAND_MIN_PIXELS) return 0;
    return Math.max(1, Math.min(this.bands, Math.floor(image.height / BAND_MIN_ROWS)));
  }

  warmUp(): Promise<void> {
    return this.engine.warmUp?.() ?? Promise.resolve();
  }

  dispose(): Promise<void> {
    this.cache.clear();
    return this.engine.dispose();
  }

  /**
   * Reads one cropped region, trying other scales while the reading is unsure. Lone glyphs
   * read erratically with scale (a `3` came back as `H` at 2x and `=` at 3x but right at 1x),
   * so they get up to three tries; most are settled by the first.
   */
  private async readRegion(crop: ScreenImage, region: TextRegion, signal: AbortSignal | undefined): Promise<{ words: OcrElement[]; attempts: number }> {
    // A lone dot (a calculator's decimal point) gives the LSTM no baseline to read it against:
    // it returns nothing at any scale. Say what it most likely is, with modest confidence.
    const { width, height } = region.bbox;
    if (region.layout === 'char' && width <= 4 && height <= 4 && Math.abs(width - height) <= 1) {
      return { words: [{ text: '.', confidence: 0.6, bbox: region.bbox, level: 'word' }], attempts: 0 };
    }
    // Three dots in a row (an overflow button's "…") are as baseline-less as one.
    if (region.glyphs === 3 && height <= 4 && width <= 8 * height) {
      return { words: [{ text: '...', confidence: 0.6, bbox: region.bbox, level: 'word' }], attempts: 0 };
    }
    const natural = Math.min(MAX_REGION_SCALE, Math.max(1, Math.round(this.settings.targetTextHeight / region.bbox.height)));
    const scales = region.layout === 'char' ? [2, 1, 3] : [natural, natural >= MAX_REGION_SCALE ? natural - 1 : natural + 1];
    const accept = region.layout === 'char' ? 0.8 : 0.75;
    let best: { words: OcrElement[]; score: number } | undefined;
    let attempts = 0;
    for (const scale of scales) {
      attempts++;
      // One word is read as a line: tesseract's single-word mode (PSM 8) gave "Delete" 0.47 and
      // "Publish." 0.47 where the line mode (PSM 7) read the same crops at 0.96.
      const result = await this.engine.recognize(crop, { layout: region.layout === 'word' ? 'line' : region.layout, scale, signal });
      let words = result.elements.filter((e) => e.level === 'word' && centreInside(e.bbox, imageBounds(crop)));
      if (region.layout === 'char') words = singleGlyph(words);
      const score = words.length === 0 ? 0 : Math.min(...words.map((w) => w.confidence));
      if (!best || score > best.score) best = { words, score };
      // Sure enough, or hopeless: icons and frame pieces read as junk at every scale. Words
      // read at 0 are worth one more scale ("Ln 12" came back at 0.00 at 3x, 0.56 at 2x).
      const hopeless = region.layout === 'char' || words.length === 0 ? best.score < RETRY_FLOOR : false;
      if (score >= accept || hopeless) break;
    }
    // Word by word: an icon beside a name ("0" before "main.rs") must not take the name with it.
    const words = best ? best.words.filter((w) => w.confidence >= this.settings.minRegionConfidence) : [];
    return { words, attempts };
  }

  /** A cached reading, moved to the young end (the cache drops its oldest entry when full). */
  private recall(key: string): OcrElement[] | undefined {
    const words = this.cache.get(key);
    if (words) {
      this.cache.delete(key);
      this.cache.set(key, words);
    }
    return words;
  }

  private remember(key: string, words: OcrElement[]): void {
    if (this.cache.size >= this.settings.cacheSize) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(key, words);
  }
}

/**
 * Pass-1 elements plus the pass-2 words (one array per region). Regions were read again
 * because pass 1 did not read them well, so a pass-2 word replaces the pass-1 words it
 * overlaps; between pass-2 words the more confident one stays. Pass-1 lines that lost words
 * are rebuilt from the rest, and each region's words become a line.
 */
export function merge(pass1: readonly OcrElement[], regions: readonly OcrElement[][]): OcrElement[] {
  const words1 = pass1.filter((e) => e.level === 'word');
  const replaced = new Set<OcrElement>();
  const kept: OcrElement[][] = [];
  const accepted: OcrElement[] = [];
  for (const words of regions) {
    const keep: OcrElement[] = [];
    for (const word of words) {
      const rivals = accepted.filter((other) => !replaced.has(other) && overlaps(word.bbox, other.bbox));
      if (rivals.some((other) => other.confidence >= word.confidence)) continue;
      for (const other of [...rivals, ...words1.filter((w) => overlaps(word.bbox, w.bbox))]) replaced.add(other);
      keep.push(word);
      accepted.push(word);
    }
    if (keep.length > 0) kept.push(keep);
  }
  const out: OcrElement[] = [];
  for (const element of pass1) {
    if (element.level === 'word') {
      if (!replaced.has(element)) out.push(element);
      continue;
    }
    const members = words1.filter((w) => centreInside(w.bbox, element.bbox) && element.text.includes(w.text));
    const lost = members.filter((w) => replaced.has(w));
    if (lost.length === 0) out.push(element);
    else if (lost.length < members.length) out.push(lineOf(members.filter((w) => !replaced.has(w))));
  }
  for (const words of kept) {
    const live = words.filter((w) => !replaced.has(w));
    if (live.length === 0) continue;
    out.push(...live, lineOf(live));
  }
  return out;
}

/**
 * One glyph was seen, so one character is expected: keep the most confident word, and fold
 * the doubled letter the LSTM emits when unsure of the case (`Cc`, `xX`) into one.
 */
function singleGlyph(words: OcrElement[]): OcrElement[] {
  const best = [...words].sort((a, b) => b.confidence - a.confidence)[0];
  if (!best) return [];
  const chars = [...best.text];
  if (chars.length === 2 && chars[0]!.toLowerCase() === chars[1]!.toLowerCase()) return [{ ...best, text: chars[0]! }];
  return [best];
}

function lineOf(words: OcrElement[]): OcrElement {
  const sorted = [...words].sort((a, b) => a.bbox.x - b.bbox.x);
  const confidence = sorted.reduce((sum, w) => sum + w.confidence, 0) / sorted.length;
  return { text: sorted.map((w) => w.text).join(' '), confidence, bbox: union(sorted.map((w) => w.bbox)), level: 'line' };
}

/**
 * The region's box, padded by about half its height with the background colour around it, as
 * dark ink on white along its own colours (light-on-dark and coloured labels, see ocrContrast).
 */
export function cropRegion(image: ScreenImage, region: TextRegion, padding = 0.6): ScreenImage {
  const { bbox } = region;
  const pad = Math.max(4, Math.round(bbox.height * padding));
  const width = bbox.width + 2 * pad;
  const height = bbox.height + 2 * pad;
  const left = bbox.x - image.origin.x;
  const top = bbox.y - image.origin.y;
  const background = ringColour(image, left, top, bbox.width, bbox.height);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.writeUInt32LE(background, i * 4);
  // Only the tight box is copied: the surroundings (button borders, neighbours) are noise to OCR.
  for (let y = 0; y < bbox.height; y++) {
    const sy = top + y;
    if (sy < 0 || sy >= image.height) continue;
    const x0 = Math.max(0, left);
    const x1 = Math.min(image.width, left + bbox.width);
    if (x1 <= x0) continue;
    image.data.copy(data, ((pad + y) * width + pad + (x0 - left)) * 4, (sy * image.width + x0) * 4, (sy * image.width + x1) * 4);
  }
  return inkOnWhite({ width, height, data, origin: { x: bbox.x - pad, y: bbox.y - pad } }, background, { x: pad, y: pad, width: bbox.width, height: bbox.height });
}

/** The most common colour on the 1-pixel ring around a box (as a little-endian RGBA word). */
function ringColour(image: ScreenImage, left: number, top: number, width: number, height: number): number {
  const counts = new Map<number, number>();
  const visit = (x: number, y: number): void => {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
    const value = (image.data.readUInt32LE((y * image.width + x) * 4) | 0xff000000) >>> 0;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  };
  for (let x = left - 1; x <= left + width; x++) {
    visit(x, top - 1);
    visit(x, top + height);
  }
  for (let y = top; y < top + height; y++) {
    visit(left - 1, y);
    visit(left + width, y);
  }
  let best = 0xffffffff;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

/** Another word of two letters or more has its middle inside this word's box: the box is not the word's. */
export function spansOthers(word: OcrElement, words: readonly OcrElement[]): boolean {
  return words.some((other) => other !== word && (other.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2 && centreInside(other.bbox, word.bbox));
}

/**
 * Whether pass 1 read this word: confident words cover at least half its box, with about as
 * many characters as it has glyphs (a `<-` read as `=`, or `+/-` as `+`, is not read).
 */
function covered(word: TextWord, confident: readonly OcrElement[]): boolean {
  let area = 0;
  let chars = 0;
  for (const other of confident) {
    const shared = intersectionArea(word.bbox, other.bbox);
    if (shared === 0) continue;
    area += shared;
    chars += [...other.text].length;
  }
  if (area < 0.5 * word.bbox.width * word.bbox.height) return false;
  return word.glyphs <= 3 ? chars >= word.glyphs : chars >= 0.6 * word.glyphs;
}

function overlaps(a: BBox, b: BBox): boolean {
  const shared = intersectionArea(a, b);
  return shared > 0 && (shared >= 0.3 * Math.min(boxArea(a), boxArea(b)) || centreInside(a, b) || centreInside(b, a));
}

/** FNV-1a over the pixels: crops are small, and a collision only reuses a stale reading. */
function hashPixels(data: Buffer): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < data.length; i++) {
    h1 = Math.imul(h1 ^ data[i]!, 0x01000193);
    h2 = Math.imul(h2 ^ data[i]!, 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}`;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
