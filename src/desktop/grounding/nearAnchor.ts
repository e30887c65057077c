import { distance, type BBox } from '../../common/geometry';
import type { Candidate } from './candidate';

// `near`: which of several matches belongs to an anchor text. In a table or a form the thing a
// label belongs to is on its line: "Edit" near "Alan Turing" is the Edit of Alan's row, even when
// the Edit of the row above has a closer centre (a wide name column, a tall button). So
// candidates on the anchor's row win, then the nearest; two equally near that the row does not
// tell apart are reported, not guessed.

/** Where the anchor text is; its box, when known, gives its row. */
export interface Anchor {
  x: number;
  y: number;
  bbox?: BBox;
}

export type NearPick = { match: Candidate } | { ambiguous: Candidate[] };

/** The anchor of a found candidate: its point and its box. */
export function anchorOf(candidate: Pick<Candidate, 'point' | 'bbox'>): Anchor {
  return { x: candidate.point.x, y: candidate.point.y, bbox: candidate.bbox };
}

/**
 * On the anchor's row: the vertical centres are closer than half the taller of the two (a
 * button beside its row's text is taller than the text, its centre on the same line).
 */
export function onAnchorRow(candidate: Candidate, anchor: Anchor): boolean {
  if (!anchor.bbox) return false;
  const half = Math.max(anchor.bbox.height, candidate.bbox.height) / 2;
  const anchorMiddle = anchor.bbox.y + anchor.bbox.height / 2;
  const middle = candidate.bbox.y + candidate.bbox.height / 2;
  return Math.abs(anchorMiddle - middle) < half;
}

/** Two distances no one could tell apart on screen. */
function tied(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(4, 0.1 * Math.min(a, b));
}

/** The candidate that belongs to the anchor, or the ones that cannot be told apart. */
export function pickNear(candidates: readonly Candidate[], anchor: Anchor): NearPick | undefined {
  if (candidates.length === 0) return undefined;
  const row = candidates.filter((c) => onAnchorRow(c, anchor));
  const pool = row.length > 0 ? row : [...candidates];
  const sorted = pool.map((c) => ({ c, d: distance(c.point, anchor) })).sort((a, b) => a.d - b.d);
  const [first, second] = sorted;
  if (second && tied(first!.d, second.d)) return { ambiguous: sorted.filter((s) => tied(first!.d, s.d)).map((s) => s.c) };
  return { match: first!.c };
}
