import { centreOf } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from '../ocr/ocrTypes';
import type { Candidate } from './candidate';
import { wordLines } from './textLocator';

// The last way to find a text in OCR words when word matching found nothing: the words of a
// line run together without their spaces, so a name OCR split at a dot ("settings. toml",
// "path. join(folder,") or glued to punctuation ("exec(line.trim());") is found as written.
// Only whole parts count: bounded by punctuation or word edges, never inside a longer word.

const MIN_CHARS = 3;

export function compactCandidates(analysis: OcrAnalysis, query: string): Candidate[] {
  const needle = squeeze(query);
  if ([...needle].length < MIN_CHARS || !/[\p{L}\p{N}]/u.test(needle)) return [];
  const found: Candidate[] = [];
  for (const line of wordLines(analysis)) {
    // Each character of the run: which word it came from and where in that word.
    const chars: Array<{ char: string; word: number; at: number }> = [];
    line.forEach((word, index) => [...squeeze(word.text)].forEach((char, at) => chars.push({ char, word: index, at })));
    const text = chars.map((c) => c.char);
    const length = [...needle].length;
    const target = [...needle];
    for (let start = 0; start + length <= text.length; start++) {
      if (!target.every((c, k) => text[start + k] === c)) continue;
      const first = chars[start]!;
      const last = chars[start + length - 1]!;
      const before = chars[start - 1];
      const after = chars[start + length];
      // A word edge is a boundary; inside a word the neighbour must be punctuation.
      if (before && before.word === first.word && isWordChar(before.char)) continue;
      if (after && after.word === last.word && isWordChar(after.char)) continue;
      found.push(part(line, first, last));
    }
  }
  return found;
}

function part(line: OcrElement[], first: { word: number; at: number }, last: { word: number; at: number }): Candidate {
  const a = line[first.word]!;
  const b = line[last.word]!;
  const x0 = a.bbox.x + (a.bbox.width * first.at) / Math.max(1, [...squeeze(a.text)].length);
  const x1 = b.bbox.x + (b.bbox.width * (last.at + 1)) / Math.max(1, [...squeeze(b.text)].length);
  const words = line.slice(first.word, last.word + 1);
  const y0 = Math.min(...words.map((w) => w.bbox.y));
  const y1 = Math.max(...words.map((w) => w.bbox.y + w.bbox.height));
  const bbox = { x: Math.round(x0), y: y0, width: Math.max(1, Math.round(x1 - x0)), height: y1 - y0 };
  return {
    text: words.map((w) => w.text).join(' '),
    bbox,
    point: centreOf(bbox),
    confidence: Math.min(...words.map((w) => w.confidence)),
    kind: 'substring',
    whole: false,
    source: 'ocr',
  };
}

/** Lower case, width variants folded, no white space. */
function squeeze(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

function isWordChar(char: string): boolean {
  return /[\p{L}\p{N}]/u.test(char);
}
