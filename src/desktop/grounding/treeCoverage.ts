import { centreOf, containsPoint, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo } from '../ports/windowPort';
import type { WindowReading } from '../reading/screenReader';
import { tokenize } from './textLocator';

// How far a window's accessibility tree holds what its pixels show, judged against an OCR
// reading of the window: where it does, the tree's silence about a label is an answer.

/** Share of the window's confidently read words that lie on a tree element, at least this: the tree is complete. */
export const TREE_COVERAGE = 0.6;
/** Stricter, to skip reading the active window's pixels on the strength of an earlier reading. */
export const SKIP_OCR_COVERAGE = 0.85;
const COVERAGE_MIN_WORDS = 5;

/** Longest name, and longest text content, (in words) that the tree can answer for as a whole: a document's words have no boxes of their own. */
const NAMED_ELEMENT_MAX_WORDS = 12;
const TEXT_ELEMENT_MAX_WORDS = 4;

/**
 * The share of the window's confidently read words that the tree names where they are drawn (an
 * element under the word whose short name has it); 0 with too few words to tell. A text view
 * around a whole document covers no word: the tree cannot say where each one is.
 */
export function treeCoverage(analysis: WindowReading['analysis'], elements: readonly AccessibleElement[], bounds: BBox): number {
  if (elements.length === 0) return 0;
  const words = confidentWords(analysis, bounds);
  if (words.length < COVERAGE_MIN_WORDS) return 0;
  const named = elements.flatMap((e) => {
    const name = tokenize(e.name);
    const text = tokenize(e.text ?? '');
    const labels = [...(name.length <= NAMED_ELEMENT_MAX_WORDS ? [name] : []), ...(text.length <= TEXT_ELEMENT_MAX_WORDS ? [text] : [])];
    return labels.filter((tokens) => tokens.length > 0).map((tokens) => ({ bbox: e.bbox, tokens }));
  });
  const covered = words.filter((w) => {
    const tokens = tokenize(w.text);
    return named.some((e) => containsPoint(e.bbox, centreOf(w.bbox)) && tokens.every((t) => e.tokens.includes(t)));
  }).length;
  return covered / words.length;
}

/** The words OCR read surely in the window, two characters or more: what the coverages count. */
function confidentWords(analysis: WindowReading['analysis'], bounds: BBox): WindowReading['analysis']['elements'] {
  return analysis.elements.filter((e) => e.level === 'word' && e.confidence >= 0.8 && e.text.trim().length >= 2 && containsPoint(bounds, centreOf(e.bbox)));
}

/** Largest side of an element that may draw a lone glyph (a toolbar or keypad button). */
const GLYPH_ELEMENT_MAX_SIDE = 64;

export function mayDrawUnnamedGlyphs(analysis: WindowReading['analysis'], elements: readonly AccessibleElement[], bounds: BBox): boolean {
  return elements.some((e) => {
    if (e.bbox.width > GLYPH_ELEMENT_MAX_SIDE || e.bbox.height > GLYPH_ELEMENT_MAX_SIDE || !containsPoint(bounds, centreOf(e.bbox))) return false;
    const name = tokenize(e.name);
    if (name.length === 0) return false; // an unnamed element is no tree answer to be silent about
    const read = analysis.elements.filter((w) => w.level === 'word' && containsPoint(e.bbox, centreOf(w.bbox))).flatMap((w) => tokenize(w.text));
    return !name.every((t) => read.includes(t));
  });
}

/** A window's content is taken to be the same while its id and title are. */
export function coverageKey(window: WindowInfo): string {
  return `${window.id ?? window.appName}|${window.title}`;
}

/** How far the tree has, as text, what a window shows; and the words it lacks. */
export interface TextCoverage {
  /** The share of the confidently read words the tree has as text where they are drawn; 0 with too few words to tell. */
  share: number;
  /** The words read (lower case) that no element under them has: what the tree cannot answer for. */
  unknown: string[];
}

/**
 * How far the tree has as text what the window shows: the words OCR read confidently that the
 * name or the text content of an element under them has, however long (a text view's document
 * counts). Where it is high, the tree knows what the window shows, if not where.
 */
export function treeTextCoverage(analysis: WindowReading['analysis'], elements: readonly AccessibleElement[], bounds: BBox): TextCoverage {
  if (elements.length === 0) return { share: 0, unknown: [] };
  const words = confidentWords(analysis, bounds);
  if (words.length < COVERAGE_MIN_WORDS) return { share: 0, unknown: [] };
  const unknown = words
    .map((w) => ({ at: centreOf(w.bbox), word: w.text.trim().toLowerCase() }))
    .filter(({ at, word }) => !elements.some((e) => containsPoint(e.bbox, at) && `${e.name}\n${e.text ?? ''}`.toLowerCase().includes(word)));
  return { share: (words.length - unknown.length) / words.length, unknown: [...new Set(unknown.map((u) => u.word))] };
}

/** Whether any of the elements has the text in its name or its text content. */
export function treeMentions(elements: readonly AccessibleElement[], text: string): boolean {
  const wanted = text.normalize('NFKC').trim().toLowerCase();
  return elements.some((e) => `${e.name}\n${e.text ?? ''}`.normalize('NFKC').toLowerCase().includes(wanted));
}
