import { centreInside, centreOf, sameBox, union } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from '../ocr/ocrTypes';
import { byReadingOrder, type Candidate, type MatchKind } from './candidate';
import { anchorOf, pickNear, type Anchor } from './nearAnchor';
import { wrappedRuns } from './wrapMatch';

// Finds where a text is on the screen from OCR words. An exact word or phrase beats a
// substring; phrases match across neighbouring words of one line; repeats are told apart by
// `occurrence` or `near`, and when that is not enough the candidates are returned, not guessed.

export interface LocateOptions {
  /** 1-based, in reading order (top to bottom, left to right). */
  occurrence?: number;
  /** Prefer the candidate closest to this text or point. */
  near?: string | { x: number; y: number };
}

export type LocateResult =
  | { status: 'found'; match: Candidate; alternatives: number }
  | { status: 'ambiguous'; candidates: Candidate[] }
  | { status: 'not_found'; suggestions: string[]; reason?: string };

export function locateText(analysis: OcrAnalysis, query: string, options: LocateOptions = {}): LocateResult {
  const candidates = findCandidates(analysis, query);
  if (candidates.length === 0) return { status: 'not_found', suggestions: suggestions(analysis, query) };
  if (options.occurrence !== undefined) {
    const match = candidates[options.occurrence - 1];
    if (!match) {
      return { status: 'not_found', suggestions: [], reason: `"${query}" appears ${candidates.length} time(s); occurrence ${options.occurrence} does not exist` };
    }
    return { status: 'found', match, alternatives: candidates.length - 1 };
  }
  if (options.near !== undefined) {
    const anchor = typeof options.near === 'string' ? anchorPoint(analysis, options.near) : options.near;
    if (!anchor) return { status: 'not_found', suggestions: suggestions(analysis, String(options.near)), reason: `the anchor "${String(options.near)}" is not on the screen` };
    const near = pickNear(candidates, anchor)!;
    return 'match' in near ? { status: 'found', match: near.match, alternatives: candidates.length - 1 } : { status: 'ambiguous', candidates: near.ambiguous };
  }
  if (candidates.length === 1) return { status: 'found', match: candidates[0]!, alternatives: 0 };
  return { status: 'ambiguous', candidates };
}

/** All matches of the best kind present, in reading order. */
export function findCandidates(analysis: OcrAnalysis, query: string): Candidate[] {
  const tokens = tokenize(query);
  if (tokens.length === 0) return [];
  const lines = wordLines(analysis);
  const ocrLines = analysis.elements.filter((e) => e.level === 'line');
  const ocrWords = analysis.elements.filter((e) => e.level === 'word');
  const exact: Candidate[] = [];
  const substring: Candidate[] = [];
  const fuzzy: Candidate[] = [];
  const needle = tokens.join(' ');
  for (const line of lines) {
    const words = line.map((w) => normalizeWord(w.text));
    for (let i = 0; i + tokens.length <= line.length; i++) {
      const run = line.slice(i, i + tokens.length);
      const runWords = words.slice(i, i + tokens.length);
      const whole = run.length === line.length && !inLongerLine(ocrLines, ocrWords, run);
      if (runWords.every((w, k) => w === tokens[k])) exact.push(candidate(run, 'exact', whole));
      else if (runWords.every((w, k) => similar(w, tokens[k]!)) || oneWordOff(runWords, tokens)) fuzzy.push(candidate(run, 'fuzzy', whole));
    }
    compactMatches(line, query, exact, fuzzy, (run) => run.length === line.length && !inLongerLine(ocrLines, ocrWords, run));
    // Substrings: the query inside a word, or spanning words of the line.
    const joined = words.join(' ');
    let from = joined.indexOf(needle);
    while (from >= 0) {
      // Only from the start of a word: "Save" in "Saved", never "Pro" in the middle of "Approve".
      if (from > 0 && joined[from - 1] !== ' ') {
        from = joined.indexOf(needle, from + 1);
        continue;
      }
      const covered = wordsCovering(words, from, from + needle.length);
      const run = line.slice(covered.first, covered.last + 1);
      if (!exact.some((e) => sameBox(e.bbox, union(run.map((w) => w.bbox))))) substring.push(candidate(run, 'substring', false));
      from = joined.indexOf(needle, from + 1);
    }
  }
  exact.push(...timesReadAsX(lines, tokens, (run) => !inLongerLine(ocrLines, ocrWords, run)));
  wrappedCandidates(lines, tokens, exact, fuzzy);
  // "Save" is the button labelled Save, not the first word of "Save As".
  const wholeExact = exact.filter((c) => c.whole);
  const best = wholeExact.length ? wholeExact : exact.length ? exact : substring.length ? substring : fuzzy;
  return dedupe(best).map((c) => (overreaches(c, ocrWords) ? { ...c, confidence: Math.min(c.confidence, OVERREACH_CONFIDENCE) } : c)).sort(byReadingOrder);
}

/** A phrase this long names one place even with one short word misread. */
export const LONG_PHRASE_WORDS = 4;

/**
 * A long phrase read with one word off by one letter, however short ("rom" for "from" in small
 * grey text): the other words pin it down. Only ever a fuzzy match.
 */
export function oneWordOff(read: readonly string[], tokens: readonly string[]): boolean {
  if (tokens.length < LONG_PHRASE_WORDS || read.length !== tokens.length) return false;
  const off = tokens.flatMap((t, k) => (t !== read[k] ? [k] : []));
  if (off.length !== 1) return false;
  const k = off[0]!;
  return [...tokens[k]!].length >= 3 && editDistance(read[k]!, tokens[k]!) <= 1;
}

/** Below every click floor: a match whose box is not where its words are drawn is only a hint. */
const OVERREACH_CONFIDENCE = 0.2;

/**
 * A word box that spans other words read beside it ("Directory" boxed over "Teams Reports" in a
 * dark header read in a crop) does not say where the word is: clicking its middle hits a
 * neighbour. Other words are those of two letters or more, not the match's own, whose middle
 * lies in the box and that span the line clicked.
 */
function overreaches(match: Candidate, words: readonly OcrElement[]): boolean {
  const own = new Set(tokenize(match.text));
  return words.some((w) => {
    if (own.has(normalizeWord(w.text)) || (w.text.match(/[\p{L}\p{N}]/gu) ?? []).length < 2) return false;
    // On the clicked line: a wrapped phrase's box also holds the words after it on its second line.
    return centreInside(w.bbox, match.bbox) && w.bbox.y <= match.point.y && match.point.y <= w.bbox.y + w.bbox.height;
  });
}

/** A phrase wrapped onto the next line (wrapMatch.ts): clicked on its longer part, which is surely on the label. */
function wrappedCandidates(lines: OcrElement[][], tokens: string[], exact: Candidate[], fuzzy: Candidate[]): void {
  if (tokens.length < 2) return;
  const words = lines.map((line) => line.map((w) => normalizeWord(w.text)));
  const compare = (read: string, wanted: string): 'exact' | 'fuzzy' | undefined => (read === wanted ? 'exact' : similar(read, wanted) ? 'fuzzy' : undefined);
  for (const run of wrappedRuns(lines, words, tokens, compare)) {
    const all = [...run.first, ...run.second];
    const wider = union(run.first.map((w) => w.bbox)).width >= union(run.second.map((w) => w.bbox)).width ? run.first : run.second;
    const found: Candidate = { ...candidate(all, run.kind, run.whole), point: centreOf(union(wider.map((w) => w.bbox))) };
    (run.kind === 'exact' ? exact : fuzzy).push(found);
  }
}

/**
 * OCR reads a multiplication sign as the letter x. Only an "x" that is a label by itself may be
 * one: an x inside a word or beside others ("Exit", "x²", "|x|", "a x b") is a letter. Such a
 * reading keeps the text read ("x"), so the caller can ask the tree whether it names a letter
 * there (isTimesReadAsX).
 */
function timesReadAsX(lines: OcrElement[][], tokens: readonly string[], alone: (run: OcrElement[]) => boolean): Candidate[] {
  if (tokens.length !== 1 || tokens[0] !== '×') return [];
  return lines.filter((line) => line.length === 1 && /^[xX]$/.test(line[0]!.text.trim()) && alone(line)).map((line) => candidate(line, 'exact', true));
}

/** Whether the candidate is a lone letter x read for the query "×" (timesReadAsX). */
export function isTimesReadAsX(query: string, candidate: Candidate): boolean {
  return candidate.source === 'ocr' && tokenize(query).join(' ') === '×' && /^[xX]$/.test(candidate.text.trim());
}

/**
 * OCR may drop a word of a label at word level yet keep it in the line ("Save" of "Save As"):
 * a run is part of a longer label when its OCR line has more words than were read inside it.
 */
function inLongerLine(lines: OcrElement[], words: OcrElement[], run: OcrElement[]): boolean {
  const box = union(run.map((w) => w.bbox));
  return lines.some((l) => {
    if (!centreInside(box, l.bbox)) return false;
    const inside = words.filter((w) => centreInside(w.bbox, l.bbox)).length;
    return tokenize(l.text).length > inside;
  });
}

function candidate(run: OcrElement[], kind: MatchKind, whole: boolean): Candidate {
  const bbox = union(run.map((w) => w.bbox));
  return {
    text: run.map((w) => w.text).join(' '),
    bbox,
    point: centreOf(bbox),
    confidence: Math.min(...run.map((w) => w.confidence)),
    kind,
    whole,
    source: 'ocr',
  };
}

/** Words grouped into lines (by OCR lines when given, else by vertical overlap), left to right. */
export function wordLines(analysis: OcrAnalysis): OcrElement[][] {
  const words = analysis.elements.filter((e) => e.level === 'word');
  const source = words.length ? words : analysis.elements;
  const sorted = [...source].sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x);
  const lines: OcrElement[][] = [];
  for (const word of sorted) {
    const line = closestLine(lines.filter((l) => sameLine(l, word)), word);
    if (line) line.push(word);
    else lines.push([word]);
  }
  return lines.flatMap((l) => splitByGaps(l.sort((a, b) => a.bbox.x - b.bbox.x)));
}

/**
 * Of the lines a word may belong to, the one most like it: middles closest and heights alike
 * ("Corporation" beside "Acme", not beside a link read with a taller box on the same row).
 */
function closestLine(lines: OcrElement[][], word: OcrElement): OcrElement[] | undefined {
  let best: { line: OcrElement[]; score: number } | undefined;
  for (const line of lines) {
    const ref = [...line].sort((a, b) => a.bbox.height - b.bbox.height)[line.length >> 1]!.bbox;
    const score = Math.abs(ref.y + ref.height / 2 - (word.bbox.y + word.bbox.height / 2)) + Math.abs(ref.height - word.bbox.height);
    if (!best || score < best.score) best = { line, score };
  }
  return best?.line;
}

/**
 * Two words belong to one line when their vertical spans overlap by more than half, measured
 * against the line's median-height word: a tall neighbour (an icon read as a glyph, a junk
 * word over a whole button) spans two rows of text and must not pull them into one line.
 * Words of very different heights are separate lines, except punctuation within the line.
 */
function sameLine(line: OcrElement[], word: OcrElement): boolean {
  const ref = [...line].sort((a, b) => a.bbox.height - b.bbox.height)[line.length >> 1]!.bbox;
  const small = Math.min(ref.height, word.bbox.height);
  const big = Math.max(ref.height, word.bbox.height);
  const top = Math.max(ref.y, word.bbox.y);
  const bottom = Math.min(ref.y + ref.height, word.bbox.y + word.bbox.height);
  if (big > 2.5 * small && small > 3) return false;
  return bottom - top > small / 2;
}

/**
 * Words far apart on one row (labels of different buttons) are not one phrase. A space
 * between words of a label is well under a text height; the gap between two widgets is more.
 */
function splitByGaps(row: OcrElement[]): OcrElement[][] {
  const segments: OcrElement[][] = [];
  const heights = row.map((w) => w.bbox.height).sort((a, b) => a - b);
  // A tall neighbour must not stretch the gap allowed between the words of a label.
  const cap = 2 * heights[heights.length >> 1]!;
  for (const word of row) {
    const segment = segments.at(-1);
    const previous = segment?.at(-1);
    const height = Math.min(cap, Math.max(word.bbox.height, previous?.bbox.height ?? 0));
    if (segment && previous && word.bbox.x - (previous.bbox.x + previous.bbox.width) <= height * 1.2) segment.push(word);
    else segments.push([word]);
  }
  return segments;
}

function wordsCovering(words: string[], start: number, end: number): { first: number; last: number } {
  let offset = 0;
  let first = -1;
  let last = -1;
  words.forEach((w, i) => {
    const wStart = offset;
    const wEnd = offset + w.length;
    if (wEnd > start && wStart < end) {
      if (first < 0) first = i;
      last = i;
    }
    offset = wEnd + 1;
  });
  return { first: Math.max(0, first), last: Math.max(0, last) };
}

export function tokenize(text: string): string[] {
  return text.normalize('NFKC').trim().split(/\s+/).map(normalizeWord).filter(Boolean);
}

/**
 * Glyphs that look alike on screen and that OCR cannot tell apart: the dashes and minus (−, –,
 * —, ‐ read as -), the multiplication signs among themselves, angle quotes and angle brackets.
 * Folded in both the query and what was read, so such a match is exact. The multiplication sign
 * is not folded into the letter x: an x in a word ("Exit", "x²", "|x|") is a letter, and a
 * calculator's x key clicked for × is a misclick; only a lone x may be a × (timesReadAsX).
 */
const GLYPH_FOLDS: ReadonlyArray<[RegExp, string]> = [
  [/[\u2010-\u2015\u2212\u2012\u2043\ufe63\uff0d]/gu, '-'],
  [/[✕✖⨯]/gu, '×'],
  [/[‹〈⟨]/gu, '<'],
  [/[›〉⟩]/gu, '>'],
  [/[‘’‚′]/gu, "'"],
  [/[“”„″]/gu, '"'],
];

export function foldGlyphs(text: string): string {
  let out = text.normalize('NFKC');
  for (const [pattern, replacement] of GLYPH_FOLDS) out = out.replace(pattern, replacement);
  return out;
}

/** Lower case, without the punctuation around a word ("Name:" → "name"), unless it is all punctuation; glyphs folded. */
export function normalizeWord(word: string): string {
  const lower = foldGlyphs(word).toLowerCase().trim();
  const stripped = lower.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return stripped || lower;
}

/**
 * Read and asked differ only by letters OCR confuses (I/l/1/|/!, O/0, S/5, B/8: "I agree" read
 * as "1 agree"), or by one edit in a word of four letters or more. Only ever a fuzzy match.
 */
function similar(a: string, b: string): boolean {
  if (a === b) return true;
  // A lone punctuation query ("!", "|") is a glyph, not a letter misread.
  if (a.length === b.length && /[\p{L}\p{N}]/u.test(a) && /[\p{L}\p{N}]/u.test(b) && skeleton(a) === skeleton(b)) return true;
  if (Math.min(a.length, b.length) < 4) return false;
  return editDistance(a, b) <= 1;
}

const CONFUSABLE: Readonly<Record<string, string>> = { '1': 'l', i: 'l', '|': 'l', '!': 'l', '0': 'o', '5': 's', '8': 'b' };

function skeleton(word: string): string {
  return [...word].map((c) => CONFUSABLE[c] ?? c).join('');
}

/**
 * A query with punctuation inside (a file name, a path, a version) may be read split at it:
 * "settings. toml", "README . md", "src/ index.ts". Runs of up to four words whose letters, with
 * the spaces taken out, are the query's are exact; one edit off (a lost dot) is fuzzy.
 */
function compactMatches(line: OcrElement[], query: string, exact: Candidate[], fuzzy: Candidate[], isWhole: (run: OcrElement[]) => boolean): void {
  const wanted = compact(query);
  if (!/[^\p{L}\p{N}]/u.test(wanted) || wanted.length < 3) return;
  const words = line.map((w) => compact(w.text));
  for (let i = 0; i < line.length; i++) {
    let joined = '';
    for (let k = i; k < Math.min(line.length, i + 4); k++) {
      joined += words[k]!;
      if (joined.length > wanted.length + 1) break;
      const run = line.slice(i, k + 1);
      // A run starting or ending in a word of only punctuation has junk at its edge (an icon read as "[[").
      if (!/[\p{L}\p{N}]/u.test(words[i]!) || !/[\p{L}\p{N}]/u.test(words[k]!)) continue;
      const box = union(run.map((w) => w.bbox));
      if (exact.some((c) => sameBox(c.bbox, box))) continue;
      // Punctuation around the run (a trailing comma or colon) is not part of the label.
      const trimmed = joined.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      const core = wanted.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (core === '') return;
      if (trimmed === core) exact.push(candidate(run, 'exact', isWhole(run)));
      else if (core.length >= 6 && editDistance(trimmed, core) <= 1) fuzzy.push(candidate(run, 'fuzzy', isWhole(run)));
    }
  }
}

function compact(text: string): string {
  return foldGlyphs(text).toLowerCase().replace(/\s+/g, '');
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length]!;
}

function anchorPoint(analysis: OcrAnalysis, text: string): Anchor | undefined {
  const found = findCandidates(analysis, text)[0];
  return found && anchorOf(found);
}

function suggestions(analysis: OcrAnalysis, query: string): string[] {
  const q = normalizeWord(query);
  const words = [...new Set(analysis.elements.filter((e) => e.level === 'word').map((e) => e.text))];
  return words
    .map((w) => ({ w, d: editDistance(normalizeWord(w), q) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(q.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 5)
    .map((x) => x.w);
}

function dedupe(candidates: Candidate[]): Candidate[] {
  return candidates.filter((c, i) => candidates.findIndex((o) => sameBox(o.bbox, c.bbox)) === i);
}
