import type { PixelCoordinate } from '../../common/geometry';
import type { ElementSource, ScreenElement } from '../screenElement';

// What a search for a label found: an element of OCR or of the accessibility tree, why it
// matched, and where a click on it lands. Both locators answer in these, so the rules that
// pick among them (targetRules, targetLocator) treat both sources alike.

/** How the label matched what was read: the label itself, a part of a longer text, or a near miss (OCR only). */
export type MatchKind = 'exact' | 'substring' | 'fuzzy';

export interface Candidate extends ScreenElement {
  /** The text that matched (the OCR words, or the element's name or text). */
  text: string;
  /** Where to click: the middle of the matched text, which may be inside the box rather than its centre (a wide table cell's left-aligned text, a part of a word). */
  point: PixelCoordinate;
  /** 0.0 to 1.0; 1 for the tree's names (nothing was recognized, so nothing is uncertain). */
  confidence: number;
  kind: MatchKind;
  /** The match is a whole label (all the words of its group), not words inside a longer one. */
  whole: boolean;
  source: ElementSource;
  /** The tree element's handle (AccessibilityPort.perform): it can be pressed without the pointer. */
  ref?: string;
}

/** Top to bottom, left to right; candidates on one row (their points within half a height) by x. */
export function byReadingOrder(a: Candidate, b: Candidate): number {
  const sameRow = Math.abs(a.point.y - b.point.y) < Math.min(a.bbox.height, b.bbox.height) / 2;
  return sameRow ? a.point.x - b.point.x : a.point.y - b.point.y;
}
