// The routines of one brain, for every front: record one (one recording at a time), keep it,
// review and edit it, replay it without a model, export and import it as a readable file.
import { GaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ModelAccess } from '../../model/modelAccess';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { Asker } from '../../desktop/grounding/askerWindows';
import type { KeyCombo } from '../../desktop/ports/inputPort';
import type { InputRecorderPort } from '../../desktop/ports/inputRecorderPort';
import type { SecretPrompt, ToolCaller } from '../routes/pathReplayer';
import type { BrainStore } from '../store/brainStore';
import { addRoutine, editRoutine, findRoutine, forgetRoutine, proposeChange, recordRoutineRun, requireRoutine, type RoutineEdit } from '../store/routineRecords';
import type { Routine, RoutineProposal, RoutineStep } from '../store/routineTypes';
import { addImported, parseRoutineFile, routineFileText } from './routineFile';
import { RoutineRecording, type FinishedRecording, type RecordingEvents } from '../recording/routineRecorder';
import { RoutinePlayer, type PersonHelpRequest, type RoutineRunReport, type RunOptions } from './routinePlayer';
import { describeStep } from './stepWords';
import { probeSignature } from '../recognition/signatureProbe';
import { nodeBySignature } from '../recognition/screenSignature';

export interface RoutineBookDeps {
  store: BrainStore;
  services: DesktopServices;
  callTool: ToolCaller;
  /** Watches the person's input; without one (a platform that cannot) recording fails saying why. */
  recorder?: InputRecorderPort;
  asker?: Asker;
  stopHotkey?: KeyCombo;
  promptSecret?: SecretPrompt;
  consequentialLabels?: readonly string[];
  /** A vision model for steps no anchor finds; none: such a step stops (or is shown by the person). */
  models?: ModelAccess;
  logger?: Logger;
}

/** Says something to the person and whether they will do it (false: they declined, or no one can be asked). */
export type TellPerson = (message: string, signal: AbortSignal) => Promise<boolean>;

const PERSON_WAIT_MS = 60_000;

export interface SaveOptions {
  description?: string;
  /** Parameter name → the text typed when recorded that it stands for. */
  parameters?: Readonly<Record<string, string>>;
  replace?: boolean;
}


export class RoutineBook {
  private recording?: { name: string; session: RoutineRecording };

  constructor(private readonly deps: RoutineBookDeps) {}

  list(): Routine[] {
    return this.deps.store.document.routines;
  }

  find(nameOrId: string): Routine | undefined {
    return findRoutine(this.deps.store.document, nameOrId);
  }

  /** The name of the recording under way, if any. */
  get recordingName(): string | undefined {
    return this.recording?.name;
  }

  /** Starts watching the person; one recording at a time. */
  async startRecording(name: string, events: RecordingEvents = {}): Promise<void> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 100) throw new GaiError('INVALID_INPUT', 'name: must be 1 to 100 characters');
    if (this.recording) throw new GaiError('INVALID_INPUT', `name: a recording ("${this.recording.name}") is under way already; stop it first`);
    if (!this.deps.recorder) throw new GaiError('UNAVAILABLE', 'Recording is not available here: no watcher of the person\'s input on this platform');
    const placeholder = { name: trimmed, session: undefined as unknown as RoutineRecording };
    this.recording = placeholder;
    try {
      placeholder.session = await RoutineRecording.start(
        {
          port: this.deps.recorder,
          services: this.deps.services,
          identify: (signal) => this.knownNode(signal),
          ...(this.deps.asker ? { asker: this.deps.asker } : {}),
          ...(this.deps.stopHotkey ? { stopHotkey: this.deps.stopHotkey } : {}),
          ...(this.deps.logger ? { logger: this.deps.logger } : {}),
        },
        events,
      );
    } catch (error) {
      this.recording = undefined;
      throw error instanceof GaiError ? error : new GaiError('UNAVAILABLE', `Recording could not start: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The known node the screen is, by its signature alone (no OCR while the person works). */
  private async knownNode(signal: AbortSignal): Promise<string | undefined> {
    const probe = await probeSignature(this.deps.services, signal);
    return probe.observed ? nodeBySignature(this.deps.store.document.nodes, probe.observed)?.node.key : undefined;
  }

  /** Ends the recording and keeps it as a routine (nothing is kept when nothing was done). */
  async stopRecording(options: SaveOptions = {}): Promise<{ routine: Routine; recording: FinishedRecording }> {
    const active = this.recording;
    if (!active?.session) throw new GaiError('INVALID_INPUT', 'No recording is under way (start one with Record Steps)');
    this.recording = undefined;
    const recording = await active.session.stop();
    if (recording.steps.length === 0) {
      throw new GaiError('INVALID_INPUT', `Nothing was recorded for "${active.name}": no click, key or scroll reached an app${recording.skipped ? ` (${recording.skipped} event(s) in GAI's own window were left out)` : ''}`);
    }
    const routine = await this.save(active.name, recording, options);
    return { routine, recording };
  }

  /** Drops the recording under way, keeping nothing. */
  async cancelRecording(): Promise<boolean> {
    const active = this.recording;
    this.recording = undefined;
    if (!active?.session) return false;
    await active.session.cancel();
    return true;
  }

  async save(name: string, recording: Pick<FinishedRecording, 'steps'>, options: SaveOptions = {}): Promise<Routine> {
    const { result } = await this.deps.store.update((draft, context) => {
      const routine = addRoutine(draft, { name, steps: recording.steps, ...(options.description ? { description: options.description } : {}) }, context.now, options.replace ? { replace: true } : {});
      for (const [parameter, value] of Object.entries(options.parameters ?? {})) editRoutine(draft, routine.id, { kind: 'parameter', name: parameter, value }, context.now);
      return structuredClone(routine);
    });
    return result;
  }

  async edit(nameOrId: string, edit: RoutineEdit): Promise<Routine> {
    const { result } = await this.deps.store.update((draft, context) => structuredClone(editRoutine(draft, nameOrId, edit, context.now)));
    return result;
  }

  async forget(nameOrId: string): Promise<Routine> {
    const { result } = await this.deps.store.update((draft, context) => forgetRoutine(draft, nameOrId, context.now));
    return result;
  }

  /**
   * Replays it without a model and counts the run. `tellPerson`: a step that cannot be found is
   * shown to the person, who does it while GAI watches; what they did is kept as a proposed change.
   */
  async run(nameOrId: string, params: Readonly<Record<string, string>> = {}, options: RunOptions & { tellPerson?: TellPerson } = {}): Promise<RoutineRunReport> {
    await this.deps.store.reload();
    const routine = requireRoutine(this.deps.store.document, nameOrId);
    const player = new RoutinePlayer({
      services: this.deps.services,
      callTool: this.deps.callTool,
      ...(this.deps.promptSecret ? { promptSecret: this.deps.promptSecret } : {}),
      ...(this.deps.consequentialLabels ? { consequentialLabels: this.deps.consequentialLabels } : {}),
      ...(this.deps.models ? { models: this.deps.models } : {}),
    });
    const proposals: RoutineProposal[] = [];
    const { tellPerson, ...rest } = options;
    const report = await player.run(routine, params, {
      ...rest,
      ...(tellPerson && this.deps.recorder ? { askPerson: (request: PersonHelpRequest) => this.personShows(request, tellPerson) } : {}),
      onProposal: (stepId, step, reason, by) => {
        proposals.push({ stepId, step, reason: reason.slice(0, 500), by, at: new Date().toISOString() });
        rest.onProposal?.(stepId, step, reason, by);
      },
    });
    if (proposals.length) await this.deps.store.update((draft) => proposals.forEach((p) => proposeChange(draft, routine.id, p)));
    if (!report.denied) {
      await this.deps.store.update((draft, context) => recordRoutineRun(draft, routine.id, { success: report.ok, ...(report.failedStep !== undefined ? { failedStep: report.failedStep } : {}), ...(report.reason ? { reason: report.reason } : {}) }, context.now));
    }
    return report;
  }

  /** Tells the person what is missing and watches their next click or scroll there (a minute at most). */
  private async personShows(request: PersonHelpRequest, tellPerson: TellPerson): Promise<RoutineStep | undefined> {
    const { step, routine, index, signal } = request;
    const what = step.kind === 'scroll' ? 'scroll' : 'click';
    const told = await tellPerson(`Step ${index + 1} of "${routine.name}" (${describeStep(step)}): ${request.problem}. Do it yourself now; GAI watches your next ${what} and proposes it as the step's new way.`, signal);
    if (!told || !this.deps.recorder) return undefined;
    let seen: (step: RoutineStep) => void = () => undefined;
    const shown = new Promise<RoutineStep>((resolve) => (seen = resolve));
    // No stop hotkey here: the run's own watch holds it.
    const session = await RoutineRecording.start({ port: this.deps.recorder, services: this.deps.services, ...(this.deps.asker ? { asker: this.deps.asker } : {}) }, { onObserved: (_line, observed) => observed.kind === step.kind && seen(observed) });
    const timeout = new Promise<undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), PERSON_WAIT_MS);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
    const got = await Promise.race([shown, timeout]);
    const finished = await session.stop();
    if (!got) return undefined;
    const done = finished.steps.find((s) => s.kind === step.kind);
    return done ? { ...done, id: step.id } : undefined;
  }

  /** A file a person can read and another machine import (pictures left out). */
  exportFile(nameOrId: string): string {
    return routineFileText(requireRoutine(this.deps.store.document, nameOrId));
  }

  /** Imports a routine file: it asks at every step until the person confirms it. */
  async importFile(text: string, options: { replace?: boolean } = {}): Promise<Routine> {
    const incoming = parseRoutineFile(text);
    const { result } = await this.deps.store.update((draft, context) => addImported(draft, incoming, context.now, options));
    return result;
  }
}
