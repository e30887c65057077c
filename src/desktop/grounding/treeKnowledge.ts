import { clipBox, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo } from '../ports/windowPort';
import { isShortQuery } from './targetRules';
import { coverageKey, SKIP_OCR_COVERAGE, treeMentions } from './treeCoverage';
import type { WindowScene } from './windowScene';

// What the locator learnt about each window's tree the last time it read that window's pixels
// while it was active: how much of what it draws the tree names where it is drawn (coverage).
// Where that is high, a window whose tree does not mention a label does not show it, and its
// pixels need not be read for that label: on a busy desktop that skips most OCR of windows
// that are not the target's. (A text view's document does not count: the tree has its text,
// cut to a length, but not what part of it shows.)

const KNOWLEDGE_LIMIT = 64;

/** A tree element with the window the scene placed it in, when it could tell. */
export interface OwnedElement {
  element: AccessibleElement;
  owner?: WindowInfo;
}

export class TreeKnowledge {
  private readonly known = new Map<string, number>();

  remember(window: WindowInfo, coverage: number): void {
    const key = coverageKey(window);
    this.known.delete(key); // most recently used last
    this.known.set(key, coverage);
    if (this.known.size > KNOWLEDGE_LIMIT) this.known.delete(this.known.keys().next().value!);
  }

  /** The share of the window's words its tree names where they are drawn; 0 when never measured. */
  coverage(window: WindowInfo): number {
    return this.known.get(coverageKey(window)) ?? 0;
  }

  /**
   * Whether the window's tree is known to name what it draws where it draws it, and none of its
   * elements mentions the label: then its pixels do not show the label.
   * Never for one or two characters (a glyph button's name is often a word: "−" is "Zoom out"),
   * nor for a window of unknown extent.
   */
  cannotShow(window: WindowInfo, elements: readonly OwnedElement[], text: string): boolean {
    if (isShortQuery(text)) return false;
    if (this.coverage(window) < SKIP_OCR_COVERAGE) return false;
    const mine = elementsOf(window, elements);
    // No element found for it: its tree was not read this time (or not told apart), so it says nothing.
    return mine.length > 0 && !treeMentions(mine, text);
  }
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
