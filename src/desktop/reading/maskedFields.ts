import { centreY, union, type BBox } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from '../ocr/ocrTypes';

// Secret fields on screens without an accessibility tree (Tk, games, remote desktops): a
// password entry shows its text as a row of mask glyphs, which OCR reads as runs of odd words.
// Measured on the Tk fixture (show="•", tesseract.js through LayeredOcr): every bullet came
// back as its own "." word, 4x4 px, 8 px apart; other engines read "eeee", "*****", "°°°°",
// "oooo", "@@@@" or the bullets themselves.

/** Characters a mask glyph is read as. A word made only of these may be part of a masked field. */
const MASK_CHARS = new Set(['•', '●', '∙', '·', '⋅', '◦', '○', '*', '°', '.', 'o', 'O', '0', 'e', '@', '®', '©']);
/** Glyphs that are almost never anything but a masked field, even without a label next to them. */
const STRONG_CHARS = new Set(['•', '●', '∙', '⋅', '◦', '*']);
/** Fewer glyphs than this is ordinary punctuation ("...", "o.") rather than a field. */
const MIN_RUN_GLYPHS = 3;
const MIN_STRONG_GLYPHS = 4;
/** What a label of a secret field says (whole words, case-insensitive). */
export const SECRET_LABEL = /\b(pass(?:word|phrase|code)s?|passwort|pin|secret|kennwort|contrase(?:ñ|n)a|mot de passe)\b/i;

/** How far from its label a field may start: right of it on the same row, or under it. */
const MAX_RIGHT_GAP = 420;
const MAX_BELOW_GAP = 60;

/**
 * Boxes (screen pixels) of runs of mask glyphs that are masked fields: next to (right of, or
 * below) a label naming a password, passphrase, PIN or secret, or made of unmistakable bullets.
 */
export function findMaskedFields(analysis: OcrAnalysis): BBox[] {
  const words = analysis.elements.filter((e) => e.level === 'word');
  const lines = analysis.elements.filter((e) => e.level === 'line');
  // Lines as well as words: an engine may give only one of the two levels.
  const labels = [...words, ...lines].filter((e) => SECRET_LABEL.test(e.text));
  const runs = maskRuns(words.length ? words : lines);
  return runs.filter((run) => run.strong >= MIN_STRONG_GLYPHS || labels.some((label) => besideLabel(label.bbox, run.bbox))).map((run) => run.bbox);
}

interface MaskRun {
  bbox: BBox;
  glyphs: number;
  strong: number;
}

/** Adjacent mask-only words on one row, merged; runs shorter than MIN_RUN_GLYPHS are left out. */
function maskRuns(elements: OcrElement[]): MaskRun[] {
  const masks = elements.filter((e) => isMaskWord(e.text)).sort((a, b) => a.bbox.x - b.bbox.x);
  const runs: Array<{ boxes: BBox[]; glyphs: number; strong: number }> = [];
  for (const element of masks) {
    const text = element.text.trim();
    const glyphs = [...text].length;
    const strong = [...text].filter((c) => STRONG_CHARS.has(c)).length;
    const run = runs.find((r) => continues(r.boxes.at(-1)!, element.bbox));
    if (run) {
      run.boxes.push(element.bbox);
      run.glyphs += glyphs;
      run.strong += strong;
    } else {
      runs.push({ boxes: [element.bbox], glyphs, strong });
    }
  }
  return runs.filter((r) => r.glyphs >= MIN_RUN_GLYPHS).map((r) => ({ bbox: union(r.boxes), glyphs: r.glyphs, strong: r.strong }));
}

export function isMaskWord(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length > 0 && [...trimmed].every((c) => MASK_CHARS.has(c));
}

/** `next` follows `last` on the same row, with no more than a few glyphs' width between them. */
function continues(last: BBox, next: BBox): boolean {
  const height = Math.max(last.height, next.height, 4);
  const sameRow = Math.abs(centreY(last) - centreY(next)) <= height;
  const gap = next.x - (last.x + last.width);
  return sameRow && gap >= -2 && gap <= Math.max(12, 3 * height);
}

function besideLabel(label: BBox, field: BBox): boolean {
  const rowSlack = Math.max(label.height, field.height);
  const right = field.x >= label.x + label.width - 2 && field.x - (label.x + label.width) <= MAX_RIGHT_GAP && Math.abs(centreY(label) - centreY(field)) <= rowSlack;
  const belowGap = field.y - (label.y + label.height);
  const below = belowGap >= -2 && belowGap <= MAX_BELOW_GAP && field.x >= label.x - 40 && field.x <= label.x + label.width + 200;
  return right || below;
}
