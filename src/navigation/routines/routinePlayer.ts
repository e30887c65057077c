// Replays a routine without a model: each step found by its anchors on the screen of now, done
// through the host's runtime (its approvals, guards and stop hotkey apply), the screen left to
// settle, and the next step's anchors found before it acts: the first step that cannot be found
// stops the run and says why. Nothing is clicked where a step used to be.
import { GaiError } from '../../common/errors';
import type { DesktopServices } from '../../desktop/desktopServices';
import { waitForSettle } from '../../desktop/reading/settle';
import { sleep } from '../../common/timing';
import type { ExecuteOptions } from '../../runtime/toolRuntime';
import type { ToolResult } from '../../tools/toolTypes';
import type { SecretPrompt, ToolCaller } from '../routes/pathReplayer';
import { consequentialLabel, DEFAULT_CONSEQUENTIAL_LABELS } from '../routes/replayApproval';
import type { ClickStep, Routine, RoutineStep, ScrollStep } from '../store/routineTypes';
import { routineTrusted } from '../store/routineRecords';
import { appWindows, checkPoint, findTarget, sameApp, sameLabel, type AnchorRung, type FindResult } from './anchorFinder';
import { locateByModel } from './modelLocate';
import { closePopup } from './popupCloser';
import { isChecked, TOGGLE_ROLES } from '../recognition/pointScene';
import { captureAnchors, takeSnapshot } from '../recording/anchorCapture';
import type { ModelAccess } from '../../model/modelAccess';
import type { Point } from '../../desktop/ports/inputPort';
import { fillText } from '../store/routineText';
import { describeStep, stepTarget } from './stepWords';

export interface RoutineStepReport {
  index: number;
  stepId: string;
  action: string;
  ok: boolean;
  /** An optional step whose anchor was not found. */
  skipped?: boolean;
  /** Which anchor found it. */
  via?: AnchorRung | 'window' | 'focus' | 'person';
  observation: string;
  durationMs: number;
}

export interface RoutineRunReport {
  routine: string;
  ok: boolean;
  steps: RoutineStepReport[];
  /** 0-based. */
  failedStep?: number;
  reason?: string;
  /** The failed step was refused (not approved): nothing is wrong with the routine. */
  denied?: boolean;
  modelCalls: number;
  durationMs: number;
}

export interface RoutinePlayerDeps {
  services: DesktopServices;
  callTool: ToolCaller;
  promptSecret?: SecretPrompt;
  consequentialLabels?: readonly string[];
  /** Longest wait for the screen to settle after a step; default 2500 ms. */
  settleTimeoutMs?: number;
  /** Longest wait for the step's window to appear or take the focus (a dialog opening); default 4000 ms. */
  windowWaitMs?: number;
  /** A vision model for steps no anchor finds: its answer is a proposal, and its click asks first. */
  models?: ModelAccess;
}

/** A step the replay could not find, for the person to do themselves while GAI watches. */
export interface PersonHelpRequest {
  routine: Routine;
  index: number;
  step: RoutineStep;
  /** Why it was not found, in words. */
  problem: string;
  signal: AbortSignal;
}

/** The step as the person just did it (their input already happened), or undefined: they did not. */
export type PersonHelp = (request: PersonHelpRequest) => Promise<RoutineStep | undefined>;

export interface RunOptions {
  signal?: AbortSignal;
  /** The last rung: the person shows the step; what they did becomes a proposed change, never applied silently. */
  askPerson?: PersonHelp;
  /** A step found a new way (by the person): the change to propose for it. */
  onProposal?(stepId: string, step: RoutineStep, reason: string, by: 'person' | 'model'): void;
  onStepStart?(index: number, total: number, action: string): void;
  onStep?(step: RoutineStepReport): void;
}

/** The run's values: given ones checked against the routine's parameters, the rest from their recorded defaults. */
export function parameterValues(routine: Routine, given: Readonly<Record<string, string>>): Record<string, string> {
  const known = new Set(routine.parameters.map((p) => p.name));
  for (const [name, value] of Object.entries(given)) {
    if (!known.has(name)) {
      const list = routine.parameters.map((p) => p.name).join(', ');
      throw new GaiError('INVALID_INPUT', `params.${name}: "${routine.name}" has no such parameter (${list ? `it has ${list}` : 'it has none'})`);
    }
    if (typeof value !== 'string') throw new GaiError('INVALID_INPUT', `params.${name}: must be a string`);
  }
  const values: Record<string, string> = {};
  for (const parameter of routine.parameters) {
    const value = given[parameter.name] ?? parameter.default;
    if (value === undefined && !parameter.secret) throw new GaiError('INVALID_INPUT', `params.${parameter.name}: required (it has no recorded value)`);
    if (value !== undefined) values[parameter.name] = value;
  }
  return values;
}

export class RoutinePlayer {
  private modelCalls = 0;

  constructor(private readonly deps: RoutinePlayerDeps) {}

  async run(routine: Routine, given: Readonly<Record<string, string>>, options: RunOptions = {}): Promise<RoutineRunReport> {
    const values = parameterValues(routine, given);
    this.modelCalls = 0;
    const signal = options.signal ?? new AbortController().signal;
    const started = performance.now();
    const steps: RoutineStepReport[] = [];
    for (const [index, step] of routine.steps.entries()) {
      signal.throwIfAborted();
      const action = describeStep(step);
      options.onStepStart?.(index, routine.steps.length, action);
      const stepStarted = performance.now();
      const done = await this.runStep(routine, index, step, values, signal, options);
      const report: RoutineStepReport = { index, stepId: step.id, action, ...done, durationMs: performance.now() - stepStarted };
      steps.push(report);
      options.onStep?.(report);
      if (!report.ok && !report.skipped) {
        return { routine: routine.name, ok: false, steps, failedStep: index, reason: `step ${index + 1} (${action}): ${report.observation}`, ...(done.denied ? { denied: true } : {}), modelCalls: this.modelCalls, durationMs: performance.now() - started };
      }
    }
    return { routine: routine.name, ok: true, steps, modelCalls: this.modelCalls, durationMs: performance.now() - started };
  }

  private async runStep(routine: Routine, index: number, step: RoutineStep, values: Record<string, string>, signal: AbortSignal, options: RunOptions): Promise<Pick<RoutineStepReport, 'ok' | 'skipped' | 'via' | 'observation'> & { denied?: boolean }> {
    const context = { services: this.deps.services, signal, windowWaitMs: this.deps.windowWaitMs ?? 4_000 };
    const notFound = (problem: string): { ok: false; skipped?: true; observation: string } =>
      step.optional ? { ok: false, skipped: true, observation: `Skipped (optional): ${problem}.` } : { ok: false, observation: `Not done: ${problem}.` };
    const approval = this.approval(routine, index, step);
    const before = await this.deps.services.desktop.screen.grab().catch(() => undefined);
    let result: ToolResult;
    let popupsClosed = 0;
    let via: RoutineStepReport['via'];
    switch (step.kind) {
      case 'click':
      case 'scroll': {
        let found = await findTarget(step, context);
        let closed = 0;
        // Nested menus close one level per Escape.
        while ('problem' in found && found.inTheWay && closed < 3) {
          const problem = await closePopup(found.inTheWay, step.anchors.window?.app, this.deps, signal, approval.approvalKind === 'consequential' ? { approval: 'skip' } : approval);
          if (problem) return notFound(`${found.problem}; ${problem}`);
          closed += 1;
          found = await findTarget(step, context);
        }
        let byModel: RoutineStep | undefined;
        if ('problem' in found && !found.inTheWay && this.deps.models && !step.optional) {
          const problem = found.problem;
          const model = await this.byModel(step, context);
          this.modelCalls += 1;
          if ('found' in model) {
            found = model;
            byModel = await this.reanchored(step, model.found.point, signal);
            options.onProposal?.(step.id, byModel, problem, 'model');
          } else found = { problem: `${problem}; ${model.problem}` };
        }
        if ('problem' in found) {
          const shown = step.optional || !options.askPerson ? undefined : await options.askPerson({ routine, index, step, problem: found.problem, signal });
          if (!shown) return notFound(found.problem);
          options.onProposal?.(step.id, shown, found.problem, 'person');
          return { ok: true, via: 'person', observation: `Not found (${found.problem}); the person did it, and the new anchors are proposed as a change to the step.` };
        }
        popupsClosed = closed;
        via = found.found.via;
        const { x, y } = found.found.point;
        const now = found.found.element;
        const wasChecked = step.anchors.element?.checked;
        if (step.kind === 'click' && wasChecked !== undefined && now && TOGGLE_ROLES.has(now.role) && isChecked(now) !== wasChecked) {
          // Already as the recorded click left it: clicking would undo it.
          return { ok: true, via, observation: `"${now.name}" is already ${isChecked(now) ? 'checked' : 'unchecked'}, as the recorded click left it; not clicked.` };
        }
        const stepApproval = byModel
          ? { approval: 'required' as const, approvalKind: 'untrusted-path' as const, approvalNote: `The routine "${routine.name}" could not find step ${index + 1} (${describeStep(step)}); a model points at (${x}, ${y}). It is only done if you approve, and the new way is kept as a proposal you accept or reject.` }
          : approval;
        result =
          step.kind === 'click'
            ? await this.deps.callTool({ name: 'click', input: { x, y, ...(step.button !== 'left' ? { button: step.button } : {}), ...(step.double ? { doubleClick: true } : {}) } }, signal, stepApproval)
            : await this.deps.callTool({ name: 'scroll', input: { direction: step.direction, amount: step.amount, x, y } }, signal, stepApproval);
        break;
      }
      case 'key': {
        const problem = await this.keysGoToApp(step, signal);
        if (problem) return notFound(problem);
        via = 'window';
        result = await this.deps.callTool({ name: 'press_key', input: { key: step.key, ...(step.modifiers.length ? { modifiers: step.modifiers } : {}) } }, signal, approval);
        break;
      }
      case 'type': {
        const problem = (await this.keysGoToApp(step, signal)) ?? (await this.focusProblem(step, signal));
        if (problem) return notFound(problem);
        via = step.anchors.element ? 'focus' : 'window';
        const text = step.text !== undefined ? fillText(step.text, values, `steps.${index}.text`) : await this.secretText(routine, step, values, signal);
        if (text === undefined) return { ok: false, observation: 'This step types a secret that is not stored, and no one entered it.' };
        if (text === '') return { ok: true, via, observation: 'Nothing to type (the parameter is empty).' };
        result = await this.deps.callTool({ name: 'type_text', input: { text, ...(step.pressEnter ? { pressEnter: true } : {}), ...(step.text === undefined ? { secret: true } : {}) } }, signal, approval);
        break;
      }
    }
    if (!result.success) return { ok: false, via, observation: result.observation, ...(result.code === 'DENIED' ? { denied: true } : {}) };
    if (popupsClosed > 0) result = { ...result, observation: `${result.observation} (an open popup of the app closed with Escape first)` };
    await waitForSettle(this.deps.services.desktop.screen, { timeoutMs: this.deps.settleTimeoutMs ?? 2_500, signal, ...(before ? { before } : {}), reactionMs: 400 }).catch(() => undefined);
    return { ok: true, via, observation: result.observation };
  }

  /** The model's place for the step, checked to lie uncovered in a window of the recorded app. */
  private async byModel(step: ClickStep | ScrollStep, context: { services: DesktopServices; signal: AbortSignal }): Promise<FindResult> {
    try {
      const answer = await locateByModel(this.deps.services, this.deps.models!, step, context.signal);
      return 'point' in answer ? await checkPoint(answer.point, step, context) : answer;
    } catch (error) {
      if (context.signal.aborted) throw error;
      return { problem: `the model could not be asked (${error instanceof Error ? error.message : String(error)})` };
    }
  }

  /** The step with anchors read at its new place: what a repair proposes. */
  private async reanchored(step: ClickStep | ScrollStep, point: Point, signal: AbortSignal): Promise<RoutineStep> {
    const snapshot = await takeSnapshot(this.deps.services, signal);
    const anchors = await captureAnchors({ services: this.deps.services, snapshot, point, signal });
    return { ...step, anchors: { ...anchors, ...(anchors.window ? {} : step.anchors.window ? { window: step.anchors.window } : {}) } };
  }

  /** Keys go to the focused window: it must be the recorded app's (a dialog of it opening is waited for). */
  private async keysGoToApp(step: RoutineStep, signal: AbortSignal): Promise<string | undefined> {
    const app = step.anchors.window?.app;
    if (!app) return undefined;
    const wait = this.deps.windowWaitMs ?? 4_000;
    const windows = await appWindows(step.anchors.window, { services: this.deps.services, signal, windowWaitMs: wait });
    if ('problem' in windows) return windows.problem;
    const deadline = performance.now() + wait;
    // Keys that went to a dialog go to that dialog only: its click may not have opened it.
    const dialog = step.anchors.window?.dialog ? step.anchors.window.title.trim() : undefined;
    for (;;) {
      const active = await this.deps.services.desktop.windows.activeWindow().catch(() => undefined);
      if (active && sameApp(active.appName, app) && (!dialog || active.title.trim() === dialog)) return undefined;
      if (performance.now() >= deadline) return `the keys would go to "${active?.title || active?.appName || 'no window'}", not to ${dialog ? `the dialog "${dialog}" of "${app}"` : `"${app}"`}`;
      await sleep(100, signal);
    }
  }

  /** The field that has the focus must be the one typed into when recorded (its role, and its name when it had one). */
  private async focusProblem(step: RoutineStep, signal: AbortSignal): Promise<string | undefined> {
    const wanted = step.anchors.element;
    const tree = this.deps.services.desktop.accessibility;
    if (!wanted || !tree?.focusedElement) return undefined;
    const focused = await tree.focusedElement(signal).catch(() => undefined);
    if (!focused) return undefined; // the toolkit does not say: the window check stands
    if (focused.role !== wanted.role || (wanted.name.trim() !== '' && !sameLabel(focused.name, wanted.name))) {
      return `the focus is on ${focused.role} "${focused.name}", not on the ${wanted.role}${wanted.name ? ` "${wanted.name}"` : ''} typed into when recorded`;
    }
    return undefined;
  }

  private async secretText(routine: Routine, step: RoutineStep, values: Record<string, string>, signal: AbortSignal): Promise<string | undefined> {
    const secret = routine.parameters.find((p) => p.secret && values[p.name] !== undefined);
    if (secret) return values[secret.name];
    return this.deps.promptSecret ? this.deps.promptSecret(`${describeStep(step)} in "${routine.name}": enter it to go on`, signal) : undefined;
  }

  private approval(routine: Routine, index: number, step: RoutineStep): ExecuteOptions {
    const where = `step ${index + 1} of ${routine.steps.length} of the routine "${routine.name}" (${describeStep(step)})`;
    if (!routineTrusted(routine)) {
      return { approval: 'required', approvalKind: 'untrusted-path', approvalNote: `Replaying ${where}, which was imported and not confirmed yet.` };
    }
    const target = stepTarget(step);
    const action = step.kind === 'key' ? { tool: 'press_key' as const, input: { key: step.key } } : { tool: 'click' as const, input: target ? { text: target } : {} };
    const label = step.kind === 'type' ? undefined : consequentialLabel(action, this.deps.consequentialLabels ?? DEFAULT_CONSEQUENTIAL_LABELS);
    if (label) return { approval: 'required', approvalKind: 'consequential', approvalNote: `Replaying ${where}: "${label}" may not be undoable, so it asks every time.` };
    return { approval: 'skip' };
  }
}
