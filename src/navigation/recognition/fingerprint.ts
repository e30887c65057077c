import { createHash } from 'node:crypto';
import { centreInside, type BBox } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from '../../desktop/ocr/ocrTypes';
import type { Fingerprint } from '../store/brainTypes';
import { editorArea, menuBarRow, stableTitle } from './screenChrome';
import { canonicalLine, stableTokens, tidyLine } from './volatileText';

// A screen state's fingerprint: the stable text of the active window. Two readings of the
// same screen (another clock, one more line in a list) score at or above SIMILARITY_THRESHOLD;
// another page of the same app (other headings and buttons) scores below it.

/** What identification needs from a screen reading; build it with readingFromOcr. */
export interface ScreenText {
  /** The active window's application (WindowInfo.appName). */
  programName: string;
  windowTitle: string;
  /** OCR lines of the active window in reading order, as read. */
  lines: string[];
  /** Lines that stand out (tallest text), most prominent first; optional. */
  headings?: string[];
}

/**
 * Same screen ≥ 0.8 > another screen. Measured in test/brain/fingerprint.test.ts: a changed
 * clock scores 1.0, one extra line in a 10-line list about 0.95, one line changed about
 * 0.9; another page of the same app that shares its sidebar and buttons 0.4–0.7.
 */
export const SIMILARITY_THRESHOLD = 0.8;

/** Window titles sharing fewer tokens than this are different windows (similarity 0). */
const TITLE_GATE = 0.5;
const WEIGHTS = { title: 0.15, tokens: 0.5, lines: 0.35 } as const;
/** Both sides have headings and none is shared: a different page even if the chrome matches. */
const HEADING_MISMATCH_FACTOR = 0.75;
const HEADING_TOKEN_WEIGHT = 2;

/** A node's fingerprint stays under ~4 KB whatever the screen shows. */
export const FINGERPRINT_LIMITS = { maxLines: 120, maxLineChars: 100, maxChars: 4_000, maxHeadings: 5, maxTitleChars: 300 } as const;

export function buildFingerprint(reading: ScreenText): Fingerprint {
  const lines = uniqueCanonical(reading.lines, FINGERPRINT_LIMITS.maxLines);
  const headings = uniqueCanonical(reading.headings ?? [], FINGERPRINT_LIMITS.maxHeadings);
  // An editor's title names the open document: another document is the same screen.
  return { title: clip(canonicalLine(stableTitle(reading.windowTitle)), FINGERPRINT_LIMITS.maxTitleChars), lines, headings };
}

/** A short stable hash (sha1, 12 hex) of the canonical fingerprint; line order and headings excluded. */
export function stateHashOf(programName: string, fingerprint: Fingerprint): string {
  const canonical = [normalizeProgram(programName), fingerprint.title, ...[...new Set(fingerprint.lines)].sort()].join('\n');
  return createHash('sha1').update(canonical).digest('hex').slice(0, 12);
}

export function normalizeProgram(programName: string): string {
  return programName.normalize('NFKC').trim().toLowerCase();
}

export interface FingerprintedState {
  programName: string;
  fingerprint: Fingerprint;
}

/**
 * In [0, 1]: 0 for another program or window; otherwise a weighted sum of the window titles'
 * token overlap, the tokens' overlap (heading tokens count double) and the lines' overlap,
 * each a Dice coefficient (2|A∩B| / (|A|+|B|)), lowered when the headings share nothing.
 */
export function similarity(a: FingerprintedState, b: FingerprintedState): number {
  if (normalizeProgram(a.programName) !== normalizeProgram(b.programName)) return 0;
  const pa = prepare(a.fingerprint);
  const pb = prepare(b.fingerprint);
  const title = dice(pa.titleTokens, pb.titleTokens);
  if (title < TITLE_GATE) return 0;
  let score = WEIGHTS.title * title + WEIGHTS.tokens * weightedDice(pa.tokens, pb.tokens) + WEIGHTS.lines * dice(pa.lines, pb.lines);
  if (pa.headings.size > 0 && pb.headings.size > 0 && dice(pa.headings, pb.headings) === 0) score *= HEADING_MISMATCH_FACTOR;
  return Math.min(1, Math.max(0, score));
}

interface Prepared {
  titleTokens: Set<string>;
  tokens: Map<string, number>;
  lines: Set<string>;
  headings: Set<string>;
}

// Fingerprints are compared with every node of a program on each identification: the sets
// are built once per fingerprint object.
const preparedCache = new WeakMap<Fingerprint, Prepared>();

function prepare(fingerprint: Fingerprint): Prepared {
  const cached = preparedCache.get(fingerprint);
  if (cached) return cached;
  const tokens = new Map<string, number>();
  for (const line of fingerprint.lines) for (const token of line.split(' ')) if (token) tokens.set(token, 1);
  for (const heading of fingerprint.headings) for (const token of heading.split(' ')) if (token) tokens.set(token, HEADING_TOKEN_WEIGHT);
  const prepared: Prepared = {
    titleTokens: new Set(fingerprint.title.split(' ').filter(Boolean)),
    tokens,
    lines: new Set(fingerprint.lines),
    headings: new Set(fingerprint.headings),
  };
  preparedCache.set(fingerprint, prepared);
  return prepared;
}

function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return (2 * shared) / (a.size + b.size);
}

function weightedDice(a: Map<string, number>, b: Map<string, number>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  let total = 0;
  for (const [token, weight] of a) {
    total += weight;
    const other = b.get(token);
    if (other !== undefined) shared += Math.min(weight, other) * 2;
  }
  for (const weight of b.values()) total += weight;
  return total === 0 ? 1 : shared / total;
}

function uniqueCanonical(lines: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  let chars = 0;
  for (const line of lines) {
    const canonical = clip(canonicalLine(line), FINGERPRINT_LIMITS.maxLineChars);
    if (!canonical || seen.has(canonical)) continue;
    chars += canonical.length;
    if (seen.size >= max || chars > FINGERPRINT_LIMITS.maxChars) break;
    seen.add(canonical);
  }
  return [...seen];
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd();
}

// ---- From OCR --------------------------------------------------------------------------

export interface ReadingOptions {
  /** Only text inside this box (the active window), so panels and their clocks stay out. */
  bounds?: BBox;
  /** OCR lines below this confidence are noise that differs between readings. Default 0.5. */
  minConfidence?: number;
}

/**
 * Builds the identification input from an OCR analysis and the active window: the line
 * elements inside the window in reading order, and as headings the lines clearly taller
 * than the median line (1.35x), tallest first. The menu bar and, in a document window, the
 * tab strip and editor area are left out (screenChrome): they are not where the app is.
 */
export function readingFromOcr(window: { appName: string; title: string }, analysis: OcrAnalysis, options: ReadingOptions = {}): ScreenText {
  const minConfidence = options.minConfidence ?? 0.5;
  const inside = (e: OcrElement): boolean => !options.bounds || centreInside(e.bbox, options.bounds);
  let elements = analysis.elements.filter((e) => e.level === 'line' && e.confidence >= minConfidence && inside(e));
  if (elements.length === 0 && !analysis.elements.some((e) => e.level === 'line')) {
    // Word-level readings only: the full text keeps the engine's line breaks.
    const lines = analysis.fullText.split('\n').map(tidyLine).filter(Boolean);
    return { programName: window.appName, windowTitle: window.title, lines };
  }
  elements = [...elements].sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x);
  const menuBar = new Set(menuBarRow(elements, options.bounds));
  const editor = editorArea(window.title, elements, options.bounds);
  elements = elements.filter((e) => !menuBar.has(e) && !(editor && centreInside(e.bbox, editor)));
  const lines = elements.map((e) => tidyLine(e.text)).filter(Boolean);
  // The median of lines with words: digits and symbols (a keypad's "7", "+") are short glyphs,
  // and against them any word with an ascender and a descender ("sqrt") looked like a heading.
  const worded = elements.filter((e) => stableTokens(e.text).length > 0);
  const heights = (worded.length > 0 ? worded : elements).map((e) => e.bbox.height).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  const headings = elements
    .filter((e) => median > 0 && e.bbox.height >= median * 1.35 && stableTokens(e.text).length > 0)
    .sort((a, b) => b.bbox.height - a.bbox.height)
    .slice(0, FINGERPRINT_LIMITS.maxHeadings)
    .map((e) => tidyLine(e.text));
  return { programName: window.appName, windowTitle: window.title, lines, headings };
}
