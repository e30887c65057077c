import { centreOf } from '../../common/geometry';
import type { Candidate } from './candidate';
import { pickNear, type Anchor } from './nearAnchor';
import type { LocateOptions } from './textLocator';
import { LONG_PHRASE_WORDS, oneWordOff, tokenize } from './textLocator';

// The rules that decide whether a match may be clicked. A misclick is worse than a miss: a
// match that could be something else (a glyph inside a longer label, a fuzzy reading of a short
// word, a word OCR was unsure of) is reported as doubtful and never clicked.

export interface TargetRuleOptions {
  /** OCR confidence (0..1) below which an exact match is doubtful. */
  minConfidence?: number;
  /** The same for queries of one or two characters ("I" read from a "1"). */
  minShortConfidence?: number;
  /** A fuzzy match is clickable only for words at least this long, read at least this surely. */
  minFuzzyLength?: number;
  minFuzzyConfidence?: number;
}

export const DEFAULT_RULES: Required<TargetRuleOptions> = {
  minConfidence: 0.4,
  minShortConfidence: 0.6,
  minFuzzyLength: 6,
  minFuzzyConfidence: 0.75,
};

/** Queries this short (without spaces) match inside almost any label: only whole labels count. */
export const SHORT_QUERY_CHARS = 2;

/** OCR candidates split into those that may be clicked and those that are only a hint. */
export interface Judged {
  sure: Candidate[];
  doubtful: Candidate[];
}

export function isShortQuery(query: string): boolean {
  return [...query.normalize('NFKC').replace(/\s+/g, '')].length <= SHORT_QUERY_CHARS;
}

/**
 * Sorts OCR candidates into sure and doubtful ones. A short query that matches only inside a
 * longer label is dropped altogether: "-" inside "<-" is not a "-" anywhere. A query that is a
 * part of a word between punctuation ("Partial" in "Partial<Settings>", "fs" in "'node:fs';")
 * is sure, and its box is narrowed to that part so the click lands on it.
 */
export function judgeOcr(query: string, candidates: readonly Candidate[], options: TargetRuleOptions = {}): Judged {
  const rules = { ...DEFAULT_RULES, ...options };
  const short = isShortQuery(query);
  const tokens = tokenize(query);
  const sure: Candidate[] = [];
  const doubtful: Candidate[] = [];
  // A lone glyph ("-", "+", "×") read beside other glyphs is likely a piece of a longer one ("<-", "+/-").
  const glyph = !/[\p{L}\p{N}]/u.test(query);
  // One character read alone may well be another ("I" and "1", "l" and "|"); a glyph likewise.
  const oneChar = glyph || [...query.trim()].length === 1;
  for (const candidate of candidates) {
    if (short && glyph && (candidate.kind !== 'exact' || !candidate.whole)) continue;
    if (candidate.kind === 'exact') {
      // A phrase read exactly is evidence itself: one odd glyph beside it ("(" for a check box) lowers the reading's confidence.
      const floor = oneChar ? rules.minShortConfidence : tokens.length >= 2 && tokens.join('').length >= 8 ? Math.min(rules.minConfidence, 0.25) : rules.minConfidence;
      (candidate.confidence >= floor ? sure : doubtful).push(candidate);
    } else if (candidate.kind === 'fuzzy') {
      if (short) continue;
      const long = tokens.every((t) => [...t].length >= rules.minFuzzyLength);
      const sureFuzzy = long && candidate.confidence >= rules.minFuzzyConfidence;
      (sureFuzzy || oneLetterMisread(tokens, candidate, rules) ? sure : doubtful).push(candidate);
    } else {
      const part = subwordPart(query, candidate);
      // One character read alone may be another ("I" and "1"); two or more inside punctuation were read as written.
      if (part && candidate.confidence >= ([...part.text].length <= 1 ? rules.minShortConfidence : rules.minConfidence)) sure.push(part);
      else if (short) continue;
      else (substringCovers(tokens, candidate.text) && candidate.confidence >= rules.minConfidence ? sure : doubtful).push(candidate);
    }
  }
  return { sure, doubtful };
}

/**
 * A phrase read with one letter of one long word wrong ("Contact suoport"): every other word
 * exact, that word as long as the query's and off by one substituted letter, the reading
 * otherwise sure. A word added or dropped ("supports", "suport") is another word, not a
 * misreading; "Contact supplier" is several letters off and never matches. In a phrase of four
 * words or more, one word may be off by any one edit.
 */
function oneLetterMisread(tokens: readonly string[], candidate: Candidate, rules: Required<TargetRuleOptions>): boolean {
  const read = tokenize(candidate.text);
  if (tokens.length < 2 || read.length !== tokens.length || candidate.confidence < rules.minConfidence) return false;
  // Four words or more, all but one exact: the phrase is pinned down even if a short word lost a letter.
  if (tokens.length >= LONG_PHRASE_WORDS) return oneWordOff(read, tokens);
  const differing = tokens.map((t, i) => [t, read[i]!] as const).filter(([t, r]) => t !== r);
  if (differing.length !== 1) return false;
  const [wanted, got] = differing[0]!;
  const a = [...wanted];
  const b = [...got];
  return a.length >= rules.minFuzzyLength && a.length === b.length && a.filter((c, i) => c !== b[i]).length === 1;
}

/**
 * The query as a whole part of the found text between punctuation (or its ends): the candidate
 * narrowed to where that part is, assuming evenly wide characters. Undefined when the query is
 * not such a part or is mostly punctuation itself.
 */
export function subwordPart(query: string, candidate: Candidate): Candidate | undefined {
  const needle = query.normalize('NFKC').trim().toLowerCase();
  const text = candidate.text.normalize('NFKC').toLowerCase();
  if (!/[\p{L}\p{N}]/u.test(needle)) return undefined;
  const chars = [...text];
  const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let from = text.indexOf(needle); from >= 0; from = text.indexOf(needle, from + 1)) {
    const start = [...text.slice(0, from)].length;
    const length = [...needle].length;
    const before = chars[start - 1];
    const after = chars[start + length];
    // Bounded on both sides by punctuation, space or the ends, and more than that punctuation.
    if (isWordChar(before) || isWordChar(after)) continue;
    const { bbox } = candidate;
    const x = bbox.x + (bbox.width * start) / chars.length;
    const width = Math.max(1, (bbox.width * length) / chars.length);
    const part = { x: Math.round(x), y: bbox.y, width: Math.round(width), height: bbox.height };
    // Clicked at the middle of the unrounded part.
    return { ...candidate, text: candidate.text.slice(from, from + needle.length), bbox: part, point: centreOf({ ...part, x, width }) };
  }
  return undefined;
}

/**
 * A substring is the label when it is most of the words it was found in ("Preferences" in
 * "Preferences…" is, "save" in "Autosave" is not).
 */
function substringCovers(tokens: readonly string[], found: string): boolean {
  const query = tokens.join('').length;
  const label = tokenize(found).join('').length;
  return query >= 4 && label > 0 && query / label >= 0.75;
}

/**
 * Applies occurrence / near to candidates in reading order; undefined when neither was given.
 * `ambiguous`: near could not tell them apart (none on the anchor's row, equally far).
 */
export function pick(
  candidates: readonly Candidate[],
  options: LocateOptions,
  anchor: Anchor | undefined,
): { match?: Candidate; reason?: string; ambiguous?: Candidate[] } | undefined {
  if (options.occurrence !== undefined) {
    const match = candidates[options.occurrence - 1];
    return match ? { match } : { reason: `it appears ${candidates.length} time(s); occurrence ${options.occurrence} does not exist` };
  }
  if (options.near !== undefined) {
    if (!anchor) return { reason: `the anchor "${typeof options.near === 'string' ? options.near : `${options.near.x},${options.near.y}`}" was not found` };
    const near = pickNear(candidates, anchor);
    if (!near) return { reason: 'nothing to pick from' };
    return 'match' in near ? { match: near.match } : { ambiguous: near.ambiguous };
  }
  return undefined;
}

/**
 * An OCR match inside a longer line and written in another case than asked ("file" in "a file
 * sharing program" for "File", "MEMBERS" in "TEAM MEMBERS" for "Members"): a word of prose or a
 * heading, weaker than a control named as asked. Clicked only when nothing stronger is found.
 */
export function isProseWord(query: string, candidate: Candidate): boolean {
  if (candidate.whole || candidate.source !== 'ocr') return false;
  const letters = (text: string): string => text.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, '');
  const read = letters(candidate.text);
  const asked = letters(query);
  return read !== asked && read.toLowerCase() === asked.toLowerCase();
}

/** Best first: sure exact matches first, then by confidence. */
export function byStrength(a: Candidate, b: Candidate): number {
  const rank = { exact: 0, substring: 1, fuzzy: 2 } as const;
  return rank[a.kind] - rank[b.kind] || b.confidence - a.confidence;
}

export function describeCandidate(c: Candidate): string {
  return `'${c.text}' (${c.kind === 'exact' ? '' : `${c.kind}, `}confidence ${c.confidence.toFixed(2)})`;
}
