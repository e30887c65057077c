import type { BBox } from '../../common/geometry';
import type { OcrElement } from '../ocr/ocrTypes';

// A label wrapped over two lines ("Resend" above "invite" in a narrow button, a help text that
// breaks in a sidebar) is one phrase: its first words end one line, the rest begin the line
// right below, in the same column (left edges or centres aligned). Only that shape counts: two
// labels stacked by chance rarely both end and begin their lines exactly so.

/** How a word read compares with a word asked: the caller's rules (exact, OCR look-alike). */
export type WordCompare = (read: string, wanted: string) => 'exact' | 'fuzzy' | undefined;

export interface WrappedRun {
  /** The words of the first line, then those of the second. */
  first: OcrElement[];
  second: OcrElement[];
  kind: 'exact' | 'fuzzy';
  /** Both parts are their lines' whole segments: the label itself, not words inside a paragraph. */
  whole: boolean;
}

/** `lines`: word segments as wordLines gives them; `words`: their normalized texts, alike. */
export function wrappedRuns(lines: readonly OcrElement[][], words: readonly string[][], tokens: readonly string[], compare: WordCompare): WrappedRun[] {
  if (tokens.length < 2) return [];
  const found: WrappedRun[] = [];
  for (let a = 0; a < lines.length; a++) {
    const upper = lines[a]!;
    for (let k = 1; k < tokens.length; k++) {
      if (upper.length < k) break;
      const head = compareRun(words[a]!.slice(upper.length - k), tokens.slice(0, k), compare);
      if (!head) continue;
      const tail = tokens.slice(k);
      for (let b = 0; b < lines.length; b++) {
        const lower = lines[b]!;
        if (b === a || lower.length < tail.length || !below(upper, lower)) continue;
        const rest = compareRun(words[b]!.slice(0, tail.length), tail, compare);
        if (!rest) continue;
        const first = upper.slice(upper.length - k);
        const second = lower.slice(0, tail.length);
        if (!sameColumn(upper, lower, first, second)) continue;
        found.push({ first, second, kind: head === 'exact' && rest === 'exact' ? 'exact' : 'fuzzy', whole: first.length === upper.length && second.length === lower.length });
      }
    }
  }
  return found;
}

function compareRun(read: readonly string[], wanted: readonly string[], compare: WordCompare): 'exact' | 'fuzzy' | undefined {
  let kind: 'exact' | 'fuzzy' = 'exact';
  for (let i = 0; i < wanted.length; i++) {
    const c = compare(read[i]!, wanted[i]!);
    if (!c) return undefined;
    if (c === 'fuzzy') kind = 'fuzzy';
  }
  return kind;
}

function boxOf(run: readonly OcrElement[]): BBox {
  const x = Math.min(...run.map((w) => w.bbox.x));
  const y = Math.min(...run.map((w) => w.bbox.y));
  const right = Math.max(...run.map((w) => w.bbox.x + w.bbox.width));
  const bottom = Math.max(...run.map((w) => w.bbox.y + w.bbox.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Text height of a line: its median word, so a tall junk glyph does not stretch it. */
function textHeight(line: readonly OcrElement[]): number {
  const heights = line.map((w) => w.bbox.height).sort((p, q) => p - q);
  return heights[heights.length >> 1]!;
}

/** The lower line is the next line of text: right below, of about the same size. */
function below(upper: readonly OcrElement[], lower: readonly OcrElement[]): boolean {
  const u = boxOf(upper);
  const l = boxOf(lower);
  const hu = textHeight(upper);
  const hl = textHeight(lower);
  if (Math.max(hu, hl) > 1.6 * Math.min(hu, hl)) return false;
  const gap = l.y - (u.y + u.height);
  // Baselines a line apart: no more than one text height of leading between them.
  return gap >= -hu / 3 && gap <= Math.max(hu, hl);
}

/** Left edges aligned (a paragraph, a left-aligned link) or centres aligned (a centred button). */
function sameColumn(upper: readonly OcrElement[], lower: readonly OcrElement[], first: readonly OcrElement[], second: readonly OcrElement[]): boolean {
  const h = Math.max(textHeight(upper), textHeight(lower));
  const u = boxOf(upper);
  const l = boxOf(lower);
  const f = boxOf(first);
  const s = boxOf(second);
  if (Math.abs(u.x - l.x) <= h) return true;
  return Math.abs(f.x + f.width / 2 - (s.x + s.width / 2)) <= h && first.length === upper.length && second.length === lower.length;
}
