import { boxArea, centreOf, containsBox, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import { byReadingOrder, type Candidate, type MatchKind } from './candidate';
import { anchorOf, pickNear, type Anchor } from './nearAnchor';
import { editDistance, normalizeWord, tokenize, type LocateOptions, type LocateResult } from './textLocator';

// Finds an element of the accessibility tree by its label, answering like textLocator does for
// OCR words so callers treat both alike. Names are the toolkit's own strings, so there is no
// fuzzy matching: the name as written beats the name without punctuation ("Save…"), which beats
// the content of a text field, which beats a substring.

/** Lower tiers win; only candidates of the best tier present are kept. */
const Tier = { NameAsWritten: 0, NameWords: 1, TextContent: 2, NameSubstring: 3, TextSubstring: 4 } as const;
type Tier = (typeof Tier)[keyof typeof Tier];

interface Scored {
  element: AccessibleElement;
  label: string;
  tier: Tier;
}

/** Shorter queries would match inside almost any label ("+" in "M+", "7" in "1.7"). */
const MIN_SUBSTRING_LENGTH = 2;
const NESTING_SLACK_PX = 2;

export function locateAccessible(elements: readonly AccessibleElement[], query: string, options: LocateOptions = {}): LocateResult {
  if (tokenize(query).length === 0) return { status: 'not_found', suggestions: [], reason: 'the text to find is empty' };
  const candidates = findAccessibleCandidates(elements, query);
  if (candidates.length === 0) return { status: 'not_found', suggestions: suggestions(elements, query) };
  if (options.occurrence !== undefined) {
    const match = candidates[options.occurrence - 1];
    if (!match) {
      return { status: 'not_found', suggestions: [], reason: `"${query}" appears ${candidates.length} time(s) in the accessibility tree; occurrence ${options.occurrence} does not exist` };
    }
    return { status: 'found', match, alternatives: candidates.length - 1 };
  }
  if (options.near !== undefined) {
    const found = typeof options.near === 'string' ? findAccessibleCandidates(elements, options.near)[0] : undefined;
    const anchor = typeof options.near === 'string' ? found && anchorOf(found) : options.near;
    if (!anchor) {
      const near = String(options.near);
      return { status: 'not_found', suggestions: suggestions(elements, near), reason: `the anchor "${near}" is not in the accessibility tree` };
    }
    const near = pickNear(candidates, anchor)!;
    return 'match' in near ? { status: 'found', match: near.match, alternatives: candidates.length - 1 } : { status: 'ambiguous', candidates: near.ambiguous };
  }
  if (candidates.length === 1) return { status: 'found', match: candidates[0]!, alternatives: 0 };
  return { status: 'ambiguous', candidates };
}

/** All elements matching at the best tier present, outermost of nested ones, in reading order. */
export function findAccessibleCandidates(elements: readonly AccessibleElement[], query: string): Candidate[] {
  return findAccessibleMatches(elements, query).map((m) => m.candidate);
}

/** An element of the tree that matches, with the candidate it makes (callers need its window). */
export interface AccessibleMatch {
  candidate: Candidate;
  element: AccessibleElement;
}

/** Where the element named exactly `near` is, for `near` (undefined when the tree names none). */
export function accessibleAnchor(elements: readonly AccessibleElement[], near: string): Anchor | undefined {
  const match = findAccessibleMatches(elements, near).find((m) => m.candidate.kind === 'exact');
  return match && anchorOf(match.candidate);
}

/** Like findAccessibleCandidates, keeping each candidate's element. */
export function findAccessibleMatches(elements: readonly AccessibleElement[], query: string): AccessibleMatch[] {
  const scored = elements.map((element) => score(element, query)).filter((s): s is Scored => s !== undefined);
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map((s) => s.tier));
  const tier = scored.filter((s) => s.tier === best);
  const kept = outermost(tier);
  return kept
    .map((s) => ({ candidate: { ...toCandidate(s), point: innermostCentre(s, tier) }, element: s.element }))
    .sort((a, b) => byReadingOrder(a.candidate, b.candidate));
}

/**
 * Where to click in an outer match: the centre of the smallest match nested in it (the text
 * itself). A table cell or list row is often far wider than its left-aligned text; a point on
 * the text is inside both.
 */
function innermostCentre(outer: Scored, matches: Scored[]): { x: number; y: number } {
  let inner = outer;
  for (const m of matches) {
    if (m !== outer && nested(m.element.bbox, outer.element.bbox) && boxArea(m.element.bbox) < boxArea(inner.element.bbox) && boxArea(m.element.bbox) > 0) inner = m;
  }
  return centreOf(inner.element.bbox);
}

/** Elements kept for the text they show alone: a paragraph as a whole is no place to click (a word of it is: textBoxes). */
const TEXT_ONLY_ROLES = new Set(['paragraph']);

function score(element: AccessibleElement, query: string): Scored | undefined {
  if (TEXT_ONLY_ROLES.has(element.role) && !element.name) return undefined;
  const rawQuery = plain(query);
  const words = tokenize(query).join(' ');
  const name = element.name;
  const text = element.text ?? '';
  if (name && plain(name) === rawQuery) return { element, label: name, tier: Tier.NameAsWritten };
  if (name && tokenize(name).join(' ') === words) return { element, label: name, tier: Tier.NameWords };
  if (text && (plain(text) === rawQuery || tokenize(text).join(' ') === words)) return { element, label: text, tier: Tier.TextContent };
  if (rawQuery.length < MIN_SUBSTRING_LENGTH) return undefined;
  if (name && contains(name, rawQuery, words)) return { element, label: name, tier: Tier.NameSubstring };
  if (text && contains(text, rawQuery, words)) return { element, label: text, tier: Tier.TextSubstring };
  return undefined;
}

function contains(label: string, rawQuery: string, words: string): boolean {
  return plain(label).includes(rawQuery) || (words !== '' && tokenize(label).join(' ').includes(words));
}

/** Case, width variants and runs of spaces ignored; punctuation kept. */
function plain(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A label inside a button or tab that has the same name is one target, not two: keep the
 * outer element, which is the one that takes the click.
 */
function outermost(matches: Scored[]): Scored[] {
  const byArea = [...matches].sort((a, b) => boxArea(b.element.bbox) - boxArea(a.element.bbox));
  const kept: Scored[] = [];
  for (const match of byArea) {
    if (!kept.some((outer) => nested(match.element.bbox, outer.element.bbox))) kept.push(match);
  }
  return kept;
}

/** Toolkits box a label a pixel or two past its button's edge: still inside it. */
function nested(inner: BBox, outer: BBox): boolean {
  return containsBox(outer, inner, NESTING_SLACK_PX);
}

function toCandidate(match: Scored): Candidate {
  const { bbox } = match.element;
  const exact = match.tier <= Tier.TextContent;
  const kind: MatchKind = exact ? 'exact' : 'substring';
  return {
    text: match.label,
    bbox,
    point: centreOf(bbox),
    // The toolkit's own string: nothing was recognized, so nothing is uncertain.
    confidence: 1,
    kind,
    whole: exact,
    source: 'accessibility',
    ...(match.element.ref ? { ref: match.element.ref } : {}),
  };
}

function suggestions(elements: readonly AccessibleElement[], query: string): string[] {
  const q = normalizeWord(query);
  const names = [...new Set(elements.map((e) => e.name).filter(Boolean))];
  return names
    .map((name) => ({ name, d: editDistance(normalizeWord(name), q) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(q.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 5)
    .map((x) => x.name);
}
