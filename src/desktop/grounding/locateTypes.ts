import type { BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo } from '../ports/windowPort';
import type { ElementSource } from '../screenElement';
import type { Candidate, MatchKind } from './candidate';
import type { Trace } from './locateTrace';
import type { Anchor } from './nearAnchor';
import type { TreeMatch } from './targetTree';
import type { LocateOptions } from './textLocator';
import type { OwnedElement } from './treeKnowledge';
import type { WindowScene } from './windowScene';

// What the target locator is asked and answers, and the state of one search (targetLocator.ts).

export type TargetResult =
  | { status: 'found'; point: { x: number; y: number }; bbox: BBox; source: ElementSource; confidence: number; kind: MatchKind; text: string; alternatives: number; ref?: string }
  | { status: 'not_found'; suggestions: string[]; reason?: string }
  | { status: 'ambiguous'; candidates: Candidate[] }
  | { status: 'low_confidence'; candidates: Candidate[]; reason: string };

export interface TargetQuery extends LocateOptions {
  signal?: AbortSignal;
  /** false: OCR only (bench comparison); default true. */
  accessibility?: boolean;
}

/** The state of one locate() call. */
export interface Search {
  text: string;
  query: TargetQuery;
  scene: WindowScene;
  trace: Trace;
  doubtful: Candidate[];
  /** Tree answers whose box shows nothing: not clicked, unless the pixels agree elsewhere. */
  blank: Candidate[];
  /** Tree matches inside longer names, the last resort. */
  weak: TreeMatch[];
  /** OCR matches that are not exact but clickable: a tree exact answer still beats them. */
  inexact?: { candidates: Candidate[]; anchor?: Anchor };
  suggestions: Set<string>;
  privateWindows: Set<string>;
  /** Tree elements that may be used, for anchors and secret fields. */
  elements: AccessibleElement[];
  /** The usable elements of all windows' trees (once read), with their windows. */
  allOwned?: OwnedElement[];
  /** The active window's tree holds what its pixels show (most words OCR read lie on its elements). */
  activeTreeComplete?: boolean;
  /** The active window has small named elements whose names OCR did not read: glyph buttons named in words, maybe. */
  activeGlyphDoubt?: boolean;
  /** The active window's tree has, as text, what the window shows (a text view's document included). */
  activeTextKnown?: boolean;
  /** Readings like the label in the active window's pixels (fuzzy, partial or unsure). */
  activeLookAlikes?: number;
  /** The active window is the one GAI was asked from (the terminal): it is looked past, as the asker's other windows are. */
  askerActive: boolean;
  /** The asker's windows on the screen, for the reason when nothing is found. */
  askers: WindowInfo[];
}
