// One recording (Record Steps): the person's input arrives from the platform's watcher, after it
// happened and off their path; each event is anchored on a snapshot of the screen taken once the
// screen settled after the event before it (the screen they saw when they acted), one at a time
// in a queue of our own, and the whole is compiled into steps when they stop.
import type { Logger } from '../../common/logger';
import type { SecretRedactor } from '../../common/redact';
import { NullLogger } from '../../common/logger';
import type { DesktopServices } from '../../desktop/desktopServices';
import { isAskerWindow, type Asker } from '../../desktop/grounding/askerWindows';
import type { KeyCombo } from '../../desktop/ports/inputPort';
import type { InputRecorderPort, InputRecording, RecordedInput, RecordedWindow } from '../../desktop/ports/inputRecorderPort';
import { waitForSettle } from '../../desktop/reading/settle';
import { isSecretRole } from '../../desktop/reading/screenPrivacy';
import { captureAnchors, takeSnapshot, windowAnchor, type ScreenSnapshot } from './anchorCapture';
import { compileSteps, type CompiledRecording, type Observation } from './stepCompiler';
import type { ElementAnchor, RoutineAnchors, RoutineStep } from '../store/routineTypes';
import { describeStep } from '../routines/stepWords';

export interface RecorderDeps {
  port: InputRecorderPort;
  services: DesktopServices;
  /** The windows the request came from (the terminal running `gai record`, the editor): their input is not the task. */
  asker?: Asker;
  stopHotkey?: KeyCombo;
  logger?: Logger;
  /** The brain's node the screen shows now, when it is known cheaply (no OCR); kept on each click as before/after. */
  identify?(signal: AbortSignal): Promise<string | undefined>;
}

export interface RecordingEvents {
  /** Each step as it was understood (typing is shown when the field changes or at the end). */
  onObserved?(description: string, step: RoutineStep): void;
  /** The person pressed the stop hotkey: the front ends the recording. */
  onStopHotkey?(): void;
  onWarning?(message: string): void;
}

export interface FinishedRecording extends CompiledRecording {
  /** Events watched, and those left out (the asker's own windows). */
  events: number;
  skipped: number;
  durationMs: number;
  /** How long anchoring took per event, after the event (never on the person's path). */
  anchorMs: number[];
  warnings: string[];
}

const SETTLE_MS = 1_500;

export class RoutineRecording {
  private readonly observations: Observation[] = [];
  private readonly warnings: string[] = [];
  private readonly anchorMs: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private events = 0;
  private skipped = 0;
  private snapshot?: ScreenSnapshot;
  /** The brain's node of the settled screen, when known; and the last click's anchors, which get it as `after`. */
  private node?: string;
  private lastClickAnchors?: RoutineAnchors;
  private watch?: InputRecording;
  private focus?: { at: number; window?: string; field?: ElementAnchor; secret: boolean };
  private readonly started = performance.now();
  private readonly abort = new AbortController();
  private readonly logger: Logger;

  private constructor(
    private readonly deps: RecorderDeps,
    private readonly events_: RecordingEvents,
  ) {
    this.logger = deps.logger ?? new NullLogger();
  }

  /** Starts watching once the first snapshot is taken (what the screen shows before the first input). */
  static async start(deps: RecorderDeps, events: RecordingEvents = {}): Promise<RoutineRecording> {
    const recording = new RoutineRecording(deps, events);
    // A cold OCR made the first click's anchoring take ~3 s: the person's next click came before
    // the screen after the first was kept, and was anchored on the screen after it instead.
    const [snapshot] = await Promise.all([takeSnapshot(deps.services), deps.services.desktop.ocr.warmUp?.().catch(() => undefined)]);
    recording.snapshot = snapshot;
    recording.watch = await deps.port.record(deps.stopHotkey ? { stopHotkey: deps.stopHotkey } : {}, {
      onInput: (input) => recording.enqueue(input),
      onStop: () => events.onStopHotkey?.(),
      onWarning: (message) => recording.warn(message),
    });
    return recording;
  }

  /** Ends the watch, anchors what is still queued, and compiles the steps. */
  async stop(): Promise<FinishedRecording> {
    await this.watch?.stop();
    await this.queue;
    if (this.lastClickAnchors && !this.lastClickAnchors.after) await this.noteNode(this.abort.signal);
    this.abort.abort();
    const compiled = secretsKept(compileSteps(this.observations), this.deps.services.redactor);
    return { ...compiled, events: this.events, skipped: this.skipped, durationMs: performance.now() - this.started, anchorMs: this.anchorMs, warnings: this.warnings };
  }

  /** Drops the recording: the watch ends and nothing is compiled. */
  async cancel(): Promise<void> {
    this.abort.abort();
    await this.watch?.stop().catch(() => undefined);
  }

  private enqueue(input: RecordedInput): void {
    this.events += 1;
    if (input.window && this.deps.asker && isAskerWindow({ title: input.window.title, appName: input.window.app ?? '', bounds: { x: 0, y: 0, width: 0, height: 0 }, id: input.window.id, ...(input.window.pid !== undefined ? { pid: input.window.pid } : {}) }, this.deps.asker)) {
      this.skipped += 1;
      return;
    }
    this.pending += 1;
    this.queue = this.queue
      .then(() => this.handle(input))
      .catch((error: unknown) => this.warn(`a ${input.kind} could not be anchored: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.pending -= 1;
      })
      .then(() => (this.pending === 0 && !this.abort.signal.aborted ? this.refresh() : undefined))
      .catch((error: unknown) => this.logger.debug(`recording: snapshot failed: ${String(error)}`));
  }

  private async handle(input: RecordedInput): Promise<void> {
    const started = performance.now();
    const signal = this.abort.signal;
    if (input.kind === 'key') {
      const focus = await this.focusOf(input.window, input.seenAt);
      this.observations.push({ kind: 'key', input, secret: focus.secret, ...(focus.field ? { field: focus.field } : {}), ...windowPart(input.window) });
      if (input.text === undefined || input.modifiers.some((m) => m !== 'shift')) this.observed(this.observations.length - 1);
    } else {
      const snapshot = this.snapshot ?? (await takeSnapshot(this.deps.services, signal));
      if (snapshot.takenAt > input.seenAt) this.logger.debug('recording: the input came before the screen settled; anchored on the screen after it');
      const captured = await captureAnchors({ services: this.deps.services, snapshot, point: input.at, ...(input.window ? { recorded: input.window } : {}), signal });
      const anchors = this.node ? { ...captured, before: this.node } : captured;
      this.lastClickAnchors = anchors;
      this.observations.push(input.kind === 'button' ? { kind: 'click', input, anchors } : { kind: 'scroll', input, anchors });
      this.observed(this.observations.length - 1);
      // What the click changed is not on this snapshot any more.
      this.snapshot = undefined;
    }
    this.anchorMs.push(performance.now() - started);
  }

  /** Once nothing is queued: waits for the screen to settle and keeps what it shows for the next input. */
  private async refresh(): Promise<void> {
    const signal = this.abort.signal;
    await waitForSettle(this.deps.services.desktop.screen, { timeoutMs: SETTLE_MS, intervalMs: 60, signal }).catch(() => undefined);
    if (this.pending > 0 || signal.aborted) return; // the next input came meanwhile: it takes its own
    this.snapshot = await takeSnapshot(this.deps.services, signal);
    await this.noteNode(signal);
  }

  /** The screen's node now: the one the last click led to, and the one the next starts from. */
  private async noteNode(signal: AbortSignal): Promise<void> {
    this.node = await this.deps.identify?.(signal).catch(() => undefined);
    if (this.node && this.lastClickAnchors && !this.lastClickAnchors.after) this.lastClickAnchors.after = this.node;
  }

  /** The focused field of the window keys go to (asked again when the window changes or a second passed). */
  private async focusOf(window: RecordedWindow | undefined, at: number): Promise<{ field?: ElementAnchor; secret: boolean }> {
    const known = this.focus;
    if (known && known.window === window?.id && at - known.at < 1_000) return known;
    const tree = this.deps.services.desktop.accessibility;
    const focused = tree?.focusedElement ? await tree.focusedElement(this.abort.signal).catch(() => undefined) : undefined;
    const privateWindow = window !== undefined && this.deps.services.privacy.isPrivateWindow({ title: window.title, appName: window.app ?? '', bounds: { x: 0, y: 0, width: 0, height: 0 } }) !== undefined;
    const field = focused ? { role: focused.role || 'unknown', name: focused.name.slice(0, 300), ancestors: [] } : undefined;
    this.focus = { at, ...(window ? { window: window.id } : {}), ...(field ? { field } : {}), secret: privateWindow || (focused !== undefined && isSecretRole(focused.role)) };
    return this.focus;
  }

  private observed(index: number): void {
    if (!this.events_.onObserved) return;
    // The line a person sees is as careful as what is kept: a token typed shows as a secret.
    const { steps } = secretsKept(compileSteps(this.observations.slice(0, index + 1)), this.deps.services.redactor);
    const last = steps.at(-1);
    if (last) this.events_.onObserved(describeStep(last), last);
  }

  private warn(message: string): void {
    if (this.warnings.includes(message)) return;
    this.warnings.push(message);
    this.events_.onWarning?.(message);
  }
}

/** Typed text that looks like a credential (a token's shape, a known key, a configured pattern) is kept as a secret: its length only. */
function secretsKept(compiled: CompiledRecording, redactor: SecretRedactor): CompiledRecording {
  const steps = compiled.steps.map((step): RoutineStep => {
    if (step.kind !== 'type' || step.text === undefined || !redactor.isSecret(step.text)) return step;
    const { text, ...rest } = step;
    return { ...rest, secret: true, length: Math.max(1, [...text].length) };
  });
  return { steps, typed: compiled.typed.filter((text) => !redactor.isSecret(text)) };
}

function windowPart(window: RecordedWindow | undefined): { window?: ReturnType<typeof windowAnchor> & object } {
  const anchor = windowAnchor(undefined, window);
  return anchor ? { window: anchor } : {};
}
