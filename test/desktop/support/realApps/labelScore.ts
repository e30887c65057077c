// Scores the target locator's answers against ground truth: a point inside the label's own box
// landed; a no-click answer (not found, ambiguous, unsure) missed; a point anywhere else is a
// misclick. A text that shows more than once is "duplicated": it lands on any of its boxes, or
// is rightly answered "ambiguous" (counted as landed: the locator did the right thing).
import type { BBox } from '../../../../src/common/geometry';
import type { TargetResult } from '../../../../src/desktop/grounding/locateTypes';
import { foldGlyphs } from '../../../../src/desktop/grounding/textLocator';
import type { GroundTruthLabel } from './appWindow';

export type Outcome = 'landed' | 'missed' | 'misclicked';

export interface LabelTry {
  label: GroundTruthLabel;
  outcome: Outcome;
  /** Other boxes the same text has in the ground truth (duplicates). */
  duplicates: number;
  answer: string;
  ms: number;
}

export interface Tally {
  tried: number;
  landed: number;
  missed: number;
  misclicked: number;
  /** Labels that were duplicates among the tried. */
  duplicated: number;
  /** Duplicates answered "ambiguous" (counted in landed). */
  askedWhich: number;
  failures: LabelTry[];
}

/** Case, spacing and look-alike glyphs (− and -, × and x) folded, as the locator compares texts. */
export function foldLabel(text: string): string {
  return foldGlyphs(text).replace(/\s+/g, ' ').trim().toLowerCase();
}

export function inside(point: { x: number; y: number }, box: BBox): boolean {
  return point.x >= box.x && point.x < box.x + box.width && point.y >= box.y && point.y < box.y + box.height;
}

/** Every box each folded text has among `labels`. */
export function boxesByText(labels: readonly GroundTruthLabel[]): Map<string, BBox[]> {
  const boxes = new Map<string, BBox[]>();
  for (const label of labels) {
    const key = foldLabel(label.text);
    const list = boxes.get(key) ?? [];
    if (!list.some((b) => b.x === label.bbox.x && b.y === label.bbox.y && b.width === label.bbox.width && b.height === label.bbox.height)) list.push(label.bbox);
    boxes.set(key, list);
  }
  return boxes;
}

/** One answer judged: `sameText` are all the boxes of this text (it included). */
export function judge(result: TargetResult, label: GroundTruthLabel, sameText: readonly BBox[]): Outcome {
  // Asking which one is the right answer for a text that really shows more than once.
  if (result.status === 'ambiguous' && sameText.length > 1) return 'landed';
  if (result.status !== 'found') return 'missed';
  if (inside(result.point, label.bbox)) return 'landed';
  return sameText.some((box) => inside(result.point, box)) ? 'landed' : 'misclicked';
}

export function describeAnswer(result: TargetResult): string {
  switch (result.status) {
    case 'found':
      return `found ${result.source} "${result.text}" (${result.kind}, conf ${result.confidence.toFixed(2)}) at ${result.point.x},${result.point.y}`;
    case 'not_found':
      return `not found${result.reason ? `: ${result.reason}` : ''}`;
    case 'ambiguous':
      return `ambiguous (${result.candidates.length}: ${result.candidates.map((c) => `"${c.text}" at ${c.point.x},${c.point.y}`).join('; ')})`;
    case 'low_confidence':
      return `low confidence: ${result.reason}`;
  }
}

export function emptyTally(): Tally {
  return { tried: 0, landed: 0, missed: 0, misclicked: 0, duplicated: 0, askedWhich: 0, failures: [] };
}

export function add(tally: Tally, attempt: LabelTry): void {
  tally.tried++;
  tally[attempt.outcome]++;
  if (attempt.duplicates > 0) tally.duplicated++;
  if (attempt.duplicates > 0 && attempt.outcome === 'landed' && attempt.answer.startsWith('ambiguous')) tally.askedWhich++;
  if (attempt.outcome !== 'landed') tally.failures.push(attempt);
}

export function summary(name: string, tally: Tally): string {
  const share = tally.tried === 0 ? 0 : (100 * tally.landed) / tally.tried;
  const lines = [`${name}: ${tally.tried} labels (${tally.duplicated} duplicated), landed ${tally.landed} (${share.toFixed(1)}%; ${tally.askedWhich} of them duplicates rightly answered "ambiguous"), missed ${tally.missed}, misclicked ${tally.misclicked}`];
  for (const f of tally.failures) {
    const box = f.label.bbox;
    lines.push(`  ${f.outcome.toUpperCase()} "${f.label.text}" [${f.label.role} in ${f.label.where}] box ${box.x},${box.y} ${box.width}x${box.height}${f.duplicates ? ` (x${f.duplicates + 1})` : ''}: ${f.answer}`);
  }
  return lines.join('\n');
}
