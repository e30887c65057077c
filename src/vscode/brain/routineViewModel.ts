// The routines as the brain view lists them (no vscode import, unit-tested): each step in words
// with its toggles, the replays' proposals under their steps, and the crop pictures left out
// (the view asks for them by token with `routineCrops`, so the routines message stays small).
import { createHash } from 'node:crypto';
import { describeStep } from '../../navigation/routines/stepWords';
import type { BrainDocument, Thumbnail } from '../../navigation/store/brainTypes';
import { routineTrusted } from '../../navigation/store/routineRecords';
import type { Routine, RoutineStep } from '../../navigation/store/routineTypes';
import type { RoutineParameterView, RoutineStepView, RoutineView } from '../../shared/brainProtocol';
import { thumbnailSrc } from './brainGraphModel';

/** More is no list a person reviews; the rest are counted (`total`). */
export const MAX_SHOWN_ROUTINES = 100;
const SHOWN_DEFAULT = 200;

type Routines = Pick<BrainDocument, 'routines'>;

export function buildRoutineViews(document: Routines): { routines: RoutineView[]; total: number } {
  const sorted = [...document.routines].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }) || (a.id < b.id ? -1 : 1));
  return { routines: sorted.slice(0, MAX_SHOWN_ROUTINES).map(routineView), total: document.routines.length };
}

/** A crop picture's name for the view: the same picture keeps its token across redraws. */
export function cropToken(crop: Thumbnail): string {
  return createHash('sha256').update(crop.mediaType).update('\n').update(crop.data).digest('hex').slice(0, 16);
}

/** The pictures the tokens name now (steps' and proposals'); null for a token that names none. */
export function routineCropSrcs(document: Routines, tokens: readonly string[]): Array<{ crop: string; src: string | null }> {
  const wanted = new Set(tokens);
  const found = new Map<string, string | null>();
  for (const routine of document.routines) {
    for (const step of [...routine.steps, ...routine.proposals.map((p) => p.step)]) {
      const crop = step.anchors.crop;
      if (!crop) continue;
      const token = cropToken(crop);
      if (wanted.has(token) && !found.has(token)) found.set(token, thumbnailSrc(crop));
    }
  }
  return [...wanted].map((crop) => ({ crop, src: found.get(crop) ?? null }));
}

/** describeStep without the `[optional]` the view's toggle shows. */
export function stepWords(step: RoutineStep): string {
  return describeStep(step).replace(/ \[optional\]$/, '');
}

function routineView(routine: Routine): RoutineView {
  const proposals = new Map(routine.proposals.map((p) => [p.stepId, p]));
  const failure = routine.runs.lastFailure;
  return {
    id: routine.id,
    name: routine.name,
    ...(routine.description ? { description: routine.description } : {}),
    origin: routine.origin,
    trusted: routineTrusted(routine),
    parameters: routine.parameters.map(parameterView),
    steps: routine.steps.map((step): RoutineStepView => {
      const proposal = proposals.get(step.id);
      return {
        id: step.id,
        kind: step.kind,
        words: stepWords(step),
        optional: step.optional === true,
        ...(step.anchors.crop ? { crop: cropToken(step.anchors.crop) } : {}),
        typesText: step.kind === 'type' && step.text !== undefined,
        ...(proposal
          ? {
              proposal: {
                by: proposal.by,
                words: stepWords(proposal.step),
                reason: proposal.reason,
                at: proposal.at,
                ...(proposal.step.anchors.crop ? { crop: cropToken(proposal.step.anchors.crop) } : {}),
              },
            }
          : {}),
      };
    }),
    runs: {
      successes: routine.runs.successes,
      failures: routine.runs.failures,
      ...(routine.runs.lastRunAt ? { lastRunAt: routine.runs.lastRunAt } : {}),
      ...(failure ? { lastFailure: `${failureWords(failure)} (${failure.at})` } : {}),
    },
    updatedAt: routine.updatedAt,
  };
}

/** The player's reason names the step already ("step 2 (click …): …"); the step is stored 0-based. */
function failureWords(failure: { step: number; reason: string }): string {
  return /^step \d/.test(failure.reason) ? failure.reason : `step ${failure.step + 1}: ${failure.reason}`;
}

function parameterView(parameter: Routine['parameters'][number]): RoutineParameterView {
  const value = parameter.default;
  return {
    name: parameter.name,
    ...(parameter.description ? { description: parameter.description } : {}),
    ...(value !== undefined && !parameter.secret ? { default: value.length > SHOWN_DEFAULT ? `${value.slice(0, SHOWN_DEFAULT - 1)}…` : value } : {}),
    secret: parameter.secret === true,
  };
}
