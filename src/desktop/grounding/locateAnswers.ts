import type { WindowReading } from '../reading/screenReader';
import type { WindowInfo } from '../ports/windowPort';
import type { ElementSource } from '../screenElement';
import { containsPoint } from '../../common/geometry';
import { accessibleAnchor } from './accessibleLocator';
import type { Candidate } from './candidate';
import type { Search, TargetResult } from './locateTypes';
import { anchorOf, type Anchor } from './nearAnchor';
import { mergeSameControl } from './sameControl';
import { isShortQuery, pick } from './targetRules';
import { findCandidates, isTimesReadAsX, type LocateOptions } from './textLocator';
import { treeMentions } from './treeCoverage';
import { isActive } from './windowScene';

// How one search's findings become an answer: the rules applied after the candidates are found.

/** Turns the candidates of one source into an answer (occurrence / near / unique / ambiguous). */
export function decide(found: Candidate[], query: LocateOptions, anchor: Anchor | undefined, source: ElementSource): TargetResult {
  const candidates = mergeSameControl(found);
  const picked = pick(candidates, query, anchor);
  if (picked?.ambiguous) return { status: 'ambiguous', candidates: picked.ambiguous };
  if (picked && !picked.match) return { status: 'not_found', suggestions: [], reason: picked.reason };
  const match = picked?.match ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (!match) return { status: 'ambiguous', candidates };
  return {
    status: 'found',
    point: match.point,
    bbox: match.bbox,
    source,
    confidence: match.confidence,
    kind: match.kind,
    text: match.text,
    alternatives: candidates.length - 1,
    ...(match.ref ? { ref: match.ref } : {}),
  };
}

/**
 * One or two characters found only in a window other than the active one: the active window
 * may well show them where they could not be read (a glyph OCR misses, a digit inside a longer
 * word), so that is no place to click without asking.
 */
export function onlyElsewhere(search: Search, answer: TargetResult, where: WindowInfo | string | undefined): TargetResult {
  // Asked from the active window (a terminal): the person is not looking at a window of targets.
  if (answer.status !== 'found' || !search.scene.active || search.askerActive || !isShortQuery(search.text)) return answer;
  if (typeof where === 'object' && isActive(search.scene, where)) return answer;
  // Where the active window's tree shows all it draws, its silence means the label is not there.
  // A symbol may be drawn by a button named in words; letters and digits OCR reads where drawn.
  if (search.activeTreeComplete && (/[\p{L}\p{N}]/u.test(search.text) || !search.activeGlyphDoubt)) return answer;
  // The tree knows the active window's text and none of it has the label, nor may a button draw it.
  if (search.activeTextKnown && !search.activeGlyphDoubt && !treeMentions(search.elements, search.text)) return answer;
  // Two letters or digits OCR read nowhere in the active window, not even as a doubtful look-alike.
  if ((search.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 2 && search.activeLookAlikes === 0) return answer;
  const candidate: Candidate = { text: answer.text, bbox: answer.bbox, point: answer.point, confidence: answer.confidence, kind: answer.kind, whole: true, source: answer.source };
  const title = typeof where === 'object' ? where.title : where;
  const window = title ? `"${title}"` : 'another window';
  return { status: 'low_confidence', candidates: [candidate], reason: `"${search.text}" was found only in ${window}, not in the active window "${search.scene.active.title}"; activate that window first or click by coordinates` };
}

/** A lone x read for "×" on a key or button the tree names with a letter x (a variable key "x", "x²"): a letter, not the sign. */
export function treeSaysLetter(search: Search, candidate: Candidate): boolean {
  return isTimesReadAsX(search.text, candidate) && search.elements.some((e) => e.bbox.width <= 160 && e.bbox.height <= 64 && containsPoint(e.bbox, candidate.point) && /x/i.test(`${e.name} ${e.text ?? ''}`));
}

export function ocrAnchor(search: Search, analysis: WindowReading['analysis']): Anchor | undefined {
  const near = search.query.near;
  if (near === undefined) return undefined;
  if (typeof near !== 'string') return near;
  const found = findCandidates(analysis, near)[0];
  return found ? anchorOf(found) : accessibleAnchor(search.elements, near);
}
