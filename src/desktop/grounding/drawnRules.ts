import { centreOf, containsPoint, sameBox, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo } from '../ports/windowPort';
import type { OcrAnalysis } from '../ocr/ocrTypes';
import { editDistance, normalizeWord, tokenize } from './textLocator';
import type { TreeMatch } from './targetTree';

// A tree element is a candidate only where a person sees it drawn: not under an open popup it
// is not part of (a Qt menu is no top-level window, so the window stacking cannot tell), and,
// for a label asked by its text, with that text on screen rather than only in a tooltip.

/**
 * The boxes of the open popups the elements are drawn in, each once. A "popup" with the box of a
 * managed window (`windows`, from the window manager's list) is a normal window that calls
 * itself one: the stacking order already says what it covers.
 */
export function popupCovers(elements: readonly AccessibleElement[], windows: readonly WindowInfo[] = []): BBox[] {
  const covers: BBox[] = [];
  const managed = (box: BBox): boolean => windows.some((w) => Math.abs(w.bounds.x - box.x) <= 2 && Math.abs(w.bounds.y - box.y) <= 2 && Math.abs(w.bounds.width - box.width) <= 2 && Math.abs(w.bounds.height - box.height) <= 2);
  for (const element of elements) {
    for (const box of element.popups ?? []) if (!covers.some((c) => sameBox(c, box)) && !managed(box)) covers.push(box);
  }
  return covers;
}

/** Whether an open popup that the element is not drawn in lies over its centre. */
export function underPopup(element: AccessibleElement, covers: readonly BBox[]): boolean {
  const centre = centreOf(element.bbox);
  return covers.some((cover) => containsPoint(cover, centre) && !(element.popups ?? []).some((own) => sameBox(own, cover)));
}

/** The elements no open popup they are not part of lies over. */
export function uncovered(elements: readonly AccessibleElement[], windows: readonly WindowInfo[] = []): AccessibleElement[] {
  const covers = popupCovers(elements, windows);
  return covers.length === 0 ? [...elements] : elements.filter((e) => !underPopup(e, covers));
}

/** Roles that often show an icon alone and carry their name as a tooltip. */
const ICON_ROLES = new Set(['push button', 'toggle button', 'menu button', 'split button']);

/** Whether OCR read the element's name (one misread letter allowed a word) inside its box. */
export function nameReadIn(element: AccessibleElement, analysis: OcrAnalysis): boolean {
  const wanted = tokenize(element.name).map(normalizeWord).filter((t) => t.length > 0);
  if (wanted.length === 0) return false;
  const read = analysis.elements
    .filter((e) => e.level === 'word' && containsPoint(element.bbox, centreOf(e.bbox)))
    .flatMap((e) => tokenize(e.text).map(normalizeWord));
  return wanted.some((w) => read.some((r) => r === w || (w.length >= 4 && editDistance(r, w) <= 1)));
}

/**
 * Several elements named alike: a button showing only an icon (OCR reads no such name in its
 * box) loses to those whose name is drawn as text (a menu item, a label, a button with its
 * text). `reading` gives the OCR of the window a match is in, or undefined where it cannot be
 * read; a match that cannot be judged is kept. Only ever narrows; all icons stay all icons.
 */
export async function preferShownNames(matches: TreeMatch[], reading: (match: TreeMatch) => Promise<OcrAnalysis | undefined>): Promise<TreeMatch[]> {
  if (matches.length < 2 || !matches.some((m) => ICON_ROLES.has(m.element.role))) return matches;
  const iconOnly = new Set<TreeMatch>();
  for (const match of matches) {
    if (!ICON_ROLES.has(match.element.role)) continue;
    const analysis = await reading(match);
    if (analysis && !nameReadIn(match.element, analysis)) iconOnly.add(match);
  }
  const shown = matches.filter((m) => !iconOnly.has(m));
  return shown.length > 0 && shown.length < matches.length ? shown : matches;
}
