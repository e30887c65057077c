import { containsPoint, overlapRatio } from '../../common/geometry';
import type { Candidate } from './candidate';
import { tokenize } from './textLocator';

// One control found twice is one candidate: a link "‹ Previous" read as "< Previous" and as
// "Previous", or named by the tree and read by OCR at the same place. Boxes that mostly overlap
// with texts of which one holds the other's words are the same control; overlapping boxes with
// unrelated texts are left as they are, so the caller says it cannot tell them apart.

/** Share of the smaller box the two must share to be one control. */
const SAME_PLACE = 0.5;

export function sameControl(a: Candidate, b: Candidate): boolean {
  if (overlapRatio(a.bbox, b.bbox) < SAME_PLACE) return false;
  const ta = tokenize(a.text);
  const tb = tokenize(b.text);
  const [short, long] = ta.length <= tb.length ? [ta, tb] : [tb, ta];
  if (short.length === 0) return false;
  // Words of one inside the other's, in order and side by side ("previous" in "< previous").
  for (let i = 0; i + short.length <= long.length; i++) if (short.every((w, k) => long[i + k] === w)) return true;
  return false;
}

/**
 * Candidates with each control once, in the given order: the first of a group stands for it
 * (callers sort best first), clicked where it and the others agree when they do.
 */
export function mergeSameControl(candidates: readonly Candidate[]): Candidate[] {
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    const index = kept.findIndex((k) => sameControl(k, candidate));
    if (index < 0) {
      kept.push(candidate);
      continue;
    }
    // Keep the kept one, but where its point falls outside the other's box and the other's
    // point is inside both, the other's point is on the shared text.
    const first = kept[index]!;
    if (!containsPoint(candidate.bbox, first.point) && containsPoint(first.bbox, candidate.point)) kept[index] = { ...first, point: candidate.point };
    // The tree's element of the control, read by OCR first, can still be pressed.
    if (first.ref === undefined && candidate.ref !== undefined) kept[index] = { ...kept[index]!, ref: candidate.ref };
  }
  return kept;
}
