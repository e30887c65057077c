import { clipBox, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo } from '../ports/windowPort';
import { isShortQuery } from './targetRules';
import { coverageKey, SKIP_OCR_COVERAGE, treeMentions, type TextCoverage } from './treeCoverage';
import { tokenize } from './textLocator';
import { charCount } from './pixelAbsence';
import type { WindowScene } from './windowScene';

// What the locator learnt about each window's tree the last time it read that window's pixels
// while it was active: how much of what it draws the tree names where it is drawn (names), how
// much of it the tree has as text at all (text: a document's words count), and the words it
// lacked. Where that is high, a window whose tree does not mention a label does not show it,
// and its pixels need not be read for that label: on a busy desktop that skips most OCR of
// windows that are not the target's, and of the active window when the label is elsewhere.

const KNOWLEDGE_LIMIT = 64;
/** Words kept per window that its tree lacked (a label among them is never taken as absent). */
const UNKNOWN_WORDS_LIMIT = 400;

/** A tree element with the window the scene placed it in, when it could tell. */
export interface OwnedElement {
  element: AccessibleElement;
  owner?: WindowInfo;
}

interface Known {
  names: number;
  text: number;
  unknown: ReadonlySet<string>;
  /** Labels shorter than this were not looked for when the window was learnt (its glyph check read only longer pieces). */
  minChars: number;
  /** Its glyph check read every glyph its tree does not account for, those of icons and glyph buttons named in words too: short labels were looked for. */
  glyphs: boolean;
}

/** How a window's tree is known to hold what the window shows: by name where drawn, or as text. */
export type TreeSilence = 'names' | 'text';

export class TreeKnowledge {
  private readonly known = new Map<string, Known>();

  remember(window: WindowInfo, names: number, text: TextCoverage): void {
    this.keep(coverageKey(window), { names, text: text.share, unknown: new Set(text.unknown.slice(0, UNKNOWN_WORDS_LIMIT)), minChars: 0, glyphs: false });
  }

  /**
   * What a glyph check of the active window taught (pixelAbsence.ts): its tree accounts for all
   * the text it draws but the pieces read, whose words are kept as unknown; it holds for labels
   * of `minChars` characters or more (shorter pieces were not read), and for short labels too
   * when it read every glyph (`glyphs`).
   */
  rememberAccounted(window: WindowInfo, read: readonly string[], minChars: number, glyphs: boolean): void {
    this.keep(coverageKey(window), { names: 1, text: 1, unknown: new Set(read.map((w) => w.toLowerCase()).slice(0, UNKNOWN_WORDS_LIMIT)), minChars, glyphs });
  }

  /** Whether what was learnt of the window can judge a label of this text, so its pixels need no check now. */
  judges(window: WindowInfo, text: string): boolean {
    const known = this.known.get(coverageKey(window));
    return known !== undefined && coversLength(known, text);
  }

  private keep(key: string, known: Known): void {
    this.known.delete(key); // most recently used last
    this.known.set(key, known);
    if (this.known.size > KNOWLEDGE_LIMIT) this.known.delete(this.known.keys().next().value!);
  }

  /**
   * Whether the window's tree (its elements here: `mine`) is known to hold what the window
   * shows and says nothing of the label, and how: then its pixels do not show the label.
   * Never for one or two characters (a glyph button's name is often a word: "−" is "Zoom out")
   * unless a glyph check read every glyph, nor when a word of the label was among those the
   * tree lacked, nor on the strength of text
   * the tree gave only in part.
   */
  silentAbout(window: WindowInfo, mine: readonly AccessibleElement[], text: string): TreeSilence | undefined {
    const known = this.known.get(coverageKey(window));
    // No element: its tree was not read this time (or not told apart), so it says nothing.
    if (!known || !coversLength(known, text) || mine.length === 0 || treeMentions(mine, text)) return undefined;
    const wanted = new Set(tokenize(text));
    if ([...known.unknown].some((word) => tokenize(word).some((t) => wanted.has(t)))) return undefined;
    if (known.names >= SKIP_OCR_COVERAGE) return 'names';
    if (known.text >= SKIP_OCR_COVERAGE && !mine.some((e) => e.textCut)) return 'text';
    return undefined;
  }

  /** Whether a window's pixels need not be read for the label (silentAbout, its elements picked from all windows'). */
  cannotShow(window: WindowInfo, elements: readonly OwnedElement[], text: string): boolean {
    return this.silentAbout(window, elementsOf(window, elements), text) !== undefined;
  }
}

/** Whether labels of this length were looked for when the window was learnt. */
function coversLength(known: Known, text: string): boolean {
  return isShortQuery(text) ? known.glyphs : charCount(text) >= known.minChars;
}

/**
 * The elements that may be the window's: those the scene placed in it, and any other of its
 * process or title (a superset, so that its silence is not taken from too few elements).
 */
export function elementsOf(window: WindowInfo, elements: readonly OwnedElement[]): AccessibleElement[] {
  const out: AccessibleElement[] = [];
  for (const { element, owner } of elements) {
    const mine = (owner !== undefined && (owner === window || (owner.id !== undefined && owner.id === window.id))) || (element.pid !== undefined && element.pid === window.pid) || (element.window?.name !== undefined && element.window.name === window.title);
    if (mine) out.push(element);
  }
  return out;
}

/** The parts of a window that windows above it in the stacking order lie over. */
export function coveringParts(scene: WindowScene, window: WindowInfo): BBox[] {
  const parts: BBox[] = [];
  for (const above of scene.windows) {
    if (above === window || (above.id !== undefined && above.id === window.id)) return parts;
    const part = clipBox(above.bounds, window.bounds);
    if (part) parts.push(part);
  }
  return []; // not in the list: what lies above it is unknown
}
