import { randomBytes } from 'node:crypto';
import { GaiError } from '../../common/errors';
import { isoTime, type BrainDocument } from './brainTypes';
import type { Routine, RoutineParameter, RoutineProposal, RoutineStep } from './routineTypes';
import { braceProblem, escapeText, parameterize, placeholders } from './routineText';

// Changes to the routines of a brain document, in place on a BrainStore.update draft. Every
// edit bumps the revision, so the edited routine wins when two copies merge.

export interface NewRoutine {
  name: string;
  description?: string;
  steps: RoutineStep[];
  parameters?: RoutineParameter[];
  origin?: Routine['origin'];
}

/** A routine's id from its name: "Export report" → `export-report`. */
export function routineIdOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return slug === '' ? `routine-${randomBytes(3).toString('hex')}` : slug;
}

export function findRoutine(document: BrainDocument, nameOrId: string): Routine | undefined {
  const wanted = nameOrId.trim();
  const id = routineIdOf(wanted);
  return document.routines.find((r) => r.id === wanted || r.id === id) ?? document.routines.find((r) => r.name.toLowerCase() === wanted.toLowerCase());
}

export function requireRoutine(document: BrainDocument, nameOrId: string): Routine {
  const routine = findRoutine(document, nameOrId);
  if (!routine) {
    const known = document.routines.map((r) => `"${r.name}"`).join(', ');
    throw new GaiError('BRAIN_NOT_FOUND', `name: no routine "${nameOrId}" in the brain${known ? ` (known: ${known})` : ' (none recorded yet)'}`);
  }
  return routine;
}

/** Adds a routine; a name already taken is an error (replace it with `replace: true`). */
export function addRoutine(document: BrainDocument, init: NewRoutine, now: number, options: { replace?: boolean } = {}): Routine {
  const name = init.name.trim();
  if (name === '' || name.length > 100) throw new GaiError('INVALID_INPUT', 'name: must be 1 to 100 characters');
  const id = routineIdOf(name);
  const existing = document.routines.find((r) => r.id === id);
  if (existing && !options.replace) throw new GaiError('INVALID_INPUT', `name: a routine "${existing.name}" exists already (choose another name, or replace it)`);
  const at = isoTime(now);
  const routine: Routine = {
    id,
    name,
    ...(init.description ? { description: init.description.slice(0, 500) } : {}),
    parameters: init.parameters ?? [],
    steps: init.steps,
    origin: init.origin ?? 'recorded',
    runs: { successes: 0, failures: 0 },
    proposals: [],
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
    revision: (existing?.revision ?? 0) + 1,
  };
  document.routines = [...document.routines.filter((r) => r.id !== id), routine];
  document.forgotten = document.forgotten.filter((t) => !(t.kind === 'routine' && t.id === id));
  return routine;
}

export function forgetRoutine(document: BrainDocument, nameOrId: string, now: number): Routine {
  const routine = requireRoutine(document, nameOrId);
  document.routines = document.routines.filter((r) => r !== routine);
  document.forgotten.push({ kind: 'routine', id: routine.id, at: isoTime(now) });
  return routine;
}

/** A step's 1-based number or id → its index; an error naming the field otherwise. */
export function stepIndex(routine: Routine, step: number | string, field = 'step'): number {
  const index = typeof step === 'number' ? step - 1 : routine.steps.findIndex((s) => s.id === step);
  if (!Number.isInteger(index) || index < 0 || index >= routine.steps.length) {
    throw new GaiError('INVALID_INPUT', `${field}: no step ${JSON.stringify(step)} in "${routine.name}" (it has ${routine.steps.length})`);
  }
  return index;
}

export type RoutineEdit =
  | { kind: 'rename'; name: string }
  | { kind: 'describe'; description: string }
  | { kind: 'delete-step'; step: number | string }
  | { kind: 'move-step'; step: number | string; to: number }
  | { kind: 'optional'; step: number | string; optional: boolean }
  | { kind: 'parameter'; name: string; value: string; step?: number | string; description?: string }
  | { kind: 'edit-parameter'; name: string; rename?: string; description?: string; default?: string }
  | { kind: 'remove-parameter'; name: string }
  | { kind: 'confirm' }
  /** A repair a replay proposed for a step: accepted, it replaces the step; rejected, it is dropped. */
  | { kind: 'accept'; step: number | string }
  | { kind: 'reject'; step: number | string };

/** Applies one edit the person made (brain view, CLI, MCP); returns the routine. */
export function editRoutine(document: BrainDocument, nameOrId: string, edit: RoutineEdit, now: number): Routine {
  const routine = requireRoutine(document, nameOrId);
  switch (edit.kind) {
    case 'rename': {
      const name = edit.name.trim();
      if (name === '' || name.length > 100) throw new GaiError('INVALID_INPUT', 'name: must be 1 to 100 characters');
      const other = document.routines.find((r) => r !== routine && r.id === routineIdOf(name));
      if (other) throw new GaiError('INVALID_INPUT', `name: a routine "${other.name}" exists already`);
      // The id follows the name (MCP tools and `gai run` use it); the old id is forgotten.
      document.forgotten.push({ kind: 'routine', id: routine.id, at: isoTime(now) });
      routine.name = name;
      routine.id = routineIdOf(name);
      break;
    }
    case 'describe':
      routine.description = edit.description.slice(0, 500);
      break;
    case 'delete-step': {
      if (routine.steps.length === 1) throw new GaiError('INVALID_INPUT', 'step: a routine keeps at least one step (forget the routine instead)');
      const index = stepIndex(routine, edit.step);
      routine.steps.splice(index, 1);
      dropUnusedParameters(routine);
      break;
    }
    case 'move-step': {
      const index = stepIndex(routine, edit.step);
      const to = stepIndex(routine, edit.to, 'to');
      const [moved] = routine.steps.splice(index, 1);
      routine.steps.splice(to, 0, moved!);
      break;
    }
    case 'optional': {
      const step = routine.steps[stepIndex(routine, edit.step)]!;
      if (edit.optional) step.optional = true;
      else delete step.optional;
      break;
    }
    case 'parameter':
      addParameter(routine, edit);
      break;
    case 'edit-parameter':
      editParameter(routine, edit);
      break;
    case 'remove-parameter': {
      const parameter = requireParameter(routine, edit.name);
      // Its steps type the value it had, as recorded.
      for (const step of routine.steps) {
        if (step.kind === 'type' && step.text !== undefined) step.text = step.text.split(`{${parameter.name}}`).join(escapeText(parameter.default ?? ''));
      }
      routine.parameters = routine.parameters.filter((p) => p !== parameter);
      break;
    }
    case 'confirm':
      routine.confirmedAt = isoTime(now);
      break;
    case 'accept':
    case 'reject': {
      const index = stepIndex(routine, edit.step);
      const stepId = routine.steps[index]!.id;
      const proposal = routine.proposals.find((p) => p.stepId === stepId);
      if (!proposal) throw new GaiError('INVALID_INPUT', `step: no change is proposed for step ${index + 1} of "${routine.name}"`);
      if (edit.kind === 'accept') routine.steps[index] = { ...proposal.step, id: stepId, ...(routine.steps[index]!.optional ? { optional: true as const } : {}) };
      routine.proposals = routine.proposals.filter((p) => p !== proposal);
      break;
    }
  }
  touch(routine, now);
  return routine;
}

/** Keeps a replay's proposed change to a step (one per step, the newest), never applying it. */
export function proposeChange(document: BrainDocument, id: string, proposal: RoutineProposal): void {
  const routine = document.routines.find((r) => r.id === id);
  if (!routine || !routine.steps.some((s) => s.id === proposal.stepId)) return;
  routine.proposals = [...routine.proposals.filter((p) => p.stepId !== proposal.stepId), proposal].slice(-20);
  touch(routine, Date.parse(proposal.at));
}

export interface RoutineRun {
  success: boolean;
  failedStep?: number;
  reason?: string;
}

export function recordRoutineRun(document: BrainDocument, id: string, run: RoutineRun, now: number): void {
  const routine = document.routines.find((r) => r.id === id);
  if (!routine) return; // forgotten while it ran
  const at = isoTime(now);
  routine.runs.lastRunAt = at;
  if (run.success) routine.runs.successes += 1;
  else {
    routine.runs.failures += 1;
    routine.runs.lastFailure = { at, step: Math.max(0, run.failedStep ?? 0), reason: (run.reason ?? 'failed').slice(0, 500) };
  }
  routine.updatedAt = at;
}

/** Whether the routine's steps run without asking: recorded here, or imported and confirmed. */
export function routineTrusted(routine: Routine): boolean {
  return routine.origin === 'recorded' || routine.confirmedAt !== undefined;
}

/** What is wrong with a routine beyond its schema (unknown parameters, duplicate step ids), field by field. */
export function routineProblems(routine: Routine, field: string): string[] {
  const problems: string[] = [];
  const declared = new Set(routine.parameters.map((p) => p.name));
  const ids = new Set<string>();
  routine.steps.forEach((step, i) => {
    if (ids.has(step.id)) problems.push(`${field}.steps.${i}.id: duplicate step id ${JSON.stringify(step.id)}`);
    ids.add(step.id);
    if (step.kind !== 'type') return;
    if (step.text === undefined && !step.secret) problems.push(`${field}.steps.${i}.text: a type step needs a text or secret: true`);
    if (step.text === undefined) return;
    const braces = braceProblem(step.text);
    if (braces) problems.push(`${field}.steps.${i}.text: ${braces}`);
    for (const name of placeholders(step.text)) {
      if (!declared.has(name)) problems.push(`${field}.steps.${i}.text: {${name}} is not one of the routine's parameters`);
    }
  });
  const names = routine.parameters.map((p) => p.name);
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i) problems.push(`${field}.parameters.${i}.name: duplicate parameter "${name}"`);
  });
  return problems;
}

export function newStepId(): string {
  return `s${randomBytes(4).toString('hex')}`;
}

function addParameter(routine: Routine, edit: Extract<RoutineEdit, { kind: 'parameter' }>): void {
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(edit.name)) throw new GaiError('INVALID_INPUT', `parameter: "${edit.name}" must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 40)`);
  if (routine.parameters.some((p) => p.name === edit.name)) throw new GaiError('INVALID_INPUT', `parameter: "${edit.name}" exists already in "${routine.name}"`);
  if (routine.parameters.length >= 20) throw new GaiError('INVALID_INPUT', 'parameter: a routine has at most 20 parameters');
  const steps = edit.step === undefined ? routine.steps : [routine.steps[stepIndex(routine, edit.step)]!];
  let used = 0;
  for (const step of steps) {
    if (step.kind !== 'type' || step.text === undefined) continue;
    const changed = parameterize(step.text, edit.value, edit.name);
    if (changed !== step.text) used += 1;
    step.text = changed;
  }
  if (used === 0) {
    const typed = routine.steps.filter((s) => s.kind === 'type' && s.text !== undefined).map((s) => JSON.stringify((s as { text: string }).text));
    throw new GaiError('INVALID_INPUT', `value: no step${edit.step === undefined ? '' : ` ${JSON.stringify(edit.step)}`} typed "${edit.value}"${typed.length ? ` (typed: ${typed.join(', ')})` : ' (the routine types nothing)'}`);
  }
  routine.parameters.push({ name: edit.name, default: edit.value, ...(edit.description ? { description: edit.description.slice(0, 300) } : {}) });
}

function editParameter(routine: Routine, edit: Extract<RoutineEdit, { kind: 'edit-parameter' }>): void {
  const parameter = requireParameter(routine, edit.name);
  if (edit.rename !== undefined && edit.rename !== parameter.name) {
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(edit.rename)) throw new GaiError('INVALID_INPUT', `rename: "${edit.rename}" must start with a lower-case letter and hold only a-z, 0-9 and _`);
    if (routine.parameters.some((p) => p.name === edit.rename)) throw new GaiError('INVALID_INPUT', `rename: "${edit.rename}" exists already`);
    for (const step of routine.steps) {
      if (step.kind === 'type' && step.text !== undefined) step.text = step.text.split(`{${parameter.name}}`).join(`{${edit.rename}}`);
    }
    parameter.name = edit.rename;
  }
  if (edit.description !== undefined) parameter.description = edit.description.slice(0, 300);
  if (edit.default !== undefined) parameter.default = edit.default;
}

function requireParameter(routine: Routine, name: string): RoutineParameter {
  const parameter = routine.parameters.find((p) => p.name === name);
  if (!parameter) throw new GaiError('INVALID_INPUT', `parameter: "${routine.name}" has no parameter "${name}"${routine.parameters.length ? ` (it has ${routine.parameters.map((p) => p.name).join(', ')})` : ''}`);
  return parameter;
}

function dropUnusedParameters(routine: Routine): void {
  const used = new Set(routine.steps.flatMap((s) => (s.kind === 'type' && s.text !== undefined ? placeholders(s.text) : [])));
  routine.parameters = routine.parameters.filter((p) => used.has(p.name) || p.secret);
}

function touch(routine: Routine, now: number): void {
  routine.revision += 1;
  routine.updatedAt = isoTime(now);
}
