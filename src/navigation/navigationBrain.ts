// The navigation brain (seed 000 §4): knows which screen it is on without a model, replays a
// learned way to a target without a model, and learns (or repairs) a way with the model only
// when nothing known serves or a replay fails.
import type { AgentEvent } from '../agent/agentEvents';
import { GaiError } from '../common/errors';
import type { DesktopServices } from '../desktop/desktopServices';
import type { Logger } from '../common/logger';
import { NullLogger } from '../common/logger';
import type { ScreenImage } from '../desktop/ports/screenPort';
import type { BrainNode, BrainPath, PathAction } from './store/brainTypes';
import { getPathsFrom, planNavigation, type Route } from './routes/brainGraph';
import { addPath, addTarget, createPath, findNode, findPath, markVisited, recordRun, replaceActions, upsertNode } from './store/brainRecords';
import type { BrainStore } from './store/brainStore';
import type { NavigationLearner } from './learning/navigationLearner';
import type { SecretPrompt } from './routes/pathReplayer';
import { tryMakeThumbnail } from './recognition/nodeThumbnail';
import { replayPath, type ReplayStep, type ToolCaller } from './routes/pathReplayer';
import { ReplayWatch, type PeekResult } from './routes/replayWatch';
import { stepApproval } from './routes/replayApproval';
import { observeScreen } from './recognition/screenObserver';
import { absorbSignature, nodeBySignature, type ObservedSignature } from './recognition/screenSignature';
import { probeSignature, type SignatureProbe } from './recognition/signatureProbe';
import { RoutineBook } from './routines/routineBook';
import type { InputRecorderPort } from '../desktop/ports/inputRecorderPort';
import type { Asker } from '../desktop/grounding/askerWindows';
import type { KeyCombo } from '../desktop/ports/inputPort';
import type { ModelAccess } from '../model/modelAccess';
import { identifyState, type Identification, type NodeLabeller } from './recognition/stateIdentifier';

export interface NavigationReport {
  target: string;
  success: boolean;
  /** already-there: nothing to do; replayed: known paths, no model; learned / repaired: the model found the way. */
  how: 'already-there' | 'replayed' | 'learned' | 'repaired' | 'failed';
  /** `programName::stateHash` of the screen at the end. */
  currentNode: string;
  currentLabel: string;
  /** Actions run: replayed and learned. */
  steps: number;
  modelCalls: number;
  durationMs: number;
  /** The paths used, learned or repaired. */
  pathIds: string[];
  message: string;
  /** A replay that failed on the way (learning then took over from there). */
  replayFailure?: { pathId: string; step: number; reason: string };
  /**
   * Steps that were refused (not approved, not permitted, an app not allowed), in the refusal's
   * words. A navigation with any fails: nothing is learned and no path is marked failed.
   */
  denied?: string[];
}

export interface NavigationBrainDeps {
  store: BrainStore;
  services: DesktopServices;
  /** Runs a tool (click, type_text, …) for a replay; the person approved the navigation itself. */
  callTool: ToolCaller;
  /** Without one (no model configured) nothing new can be learned; known paths still replay. */
  learner?: NavigationLearner;
  /** Asks the person for a secret a learned step typed (never stored); without it such steps fail. */
  promptSecret?: SecretPrompt;
  /** Asked to label NEW nodes only, and only when configured. */
  labeller?: NodeLabeller;
  logger?: Logger;
  settleTimeoutMs?: number;
  /** Keep a small picture of each screen in the brain (default true); off keeps no pixels on disk. */
  thumbnails?: boolean;
  /** Labels whose replayed clicks ask every time (default DEFAULT_CONSEQUENTIAL_LABELS). */
  consequentialLabels?: readonly string[];
  /** Watches the person's input for Record Steps; without one recording says why it cannot. */
  recorder?: InputRecorderPort;
  /** The windows requests come from: a recording leaves their input out. */
  asker?: Asker;
  /** Ends a recording from any window (and is not recorded). */
  stopHotkey?: KeyCombo;
  /** A vision model for routine steps no anchor finds (a proposal the person approves); none: those steps stop. */
  models?: ModelAccess;
}

/** The brain, opened on first use (opening reads the stored document). */
export type BrainProvider = () => Promise<NavigationBrain>;

export interface NavigateOptions {
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Each replayed step as it ends, with where its time went (benchmarks, logs). */
  onStep?: (step: ReplayStep) => void;
  /** The learning agent's events (its tool calls and approvals), when the way is learned with the model. */
  onEvent?: (event: AgentEvent) => void;
}

/** Follows every navigation, whoever started it (the navigate_to tool in a chat, for its host). */
export type NavigationObserver = Pick<NavigateOptions, 'onProgress' | 'onStep' | 'onEvent'>;



interface ReplayFailure {
  path: BrainPath;
  /** The step that failed (for a wrong arrival: the last one). */
  step: number;
  /** How many of the path's actions ran and did what they should: a repair keeps them. */
  ran: number;
  reason: string;
}

export class NavigationBrain {
  private currentKey?: string;
  private readonly logger: Logger;
  private readonly observers = new Set<NavigationObserver>();

  /** Tasks the person showed once, replayed by their anchors without a model. */
  readonly routines: RoutineBook;

  constructor(private readonly deps: NavigationBrainDeps) {
    this.logger = deps.logger ?? new NullLogger();
    const { store, services, callTool, recorder, asker, stopHotkey, promptSecret, consequentialLabels, models } = deps;
    this.routines = new RoutineBook({ store, services, callTool, logger: this.logger, ...{ recorder, asker, stopHotkey, promptSecret, consequentialLabels, models } });
  }

  get store(): BrainStore {
    return this.deps.store;
  }

  /** Re-reads the stored brain (another window or the CLI may have learned meanwhile). */
  async initialize(): Promise<string[]> {
    return (await this.deps.store.reload()).warnings;
  }

  getAllNodes(): BrainNode[] {
    return this.deps.store.document.nodes;
  }

  getPathsFrom(key: string): BrainPath[] {
    return getPathsFrom(this.deps.store.document, key);
  }

  /** The node identified last (undefined before the first identification). */
  getCurrentNodeId(): string | undefined {
    return this.currentKey;
  }

  /**
   * Finds (or adds) the screen's node; no model unless a labeller names a new one. The window
   * and its signature first: one known node matching it (and already pictured) is the answer
   * without OCR; otherwise the screen is read and the node's signature learns from it.
   */
  async identifyCurrentNode(signal?: AbortSignal): Promise<Identification> {
    const probe = await this.probe(signal);
    const quick = probe.observed ? nodeBySignature(this.deps.store.document.nodes, probe.observed) : undefined;
    if (quick && (quick.node.thumbnail || this.deps.thumbnails === false)) {
      const { result: node } = await this.deps.store.update((draft, context) => markVisited(draft, quick.node.key, context.now));
      this.currentKey = node.key;
      return { node, similarity: 1, isNew: false, matchedBy: 'signature' };
    }
    const observed = await observeScreen(this.deps.services, signal, { ...(probe.full ? { frame: probe.frame } : {}), window: probe.window ?? null });
    const found = await identifyState(observed.reading, this.deps.store.document.nodes, { ...(this.deps.labeller ? { labeller: this.deps.labeller } : {}) });
    // A known node without one (older brains, or pruned) gets it too: upsertNode keeps the first.
    const thumbnail = found.node.thumbnail || this.deps.thumbnails === false
      ? undefined
      : await tryMakeThumbnail(
          this.deps.services.desktop.images,
          observed.image,
          { ...(observed.window ? { bounds: observed.window.bounds } : {}), maxBytes: this.deps.store.maxThumbnailBytes },
          this.logger,
        );
    const seen = thumbnail ? { ...found.node, thumbnail } : found.node;
    const { result: node } = await this.deps.store.update((draft, context) => {
      const stored = upsertNode(draft, seen);
      if (probe.observed) stored.signature = absorbSignature(stored.signature, probe.observed);
      return found.isNew ? stored : markVisited(draft, stored.key, context.now);
    });
    this.currentKey = node.key;
    return { ...found, node };
  }

  /** Which known node the screen is, without adding a new one (undefined: none matches); the signature first. */
  async peekCurrentNode(signal?: AbortSignal): Promise<BrainNode | undefined> {
    return (await this.peek(signal)).node;
  }

  /** `frame`: a full-screen frame grabbed already (after settling). */
  private async peek(signal?: AbortSignal, frame?: ScreenImage): Promise<PeekResult> {
    const probe = await this.probe(signal, frame);
    const quick = probe.observed ? nodeBySignature(this.deps.store.document.nodes, probe.observed) : undefined;
    if (quick) return { node: quick.node, by: 'signature', observed: probe.observed };
    const observed = await observeScreen(this.deps.services, signal, { ...(probe.full ? { frame: probe.frame } : {}), window: probe.window ?? null });
    const found = await identifyState(observed.reading, this.deps.store.document.nodes, {});
    return { ...(found.isNew ? {} : { node: found.node }), by: 'ocr', ...(probe.observed ? { observed: probe.observed } : {}) };
  }

  /** Adds an observer of every navigation's progress and steps; returns how to remove it. */
  observe(observer: NavigationObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  async navigateTo(target: string, options: NavigateOptions = {}): Promise<NavigationReport> {
    const signal = options.signal ?? new AbortController().signal;
    const observers = [options, ...this.observers];
    const progress = (message: string): void => observers.forEach((o) => o.onProgress?.(message));
    const onStep = (step: ReplayStep): void => observers.forEach((o) => o.onStep?.(step));
    const onEvent = (event: AgentEvent): void => observers.forEach((o) => o.onEvent?.(event));
    const started = performance.now();
    const trimmed = target.trim();
    if (trimmed === '') throw new GaiError('INVALID_INPUT', 'target: must name where to go');
    const here = await this.identifyCurrentNode(signal);
    const plan = planNavigation(this.deps.store.document, here.node.key, trimmed);
    const report = (fields: Omit<NavigationReport, 'target' | 'durationMs' | 'currentNode' | 'currentLabel'>, at: BrainNode): NavigationReport => ({
      target: trimmed,
      currentNode: at.key,
      currentLabel: at.label,
      durationMs: performance.now() - started,
      ...fields,
    });
    if (plan.kind === 'arrived') {
      return report({ success: true, how: 'already-there', steps: 0, modelCalls: 0, pathIds: [], message: `Already at "${here.node.label}".` }, here.node);
    }

    let steps = 0;
    let failure: ReplayFailure | undefined;
    if (plan.kind === 'route') {
      progress(`Replaying ${plan.route.paths.length} learned path(s) to "${trimmed}"…`);
      const replay = await this.replayRoute(plan.route, signal, progress, onStep);
      steps += replay.steps;
      failure = replay.failure;
      if (!failure) {
        const arrival = await this.identifyCurrentNode(signal);
        const last = plan.route.paths.at(-1)!;
        if (arrival.node.key === plan.nodeKey || planNavigation(this.deps.store.document, arrival.node.key, trimmed).kind === 'arrived') {
          await this.deps.store.update((draft, context) => {
            for (const [index, path] of plan.route.paths.entries()) recordRun(draft, path.id, { success: true, durationMs: replay.durations[index] ?? 0 }, context);
            const stored = findPath(draft, last.id);
            if (stored) addTarget(stored, trimmed);
          });
          return report(
            { success: true, how: 'replayed', steps, modelCalls: 0, pathIds: plan.route.paths.map((p) => p.id), message: `Arrived at "${arrival.node.label}" by replaying ${steps} step(s), no model.` },
            arrival.node,
          );
        }
        failure = { path: last, step: last.actions.length - 1, ran: last.actions.length, reason: `arrived at "${arrival.node.label}" instead of the target` };
      }
      if (replay.denied) {
        const why = failure.reason;
        this.logger.warn(`navigation: replay of path ${failure.path.id} stopped: ${why}`);
        const at = (await this.identifyCurrentNode(signal)).node;
        const replayFailure = { pathId: failure.path.id, step: failure.step, reason: why };
        return report({ success: false, how: 'failed', steps, modelCalls: 0, pathIds: [], denied: [why], replayFailure, message: deniedMessage(trimmed, 1, why) }, at);
      }
      const failed = failure;
      await this.deps.store.update((draft, context) => {
        // The paths before the failed one did their part.
        const done = plan.route.paths.slice(0, plan.route.paths.findIndex((p) => p.id === failed.path.id));
        for (const [index, path] of done.entries()) recordRun(draft, path.id, { success: true, durationMs: replay.durations[index] ?? 0 }, context);
        recordRun(draft, failed.path.id, { success: false, durationMs: 0, failedStep: failed.step, reason: failed.reason.slice(0, 300) }, context);
      });
      this.logger.warn(`navigation: replay of path ${failure.path.id} failed: ${failure.reason}`);
      progress(`A learned step failed (${failure.reason}); learning from here…`);
    }
    return this.learn(trimmed, signal, progress, steps, failure, report, onEvent);
  }

  private async replayRoute(
    route: Route,
    signal: AbortSignal,
    progress: (message: string) => void,
    onStep?: (step: ReplayStep) => void,
  ): Promise<{ steps: number; durations: number[]; failure?: ReplayFailure; denied?: boolean }> {
    const durations: number[] = [];
    let steps = 0;
    // Counted over the whole route: "Step 4 of 5" even when the route joins several paths.
    const total = route.paths.reduce((sum, path) => sum + path.actions.length, 0);
    for (const path of route.paths) {
      const before = steps;
      const watch = new ReplayWatch({
        screen: this.deps.services.desktop.screen,
        windows: this.deps.services.desktop.windows,
        peek: (signal, frame) => this.peek(signal, frame),
        teach: (key, observed) => this.teachSignature(key, observed),
        labelOf: (key) => this.deps.store.document.nodes.find((n) => n.key === key)?.label ?? key,
      });
      const replay = await replayPath(path, {
        callTool: this.deps.callTool,
        settle: (timeoutMs, s) => watch.settle(timeoutMs, s),
        signal,
        settleTimeoutMs: this.deps.settleTimeoutMs,
        ...(this.deps.promptSecret ? { promptSecret: this.deps.promptSecret } : {}),
        onStepStart: (start) => progress(stepProgressText(before + start.index, total, start.action)),
        onStep: (step: ReplayStep) => {
          progress(`${step.ok ? '✓' : '✗'} ${step.action}`);
          onStep?.(step);
        },
        approvalFor: (index, action) => stepApproval(path, index, action, this.deps.consequentialLabels),
        verifier: watch.verifier(),
      });
      steps += replay.steps.length;
      durations.push(replay.durationMs);
      if (!replay.ok) {
        const step = replay.failedStep ?? 0;
        return { steps, durations, failure: { path, step, ran: step, reason: replay.reason ?? 'failed' }, ...(replay.denied ? { denied: true } : {}) };
      }
    }
    return { steps, durations };
  }

  private async learn(
    target: string,
    signal: AbortSignal,
    progress: (message: string) => void,
    stepsSoFar: number,
    failure: ReplayFailure | undefined,
    report: (fields: Omit<NavigationReport, 'target' | 'durationMs' | 'currentNode' | 'currentLabel'>, at: BrainNode) => NavigationReport,
    onEvent: (event: AgentEvent) => void,
  ): Promise<NavigationReport> {
    const replayFailure = failure ? { pathId: failure.path.id, step: failure.step, reason: failure.reason } : undefined;
    const from = await this.identifyCurrentNode(signal);
    if (!this.deps.learner) {
      const why = failure ? `the learned way failed (${failure.reason})` : `nothing known leads to "${target}"`;
      return report(
        { success: false, how: 'failed', steps: stepsSoFar, modelCalls: 0, pathIds: [], message: `Cannot navigate: ${why}, and no model is configured to learn the way.`, ...(replayFailure ? { replayFailure } : {}) },
        from.node,
      );
    }
    progress(`Learning the way to "${target}" with the model…`);
    const context = failure
      ? `A way learned earlier failed at ${failure.reason}. The screen is where that way stopped; continue from here.`
      : undefined;
    // Each learned step records the screen it led to, as this brain knows it.
    const reachedNode = async (stepSignal: AbortSignal): Promise<string> => (await this.identifyCurrentNode(stepSignal)).node.key;
    const learned = await this.deps.learner.learn({ target, signal, onEvent, reachedNode, ...(context ? { context } : {}) });
    const steps = stepsSoFar + learned.actions.length;
    const arrival = await this.identifyCurrentNode(signal);
    const base = { steps, modelCalls: learned.modelCalls, ...(replayFailure ? { replayFailure } : {}) };
    if (learned.denied?.length) {
      // Whatever the model claimed: a refused step means the way was not walked (and is not learned).
      const message = deniedMessage(target, learned.denied.length, learned.denied[0]!);
      return report({ ...base, success: false, how: 'failed', pathIds: [], denied: learned.denied, message }, arrival.node);
    }
    if (!learned.success) {
      return report({ ...base, success: false, how: 'failed', pathIds: [], message: `Could not reach "${target}": ${learned.summary}` }, arrival.node);
    }
    if (learned.actions.length === 0) {
      return report({ ...base, success: true, how: 'already-there', pathIds: [], message: `The model found the target already on screen: ${learned.summary}` }, arrival.node);
    }
    const repairing = failure && arrival.node.key === failure.path.to ? failure : undefined;
    const { result: path } = await this.deps.store.update((draft, ctx) => {
      if (repairing) {
        // The steps before the failure still work; the learned ones replace the rest.
        const prefix: PathAction[] = repairing.path.actions.slice(0, repairing.ran);
        const repaired = replaceActions(draft, repairing.path.id, [...prefix, ...learned.actions], ctx);
        // Every step of it now ran with the person's approval (an untrusted step asks before it
        // runs; learned ones were approved as they ran): it is theirs.
        delete repaired.trust;
        addTarget(repaired, target);
        return repaired;
      }
      return addPath(draft, createPath({ from: from.node.key, to: arrival.node.key, actions: learned.actions, target, durationMs: learned.durationMs }, ctx));
    });
    const how = repairing ? 'repaired' : 'learned';
    return report(
      {
        ...base,
        success: true,
        how,
        pathIds: [path.id],
        message: `${repairing ? 'Repaired the way' : 'Learned the way'} to "${arrival.node.label}" (${path.actions.length} step(s), ${learned.modelCalls} model call(s)); next time it replays without the model.`,
      },
      arrival.node,
    );
  }

  private probe(signal?: AbortSignal, frame?: ScreenImage): Promise<SignatureProbe> {
    return probeSignature(this.deps.services, signal, frame);
  }

  /** OCR confirmed the node: its signature learns the screen (what changed becomes volatile). */
  private async teachSignature(key: string, observed: ObservedSignature): Promise<void> {
    await this.deps.store.update((draft) => {
      const node = findNode(draft, key);
      if (node) node.signature = absorbSignature(node.signature, observed);
    });
  }
}

/** The failure of a navigation whose steps were refused, with the first refusal's words. */
function deniedMessage(target: string, count: number, first: string): string {
  return `Could not reach "${target}": ${count === 1 ? 'a step was' : `${count} steps were`} not allowed, so nothing was learned. ${first}`;
}

/** What a host shows while a learned route runs: "Step 2 of 3: click "Network"" (index 0-based). */
export function stepProgressText(index: number, total: number, action: string): string {
  return `Step ${index + 1} of ${total}: ${action}`;
}
