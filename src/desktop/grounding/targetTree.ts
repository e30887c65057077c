import { boxGap } from '../../common/geometry';
import { findAccessibleMatches, type AccessibleMatch } from './accessibleLocator';
import type { AccessibilityPort, AccessibleElement } from '../ports/accessibilityPort';
import type { ScreenImage } from '../ports/screenPort';
import type { WindowInfo } from '../ports/windowPort';
import type { OcrAnalysis } from '../ocr/ocrTypes';
import { preferShownNames } from './drawnRules';
import type { OwnedElement } from './treeKnowledge';
import { isActive, isDialogElement, isPopupElement, type WindowScene } from './windowScene';

// Rules for the accessibility tree's answers: which of several equal labels a person means,
// and whether the pixels show anything where the tree says a label is.

export interface TreeMatch extends AccessibleMatch {
  owner?: WindowInfo;
}

/**
 * The tree's matches of the text: its elements by name (or a field's content), else the text
 * inside the text its paragraphs and editors show, each occurrence boxed by the toolkit (a word
 * has no element of its own). `keep`: what of the words found is usable (not covered, not in a
 * private window), as for the elements.
 */
export async function treeMatches(
  tree: AccessibilityPort,
  usable: readonly OwnedElement[],
  text: string,
  options: { activeOnly: boolean; signal?: AbortSignal },
  keep: (elements: AccessibleElement[]) => OwnedElement[],
): Promise<TreeMatch[]> {
  const named = ownedMatches(usable, text);
  if (named.some((m) => m.candidate.kind === 'exact') || !tree.textBoxes) return named;
  const wanted = text.normalize('NFKC').trim().toLowerCase();
  if (!usable.some(({ element }) => element.text?.normalize('NFKC').toLowerCase().includes(wanted))) return named;
  let words: AccessibleElement[];
  try {
    words = await tree.textBoxes(text, { activeWindowOnly: options.activeOnly, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return named; // the words stay OCR's to find
  }
  return [...named, ...ownedMatches(keep(words), text).filter((m) => m.candidate.kind === 'exact')];
}

function ownedMatches(usable: readonly OwnedElement[], text: string): TreeMatch[] {
  return findAccessibleMatches(
    usable.map((u) => u.element),
    text,
  ).map((m) => ({ ...m, owner: usable.find((u) => u.element === m.element)?.owner }));
}

/**
 * A label that exists twice (a "Save" in a toolbar and in a dialog): an open popup menu first
 * (it is drawn over everything and was opened last), then the focused window, then a dialog.
 * Each narrowing applies only when it leaves some matches out; what remains may still be
 * several, and then the caller asks.
 */
export function preferOnTop(matches: TreeMatch[], scene: WindowScene): TreeMatch[] {
  let kept = matches;
  const narrow = (test: (m: TreeMatch) => boolean): void => {
    const some = kept.filter(test);
    if (some.length > 0 && some.length < kept.length) kept = some;
  };
  if (kept.length > 1) narrow((m) => isPopupElement(m.element));
  if (kept.length > 1) narrow((m) => m.element.window?.active === true || isActive(scene, m.owner));
  if (kept.length > 1) narrow((m) => isDialogElement(m.element, m.owner));
  if (kept.length > 1) kept = labelOverField(kept);
  if (kept.length > 1) kept = controlOverText(kept);
  return kept;
}

/** preferOnTop, then icon-only buttons lose to the same name drawn as text (`reading`: OCR of a match's window). */
export async function drawnOnTop(matches: TreeMatch[], scene: WindowScene, reading: (match: TreeMatch) => Promise<OcrAnalysis | undefined>): Promise<TreeMatch[]> {
  return preferShownNames(preferOnTop(matches, scene), reading);
}

/** Roles that show a text, and roles of fields that take their accessible name from such a text. */
const TEXT_ROLES = new Set(['label', 'static', 'heading', 'paragraph', 'caption']);
const FIELD_ROLES = new Set(['combo box', 'entry', 'text', 'spin button', 'check box', 'radio button', 'password text', 'list box', 'slider']);
/** Roles of what a click is for: it does something. */
const CONTROL_ROLES = new Set(['push button', 'toggle button', 'menu item', 'check menu item', 'radio menu item', 'link', 'page tab', 'check box', 'radio button']);

/**
 * A field named after the label beside it ("Billing cycle" the label, "Billing cycle" the
 * select it names) is one target with the label: the text the person reads is the one asked for,
 * and clicking a label focuses its field anyway.
 */
function labelOverField(matches: TreeMatch[]): TreeMatch[] {
  const texts = matches.filter((m) => TEXT_ROLES.has(m.element.role));
  const fields = matches.filter((m) => FIELD_ROLES.has(m.element.role));
  if (texts.length !== 1 || fields.length === 0 || texts.length + fields.length !== matches.length) return matches;
  const label = texts[0]!.element.bbox;
  return fields.every((f) => boxGap(f.element.bbox, label) <= 2 * Math.max(label.height, 12) + 16) ? texts : matches;
}

/**
 * A key and static text of one name of digits or signs (a calculator's "=" or "4" key and the
 * "=" or "4" its history shows): the key is what a click is for. Only where every match is one
 * or the other. A name in words may be an icon's tooltip, never drawn: drawnRules judges those.
 */
function controlOverText(matches: TreeMatch[]): TreeMatch[] {
  if (matches.some((m) => /\p{L}/u.test(m.element.name))) return matches;
  const controls = matches.filter((m) => CONTROL_ROLES.has(m.element.role));
  if (controls.length === 0 || controls.length === matches.length) return matches;
  return matches.every((m) => CONTROL_ROLES.has(m.element.role) || TEXT_ROLES.has(m.element.role)) ? controls : matches;
}

/** True when no channel varies by more than `tolerance` across the image: nothing drawn. */
export function isBlank(image: ScreenImage, tolerance: number): boolean {
  const data = image.data;
  if (data.length < 4) return true;
  const r = data[0]!;
  const g = data[1]!;
  const b = data[2]!;
  for (let i = 4; i < data.length; i += 4) {
    if (Math.abs(data[i]! - r) > tolerance || Math.abs(data[i + 1]! - g) > tolerance || Math.abs(data[i + 2]! - b) > tolerance) return false;
  }
  return true;
}
