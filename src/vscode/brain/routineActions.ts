// What the brain panel does with the view's routine messages (no vscode import, unit-tested with
// the controller's fake host): each change is first tried on a copy of the brain, so a bad step
// or name fails with the routine records' own error before any question; destructive ones are
// confirmed, missing names asked for, and each change is one write through the BrainSource.
import { GaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import { routineFileText } from '../../navigation/routines/routineFile';
import { fillText, placeholders } from '../../navigation/store/routineText';
import type { BrainDocument } from '../../navigation/store/brainTypes';
import { editRoutine, requireRoutine, routineIdOf, routineTrusted, stepIndex, type RoutineEdit } from '../../navigation/store/routineRecords';
import { PARAMETER_NAME_PATTERN, type Routine } from '../../navigation/store/routineTypes';
import type { RoutineViewMessage } from '../../shared/brainProtocol';
import { stepWords } from './routineViewModel';

/** An input box's question; `validate` says why a value cannot be used (shown under the box). */
export interface TextRequest {
  title: string;
  prompt: string;
  value: string;
  validate?(value: string): string | undefined;
}

/** Where routine changes go (StoredBrainSource: one BrainStore.update each). */
export interface RoutineSource {
  document(): Promise<BrainDocument>;
  editRoutine(id: string, edit: RoutineEdit): Promise<unknown>;
  forgetRoutine(id: string): Promise<unknown>;
}

/** The VS Code side the routine messages need. */
export interface RoutineHost {
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  askText(request: TextRequest): Promise<string | undefined>;
  /** Asks where to save (save dialog) and writes `text`; where it went, or undefined when cancelled. */
  saveFile(suggestedName: string, text: string): Promise<string | undefined>;
  /** Runs it as Run Routine... does (the command `gai.runRoutine`); resolves when the run ended. */
  runRoutine(id: string): Promise<void>;
  showInfo(message: string): void;
}

const PARAMETER_NAME = new RegExp(PARAMETER_NAME_PATTERN);

export class RoutineActions {
  constructor(
    private readonly source: () => RoutineSource,
    private readonly host: RoutineHost,
    private readonly logger: Logger,
    private readonly refresh: () => Promise<void>,
  ) {}

  /** Throws the records' error (it names the field) when the message cannot be applied. */
  async handle(message: RoutineViewMessage): Promise<void> {
    const document = await this.source().document();
    const routine = requireRoutine(document, message.id);
    const name = routine.name;
    switch (message.type) {
      case 'runRoutine':
        this.logger.info(`brain view: running routine ${routine.id}`);
        await this.host.runRoutine(routine.id);
        // Its run counts (and any proposal) changed.
        await this.refresh();
        return;
      case 'exportRoutine':
        return this.export(routine);
      case 'renameRoutine': {
        const given = message.name ?? (await this.host.askText({ title: 'Rename routine', prompt: `A new name for "${name}" (at most 100 characters)`, value: name, validate: (v) => routineNameProblem(document, routine, v) }));
        if (given === undefined) return;
        return this.apply(document, routine, { kind: 'rename', name: given.trim() });
      }
      case 'forgetRoutine': {
        const runs = routine.runs.successes + routine.runs.failures;
        const asked = await this.host.confirm(
          `Forget the routine "${name}"?`,
          `Its ${plural(routine.steps.length, 'step')}${runs > 0 ? ` and the record of ${plural(runs, 'run')}` : ''} are forgotten; GAI cannot run it any more. This cannot be undone.`,
          'Forget',
        );
        if (!asked) return;
        await this.source().forgetRoutine(routine.id);
        this.logger.info(`brain: forgot routine ${routine.id}`);
        return this.refresh();
      }
      case 'confirmRoutine': {
        if (routineTrusted(routine)) return this.refresh();
        const asked = await this.host.confirm(
          `Trust the routine "${name}"?`,
          `It was imported from a file, so GAI asks before each of its ${plural(routine.steps.length, 'step')}. Trusted, they run without asking (steps that delete, send or pay still ask). Trust it only if you checked its steps.`,
          'Trust',
        );
        if (!asked) return;
        return this.apply(document, routine, { kind: 'confirm' });
      }
      case 'stepOptional':
        return this.apply(document, routine, { kind: 'optional', step: message.step, optional: message.optional });
      case 'moveStep':
        return this.apply(document, routine, { kind: 'move-step', step: message.step, to: message.to });
      case 'deleteStep': {
        const edit: RoutineEdit = { kind: 'delete-step', step: message.step };
        tryEdit(document, routine, edit);
        const index = stepIndex(routine, message.step);
        const asked = await this.host.confirm(`Delete step ${index + 1} of "${name}"?`, `"${stepWords(routine.steps[index]!)}" is removed from the routine. This cannot be undone.`, 'Delete');
        if (!asked) return;
        return this.apply(document, routine, edit);
      }
      case 'makeParameter':
        return this.makeParameter(document, routine, message.step, message.value, message.name);
      case 'editParameter':
        return this.editParameter(document, routine, message);
      case 'removeParameter': {
        const edit: RoutineEdit = { kind: 'remove-parameter', name: message.name };
        tryEdit(document, routine, edit);
        const value = routine.parameters.find((p) => p.name === message.name)?.default;
        const asked = await this.host.confirm(
          `Remove the parameter {${message.name}} from "${name}"?`,
          `Its steps type ${value ? `"${value.length > 60 ? `${value.slice(0, 59)}…` : value}"` : 'nothing'} again, as recorded, and a run no longer asks for it.`,
          'Remove',
        );
        if (!asked) return;
        return this.apply(document, routine, edit);
      }
      case 'acceptProposal':
        return this.apply(document, routine, { kind: 'accept', step: message.step });
      case 'rejectProposal':
        return this.apply(document, routine, { kind: 'reject', step: message.step });
    }
  }

  private async export(routine: Routine): Promise<void> {
    const where = await this.host.saveFile(`${routine.id}.gai-routine.json`, routineFileText(routine));
    if (where === undefined) return;
    this.logger.info(`brain: exported routine ${routine.id} to ${where}`);
    this.host.showInfo(`GAI saved "${routine.name}" to ${where}.`);
  }

  /** Which text of the step changes between runs, and its name; each asked for when not given. */
  private async makeParameter(document: BrainDocument, routine: Routine, stepId: string, givenValue: string | undefined, givenName: string | undefined): Promise<void> {
    const index = stepIndex(routine, stepId);
    const step = routine.steps[index]!;
    if (step.kind !== 'type' || step.text === undefined) throw new GaiError('INVALID_INPUT', `step: step ${index + 1} of "${routine.name}" types no text that could become a parameter`);
    const typed = literalPart(step.text);
    const value =
      givenValue ??
      (await this.host.askText({
        title: `Make a parameter of "${routine.name}"`,
        prompt: `Step ${index + 1} types "${short(typed)}": the part that changes between runs`,
        value: typed,
        validate: (v) => (v === '' ? 'Enter the text that changes between runs.' : undefined),
      }));
    if (value === undefined) return;
    const name =
      givenName ??
      (await this.host.askText({ title: `Name the parameter for "${short(value)}"`, prompt: 'A run asks for it by this name, e.g. {find}', value: suggestName(value), validate: (v) => parameterNameProblem(routine, v) }));
    if (name === undefined) return;
    return this.apply(document, routine, { kind: 'parameter', name, value, step: stepId });
  }

  /** Given fields are set as they are; with none, the three are asked for, and a cancel writes nothing. */
  private async editParameter(document: BrainDocument, routine: Routine, message: Extract<RoutineViewMessage, { type: 'editParameter' }>): Promise<void> {
    const { name } = message;
    let { rename, description, default: value } = message;
    tryEdit(document, routine, { kind: 'edit-parameter', name });
    if (rename === undefined && description === undefined && value === undefined) {
      const parameter = routine.parameters.find((p) => p.name === name)!;
      const title = `Parameter {${name}} of "${routine.name}"`;
      rename = await this.host.askText({ title, prompt: 'Its name (a lower-case letter, then a-z, 0-9 or _)', value: name, validate: (v) => (v === name ? undefined : parameterNameProblem(routine, v)) });
      if (rename === undefined) return;
      description = await this.host.askText({ title, prompt: 'What it is, for the person a run asks (may be empty)', value: parameter.description ?? '', validate: (v) => (v.length > 300 ? `At most 300 characters (this is ${v.length}).` : undefined) });
      if (description === undefined) return;
      if (!parameter.secret) {
        value = await this.host.askText({ title, prompt: 'The value a run uses when it is given none', value: parameter.default ?? '' });
        if (value === undefined) return;
      }
      if (rename === name) rename = undefined;
      if (description === (parameter.description ?? '')) description = undefined;
      if (value === (parameter.default ?? '')) value = undefined;
      if (rename === undefined && description === undefined && value === undefined) return;
    }
    return this.apply(document, routine, { kind: 'edit-parameter', name, ...(rename !== undefined ? { rename } : {}), ...(description !== undefined ? { description } : {}), ...(value !== undefined ? { default: value } : {}) });
  }

  private async apply(document: BrainDocument, routine: Routine, edit: RoutineEdit): Promise<void> {
    tryEdit(document, routine, edit);
    await this.source().editRoutine(routine.id, edit);
    this.logger.info(`brain: routine ${routine.id}: ${edit.kind}`);
    await this.refresh();
  }
}

/** Applies the edit to a copy: throws the records' error before anything is asked or written. */
function tryEdit(document: BrainDocument, routine: Routine, edit: RoutineEdit): void {
  editRoutine(structuredClone(document), routine.id, edit, Date.now());
}

/** For the rename box: what the records would refuse, said before Enter. */
export function routineNameProblem(document: Pick<BrainDocument, 'routines'>, routine: Routine, value: string): string | undefined {
  const name = value.trim();
  if (name === '') return 'Enter a name for this routine.';
  if (name.length > 100) return `At most 100 characters (this is ${name.length}).`;
  // The id follows the name, so two names with one id collide (as the records say).
  const other = document.routines.find((r) => r.id !== routine.id && r.id === routineIdOf(name));
  return other ? `A routine "${other.name}" exists already.` : undefined;
}

export function parameterNameProblem(routine: Routine, value: string): string | undefined {
  if (!PARAMETER_NAME.test(value)) return 'A lower-case letter, then a-z, 0-9 or _ (at most 40).';
  return routine.parameters.some((p) => p.name === value) ? `"${routine.name}" has a parameter {${value}} already.` : undefined;
}

/** The longest stretch of the template that is typed as is (what can still become a parameter). */
function literalPart(template: string): string {
  const names = placeholders(template);
  const parts = fillText(template, Object.fromEntries(names.map((n) => [n, '\0']))).split('\0');
  return parts.reduce((longest, part) => (part.trim().length > longest.trim().length ? part : longest), '');
}

/** "Cat food" → `cat_food`: a name the person may keep. */
function suggestName(value: string): string {
  const name = value.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').replace(/^(\d)/, 'p$1').slice(0, 40);
  return name === '' ? 'text' : name;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}
