import { GaiError } from '../../common/errors';
import { compileValidator } from '../../common/schema';
import type { BrainDocument } from '../store/brainTypes';
import { addRoutine, routineProblems } from '../store/routineRecords';
import { RoutineSchema, type Routine } from '../store/routineTypes';

// A routine as a file a person can read and another machine import (`gai routine export`): its
// steps and anchors as JSON, pictures left out. An imported routine asks at every step until
// the person confirms it.

export interface RoutineFile {
  gaiRoutine: 1;
  routine: Routine;
}

const routineValidator = compileValidator(RoutineSchema);

export function routineFileText(routine: Routine): string {
  const copy = structuredClone(routine);
  for (const step of copy.steps) delete step.anchors.crop;
  for (const proposal of copy.proposals) delete proposal.step.anchors.crop;
  const file: RoutineFile = { gaiRoutine: 1, routine: copy };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The routine in a file's text; every problem names its field. */
export function parseRoutineFile(text: string): Routine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new GaiError('INVALID_INPUT', `file: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const file = parsed as Partial<RoutineFile> | null;
  if (!file || typeof file !== 'object' || file.gaiRoutine !== 1) throw new GaiError('INVALID_INPUT', 'file.gaiRoutine: expected 1 (a file written by gai routine export)');
  const checked = routineValidator.validate(file.routine);
  if (!checked.ok) throw new GaiError('INVALID_INPUT', checked.errors.slice(0, 5).map((e) => (e.startsWith('input') ? e.replace(/^input/, 'file.routine') : `file.routine.${e}`)).join('; '));
  const problems = routineProblems(checked.value, 'file.routine');
  if (problems.length) throw new GaiError('INVALID_INPUT', problems.slice(0, 5).join('; '));
  return checked.value;
}

/** Adds a routine read from a file: imported, so its steps ask until the person confirms it. */
export function addImported(document: BrainDocument, incoming: Routine, now: number, options: { replace?: boolean } = {}): Routine {
  const init = { name: incoming.name, steps: incoming.steps, parameters: incoming.parameters, origin: 'imported' as const, ...(incoming.description ? { description: incoming.description } : {}) };
  return structuredClone(addRoutine(document, init, now, options.replace ? { replace: true } : {}));
}
