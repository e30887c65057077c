// One recording (Record Steps): the person's input arrives from the platform's watcher, after it
// happened and off their path; each click is anchored on a snapshot of the screen taken once the
// screen settled after the event before it (the screen they saw when they acted), one at a time
// in a queue of our own, and the whole is compiled into steps when they stop. The settled
// snapshot is taken while earlier clicks are still being anchored: a person opens a menu and
// picks its item within a second, and the item must be anchored on the open menu.
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
import type { ElementAnchor, RoutineAnchors, RoutineStep, WindowAnchor } from '../store/routineTypes';
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
  private events = 0;
  private skipped = 0;
  /** Events let through (the asker's own are not): each may change the screen. */
  private generation = 0;
  /** The screen once it settled after event `generation` (the start is 0), with its node when known. */
  private settled?: Settled;
  /** A settled snapshot being taken: its grab began before any event that arrives meanwhile. */
  private inflight?: { generation: number; promise: Promise<Settled | undefined> };
  private refreshing = false;
  private refreshAgain = false;
  /** Clicks waiting for the node of the screen they led to, by generation. */
  private readonly awaitingAfter = new Map<number, RoutineAnchors>();
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
    const [snapshot, node] = await Promise.all([
      takeSnapshot(deps.services),
      deps.identify?.(recording.abort.signal).catch(() => undefined),
      deps.services.desktop.ocr.warmUp?.().catch(() => undefined),
    ]);
    recording.settled = { snapshot, generation: 0, ...(node ? { node } : {}) };
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
    // The last click's screen after it, when it had not settled yet.
    const last = this.awaitingAfter.get(this.generation);
    if (last) {
      const node = await this.deps.identify?.(this.abort.signal).catch(() => undefined);
      if (node) last.after = node;
    }
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
    const generation = ++this.generation;
    const before = input.kind === 'key' ? undefined : this.screenBefore(generation);
    this.refreshSoon();
    this.queue = this.queue
      .then(() => this.handle(input, generation, before))
      .catch((error: unknown) => this.warn(`a ${input.kind} could not be anchored: ${error instanceof Error ? error.message : String(error)}`));
  }

  /**
   * The screen the person acted on, chosen when the event arrives (not when the queue reaches it):
   * the one settled after the event before, or the one being taken then, or, when they were
   * quicker than the screen settled, the screen now.
   */
  private screenBefore(generation: number): Promise<Settled | undefined> {
    if (this.settled?.generation === generation - 1) return Promise.resolve(this.settled);
    if (this.inflight?.generation === generation - 1) return this.inflight.promise;
    this.logger.debug('recording: an input came before the screen settled; anchored on the screen as it is now');
    const now = takeSnapshot(this.deps.services, this.abort.signal).then((snapshot) => ({ snapshot, generation }));
    return now.catch(() => undefined);
  }

  private async handle(input: RecordedInput, generation: number, before: Promise<Settled | undefined> | undefined): Promise<void> {
    const started = performance.now();
    const signal = this.abort.signal;
    if (input.kind === 'key') {
      const focus = await this.focusOf(input.window, input.seenAt);
      this.observations.push({ kind: 'key', input, secret: focus.secret, ...(focus.field ? { field: focus.field } : {}), ...this.windowPart(input.window) });
      if (input.text === undefined || input.modifiers.some((m) => m !== 'shift')) this.observed(this.observations.length - 1);
    } else {
      const screen: { snapshot: ScreenSnapshot; node?: string } = (await before) ?? { snapshot: await takeSnapshot(this.deps.services, signal) };
      const captured = await captureAnchors({ services: this.deps.services, snapshot: screen.snapshot, point: input.at, ...(input.window ? { recorded: input.window } : {}), signal });
      const anchors: RoutineAnchors = screen.node ? { ...captured, before: screen.node } : captured;
      const after = this.settled?.generation === generation ? this.settled.node : undefined;
      if (after) anchors.after = after;
      else this.awaitingAfter.set(generation, anchors);
      this.observations.push(input.kind === 'button' ? { kind: 'click', input, anchors } : { kind: 'scroll', input, anchors });
      this.observed(this.observations.length - 1);
    }
    this.anchorMs.push(performance.now() - started);
  }

  /** After each event: once the screen settles with no event since, keeps what it shows for the next (one loop at a time). */
  private refreshSoon(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    void this.refreshLoop().finally(() => (this.refreshing = false));
  }

  private async refreshLoop(): Promise<void> {
    const signal = this.abort.signal;
    try {
      do {
        this.refreshAgain = false;
        const generation = this.generation;
        await waitForSettle(this.deps.services.desktop.screen, { timeoutMs: SETTLE_MS, intervalMs: 60, signal }).catch(() => undefined);
        if (signal.aborted) return;
        if (generation !== this.generation) {
          this.refreshAgain = true; // another event came: settle after it instead
          continue;
        }
        const promise = this.settledSnapshot(generation, signal);
        this.inflight = { generation, promise };
        const settled = await promise;
        if (settled && (!this.settled || this.settled.generation < generation)) this.settled = settled;
        if (settled?.node) this.noteAfter(generation, settled.node);
      } while (this.refreshAgain && !signal.aborted);
    } catch (error) {
      if (!signal.aborted) this.logger.debug(`recording: snapshot failed: ${String(error)}`);
    }
  }

  private async settledSnapshot(generation: number, signal: AbortSignal): Promise<Settled | undefined> {
    const snapshot = await takeSnapshot(this.deps.services, signal).catch(() => undefined);
    if (!snapshot) return undefined;
    const node = await this.deps.identify?.(signal).catch(() => undefined);
    return { snapshot, generation, ...(node ? { node } : {}) };
  }

  /** The window keys went to; a dialog is marked (the last settled screen knows its type), so a replay types into none other. */
  private windowPart(window: RecordedWindow | undefined): { window?: WindowAnchor } {
    const anchor = windowAnchor(undefined, window);
    if (!anchor) return {};
    const seen = window && this.settled?.snapshot.windows.find((w) => w.id !== undefined && (w.id === window.id || Number(w.id) === Number(window.id)));
    return { window: seen?.type === 'dialog' ? { ...anchor, dialog: true } : anchor };
  }

  /** The node a click led to: kept on its anchors as `after`. */
  private noteAfter(generation: number, node: string): void {
    const anchors = this.awaitingAfter.get(generation);
    if (!anchors) return;
    anchors.after = node;
    this.awaitingAfter.delete(generation);
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

interface Settled {
  snapshot: ScreenSnapshot;
  generation: number;
  node?: string;
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
