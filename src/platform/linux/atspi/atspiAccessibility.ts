import type { BBox } from '../../../common/geometry';
import type { AccessibilityPort, AccessibilityQueryOptions, AccessibleElement, ElementAction, FocusedElement } from '../../../desktop/ports/accessibilityPort';
import { DesktopBridge } from '../desktopBridge';

// Linux accessibility through AT-SPI, read by Debian's python3-gi + gir1.2-atspi-2.0 in the
// desktop bridge's long-lived helper (no native Node module). GTK3 apps register with AT-SPI by
// themselves: on a display without a session bus, GLib autolaunches one tied to that X display
// and the a11y bus launcher publishes its address on the root window (AT_SPI_BUS), which the
// helper then finds through DISPLAY alone. The helper also sets org.a11y.Status IsEnabled, so
// Chromium, Electron and Qt apps started afterwards register too.

export interface AtspiOptions {
  /** Bound on one elements() call; default 5 s. */
  timeoutMs?: number;
  /** Bound on the first available() check, which may start the helper, the session and a11y buses; default 8 s. */
  probeTimeoutMs?: number;
  /** Caps so huge trees (long lists, documents) stay fast; defaults 60 levels, 4000 nodes. */
  maxDepth?: number;
  maxNodes?: number;
  /** Overrides the interpreter (default /usr/bin/python3 when present, else python3 on PATH). */
  python?: string;
}

interface ScriptElement {
  name: string;
  role: string;
  box: [number, number, number, number];
  states: string[];
  text?: string;
  textCut?: boolean;
  popups?: Array<[number, number, number, number]>;
  /** Named ancestors below the window, outermost first (left out when none). */
  ancestors?: Array<{ role: string; name: string }>;
  ref?: string;
}

interface ScriptWindow {
  window: { name: string; role: string; active: boolean };
  app: string;
  pid: number | null;
  /** The application's bus name: with an element's ref, the element's handle. */
  bus?: string;
  elements: ScriptElement[];
}

/**
 * Reads the accessibility tree of the display in `env`. Nothing runs until the first call. The
 * helper caches each top-level window's walk until its application sends an AT-SPI event or the
 * window moves, so reading an unchanged window again costs a round trip, not a walk.
 */
/** What one read of the tree did: windows read, from the cache, nodes walked, windows walked anew ("title ms why"). */
export interface ReadStats {
  windows: number;
  cached: number;
  visited: number;
  walked: string[];
}

export class AtspiAccessibility implements AccessibilityPort {
  readonly name = 'at-spi';
  private readonly bridge: DesktopBridge;
  private readonly ownsBridge: boolean;
  private availability: Promise<boolean> | undefined;
  private lastProblem: string | undefined;
  private status: string | undefined;
  private lastStats: ReadStats | undefined;

  /** `bridge`: shared with X11Windows by the composition root; by default one of its own. */
  constructor(
    env: NodeJS.ProcessEnv = process.env,
    private readonly options: AtspiOptions = {},
    bridge?: DesktopBridge,
  ) {
    this.ownsBridge = bridge === undefined;
    this.bridge = bridge ?? new DesktopBridge(env, { python: options.python });
  }

  /** Why available() said no, for messages; undefined when it said yes or has not run. */
  get unavailableReason(): string | undefined {
    return this.lastProblem;
  }

  /** The last elements() read: windows read, how many of them came from the cache, nodes walked, and the windows walked anew ("title ms why"). */
  get lastRead(): ReadStats | undefined {
    return this.lastStats;
  }

  /** Whether the helper could turn on org.a11y.Status IsEnabled ('enabled' or why not), after available(). */
  get enableStatus(): string | undefined {
    return this.status;
  }

  available(): Promise<boolean> {
    this.availability ??= this.bridge.request('probe', {}, { timeoutMs: this.options.probeTimeoutMs ?? 8_000 }).then(
      (answer) => {
        this.status = typeof answer.status === 'string' ? answer.status : undefined;
        return true;
      },
      (error: unknown) => {
        this.lastProblem = error instanceof Error ? error.message : String(error);
        return false;
      },
    );
    return this.availability;
  }

  async elements(options: AccessibilityQueryOptions & { fresh?: boolean } = {}): Promise<AccessibleElement[]> {
    const answer = await this.ask('elements', { active: options.activeWindowOnly !== false, fresh: options.fresh === true }, options.signal);
    const windows = (answer.windows ?? []) as ScriptWindow[];
    const walked = Array.isArray(answer.walked) ? answer.walked.filter((w): w is string => typeof w === 'string') : [];
    this.lastStats = { windows: windows.length, cached: Number(answer.cached ?? 0), visited: Number(answer.visited ?? 0), walked };
    return windows.flatMap((w) => w.elements.map((raw) => toElement(raw, w))).sort(readingOrder);
  }

  /**
   * Top-level windows as the toolkit reports them (boxes as reported: on Wayland relative to
   * themselves), without a walk: the active one alone, or every showing one.
   */
  async topLevels(activeOnly: boolean, signal?: AbortSignal): Promise<TopLevel[]> {
    const answer = await this.ask('toplevels', { active: activeOnly }, signal);
    return ((answer.windows ?? []) as Array<Omit<TopLevel, 'box'> & { box: [number, number, number, number] }>).map((w) => {
      const [x, y, width, height] = w.box;
      return { window: w.window, app: w.app, ...(typeof w.pid === 'number' ? { pid: w.pid } : {}), box: { x, y, width, height } };
    });
  }

  async textBoxes(text: string, options: AccessibilityQueryOptions = {}): Promise<AccessibleElement[]> {
    const answer = await this.ask('text', { active: options.activeWindowOnly !== false, query: text }, options.signal);
    const windows = (answer.windows ?? []) as ScriptWindow[];
    return windows.flatMap((w) => w.elements.map((raw) => toElement(raw, w))).sort(readingOrder);
  }

  async focusedElement(signal?: AbortSignal): Promise<FocusedElement | undefined> {
    const answer = await this.ask('focused', {}, signal);
    const focused = answer.focused as FocusedElement | null | undefined;
    return focused ? { name: focused.name, role: focused.role, states: focused.states } : undefined;
  }

  async perform(ref: string, action: ElementAction, signal?: AbortSignal): Promise<string> {
    const space = ref.indexOf(' ');
    if (space <= 0) throw new Error(`AT-SPI: "${ref}" is not an element's handle`);
    const answer = await this.ask('act', { bus: ref.slice(0, space), ref: ref.slice(space + 1), kind: action.dryRun ? 'check' : action.kind }, signal, false);
    return typeof answer.action === 'string' ? answer.action : action.kind;
  }

  async insertText(text: string, signal?: AbortSignal): Promise<void> {
    await this.ask('insert', { text }, signal, false);
  }

  async treeDigest(signal?: AbortSignal): Promise<string | undefined> {
    const answer = await this.ask('digest', {}, signal);
    return typeof answer.digest === 'string' ? answer.digest : undefined;
  }

  /** Ends the helper when this adapter started it (a shared one is ended by its owner). */
  async dispose(): Promise<void> {
    if (this.ownsBridge) await this.bridge.dispose();
  }

  /** `named`: errors say they come from AT-SPI; an action's refusal is the app's reason alone ("the element is disabled"). */
  private async ask(cmd: string, params: Record<string, unknown>, signal?: AbortSignal, named = true): Promise<Record<string, unknown>> {
    const timeoutMs = this.options.timeoutMs ?? 5_000;
    // The walk stops itself a little before the hard timeout and returns what it has.
    const budget = Math.max(0.2, (timeoutMs * 0.7) / 1000);
    try {
      return await this.bridge.request(
        cmd,
        { ...params, budget, maxDepth: this.options.maxDepth ?? 60, maxNodes: this.options.maxNodes ?? 4_000 },
        { timeoutMs, signal },
      );
    } catch (error) {
      if (!named) throw error;
      throw new Error(`AT-SPI: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}

export interface TopLevel {
  window: { name: string; role: string; active: boolean };
  app: string;
  pid?: number;
  box: BBox;
}

function toElement(raw: ScriptElement, from: ScriptWindow): AccessibleElement {
  const [x, y, width, height] = raw.box;
  const bbox: BBox = { x, y, width, height };
  return {
    name: raw.name,
    role: raw.role,
    bbox,
    states: raw.states,
    ...(raw.text !== undefined ? { text: raw.text } : {}),
    ...(raw.textCut ? { textCut: true } : {}),
    ...(raw.popups && raw.popups.length > 0 ? { popups: raw.popups.map(([px, py, pw, ph]) => ({ x: px, y: py, width: pw, height: ph })) } : {}),
    window: from.window,
    ...(raw.ancestors && raw.ancestors.length > 0 ? { ancestors: raw.ancestors.map((a) => ({ role: a.role, name: a.name })) } : {}),
    app: from.app,
    ...(from.pid ? { pid: from.pid } : {}),
    ...(raw.ref && from.bus ? { ref: `${from.bus} ${raw.ref}` } : {}),
  };
}

function readingOrder(a: AccessibleElement, b: AccessibleElement): number {
  return a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x;
}
