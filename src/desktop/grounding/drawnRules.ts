import { centreOf, containsPoint } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { OcrAnalysis } from '../ocr/ocrTypes';
import { editDistance, normalizeWord, tokenize } from './textLocator';

// A tree element asked for by a label it shows must show it: a toolbar icon whose name is only
// its tooltip loses to a menu item or a label of the same name that is drawn as text. (What an
// open popup covers is windowScene's.)

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
export async function preferShownNames<M extends { element: AccessibleElement }>(matches: M[], reading: (match: M) => Promise<OcrAnalysis | undefined>): Promise<M[]> {
  if (matches.length < 2 || !matches.some((m) => ICON_ROLES.has(m.element.role))) return matches;
  const iconOnly = new Set<M>();
  for (const match of matches) {
    if (!ICON_ROLES.has(match.element.role)) continue;
    const analysis = await reading(match);
    if (analysis && !nameReadIn(match.element, analysis)) iconOnly.add(match);
  }
  const shown = matches.filter((m) => !iconOnly.has(m));
  return shown.length > 0 && shown.length < matches.length ? shown : matches;
}
