// The real-app tests' scoreboard: every label asked of the target locator, tallied per app
// (landed, missed, misclicked: labelScore.ts judges each answer) and held to the goal, or to what
// holds now where a test says so. One place, so every toolkit's test scores alike.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import type { TargetResult } from '../../../../src/desktop/grounding/locateTypes';
import type { GroundTruthLabel } from './appWindow';
import { add, boxesByText, describeAnswer, emptyTally, foldLabel, judge, summary, type Tally } from './labelScore';

export interface LabelFloor {
  /** Share of labels that must land, 0..1. */
  landed: number;
  misclicks: number;
}

/** Issue 10's and 19's goal for every app: >= 98% landed and no misclick. */
export const LABEL_GOAL: LabelFloor = { landed: 0.98, misclicks: 0 };

export class LabelBoard {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly locate: (text: string) => Promise<TargetResult>,
    /** Floors below the goal for the named tallies, each with the reason in its test. */
    private readonly holdsNow: Record<string, LabelFloor> = {},
  ) {}

  /** Asks the locator for every label; `context` are the app's other labels (duplicates of the same text land on any). */
  async tryLabels(name: string, labels: readonly GroundTruthLabel[], context: readonly GroundTruthLabel[] = []): Promise<Tally> {
    const tally = this.tally(name);
    const boxes = boxesByText([...labels, ...context]);
    for (const label of labels) {
      const sameText = boxes.get(foldLabel(label.text)) ?? [label.bbox];
      const started = performance.now();
      const result = await this.locate(label.text);
      add(tally, { label, outcome: judge(result, label, sameText), duplicates: sameText.length - 1, answer: describeAnswer(result), ms: performance.now() - started });
    }
    return tally;
  }

  /** The tally of that name, undefined when no label was asked under it. */
  find(name: string): Tally | undefined {
    return this.tallies.get(name);
  }

  tally(name: string): Tally {
    const tally = this.tallies.get(name) ?? emptyTally();
    this.tallies.set(name, tally);
    return tally;
  }

  /** Prints the tally with its failures and asserts its floor (the goal unless one is given or holds now). */
  check(name: string, options: { floor?: LabelFloor; minLabels?: number } = {}): void {
    const tally = this.tally(name);
    console.log(summary(name, tally));
    const minLabels = options.minLabels ?? 10;
    assert.ok(tally.tried >= minLabels, `${name}: only ${tally.tried} labels in the ground truth`);
    const floor = options.floor ?? this.holdsNow[name] ?? LABEL_GOAL;
    assert.ok(tally.misclicked <= floor.misclicks, `${name}: ${tally.misclicked} misclicks (a point outside the label's box), at most ${floor.misclicks}:\n${summary(name, tally)}`);
    const share = tally.landed / tally.tried;
    assert.ok(share >= floor.landed, `${name}: ${(100 * share).toFixed(1)}% landed, floor ${100 * floor.landed}%:\n${summary(name, tally)}`);
  }

  /** One line per tally, for the end of a suite. */
  printTotals(): void {
    for (const [name, tally] of this.tallies) console.log(`      ${summary(name, tally).split('\n')[0]}`);
  }
}

/** The programs of `programs` not on PATH (the suite skips, naming them). */
export function missingPrograms(programs: readonly string[]): string[] {
  return programs.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
}
