// Real GTK 4 / libadwaita applications from Debian (gnome-calculator, gnome-text-editor with a
// document) on the suite's display, each with a temp HOME and in-memory settings. Ground truth
// comes from atspiTruth.py (its GTK 4 part places the windows and popovers itself), not from the
// product's bridge. GTK 4 apps have no menu bar: their menus are popovers opened by buttons.
import type { SpawnOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FIXTURE_PYTHON } from '../fixture';
import { activateWindow, centre, delay, placeWindow, run, startProcess, stopProcess, waitForWindow, type GroundTruthLabel, type Placement, type StartedProcess } from './appWindow';
import type { AtspiElement } from './atspiApps';

export type Gtk4AppKind = 'gnome-calculator' | 'gnome-text-editor';

const TRUTH_SCRIPT = path.join(__dirname, 'atspiTruth.py');

/** The document gnome-text-editor shows. */
export const NOTES_SAMPLE = `Meeting notes for the release
Ship the parser fix before Friday.
Ask Dana about settings.toml and the cache_size limit.
`;

interface TruthReply {
  ok: boolean;
  error?: string;
  elements?: Array<{ name: string; role: string; box: [number, number, number, number]; window: string; states: string[] }>;
}

export class Gtk4App {
  private constructor(
    readonly kind: Gtk4AppKind,
    private readonly process: StartedProcess,
    private readonly home: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly windowId: string,
    readonly placement: Placement,
  ) {}

  get pid(): number | undefined {
    return this.process.child.pid;
  }

  static async start(kind: Gtk4AppKind, env: NodeJS.ProcessEnv, placement: Placement): Promise<Gtk4App> {
    const home = mkdtempSync(path.join(tmpdir(), `gai-${kind}-`));
    const appEnv: NodeJS.ProcessEnv = {
      ...env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      GSETTINGS_BACKEND: 'memory',
    };
    delete appEnv.NO_AT_BRIDGE;
    mkdirSync(path.join(home, '.config'), { recursive: true });
    const args: string[] = [];
    if (kind === 'gnome-text-editor') {
      const file = path.join(home, 'notes.txt');
      writeFileSync(file, NOTES_SAMPLE);
      // --standalone: its own process, not a remote call to an editor already running.
      args.push('--standalone', file);
    }
    const process = startApp(kind, args, { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const windowId = await waitForWindow(process, appEnv, kind);
      const placed = await placeWindow(windowId, placement, appEnv);
      const app = new Gtk4App(kind, process, home, appEnv, windowId, placed);
      await app.waitFor(async () => (await app.elements().catch(() => [])).some((e) => e.name === 'Close'), 'its window in the AT-SPI tree', 20_000);
      return app;
    } catch (error) {
      await stopProcess(process.child);
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** Every drawn, named element of the app's showing windows and open popovers. */
  async elements(): Promise<AtspiElement[]> {
    const text = await run(FIXTURE_PYTHON, [TRUTH_SCRIPT, String(this.pid ?? 0)], this.env, 20_000);
    const reply = JSON.parse(text) as TruthReply;
    if (!reply.ok) throw new Error(`AT-SPI ground truth of ${this.kind} failed: ${reply.error ?? 'no reason'}`);
    return (reply.elements ?? [])
      .map((e) => ({ name: e.name, role: e.role, window: e.window, states: e.states, bbox: { x: e.box[0], y: e.box[1], width: e.box[2], height: e.box[3] } }))
      .filter((e) => e.bbox.x >= 0 && e.bbox.y >= 0 && e.bbox.x + e.bbox.width <= 1920 && e.bbox.y + e.bbox.height <= 1080);
  }

  async groundTruth(filter: (element: AtspiElement) => boolean = () => true): Promise<GroundTruthLabel[]> {
    return (await this.elements()).filter(filter).map(toLabel);
  }

  async activate(): Promise<void> {
    await activateWindow(this.windowId, this.env);
  }

  async click(point: { x: number; y: number }): Promise<void> {
    await run('xdotool', ['mousemove', String(point.x), String(point.y), 'click', '1'], this.env);
  }

  /** A real click on the centre of the first element with this name. */
  async clickElement(name: string, role?: string): Promise<AtspiElement> {
    const element = (await this.elements()).find((e) => e.name === name && (role === undefined || e.role === role));
    if (!element) throw new Error(`${this.kind} shows no element "${name}"`);
    await this.click(centre(element.bbox));
    return element;
  }

  /**
   * Opens the app's first menu and returns its labels: gnome-calculator's mode menu (the button
   * that shows the mode), gnome-text-editor's primary menu (its "Menu" button).
   */
  async openMenu(): Promise<GroundTruthLabel[]> {
    await this.activate();
    const before = await this.elements();
    if (this.kind === 'gnome-calculator') {
      const mode = before.find((e) => ['Basic', 'Advanced', 'Financial', 'Programming', 'Keyboard'].includes(e.name));
      if (!mode) throw new Error('gnome-calculator shows no mode button');
      await this.click(centre(mode.bbox));
    } else {
      await this.clickElement('Menu');
    }
    return this.waitForNew(before, 'its menu');
  }

  /** Opens Preferences through the primary menu and returns the labels new on the screen. */
  async openDialog(): Promise<GroundTruthLabel[]> {
    await this.activate();
    const before = await this.elements();
    if (this.kind === 'gnome-calculator') {
      // Its primary menu button shows only an icon and has no name: it sits left of Minimize.
      const minimize = before.find((e) => e.name === 'Minimize');
      if (!minimize) throw new Error('gnome-calculator shows no Minimize button');
      const at = centre(minimize.bbox);
      await this.click({ x: at.x - 40, y: at.y });
    } else {
      await this.clickElement('Menu');
    }
    await this.waitFor(async () => (await this.elements()).some((e) => e.name === 'Preferences'), 'the primary menu');
    await this.clickElement('Preferences');
    return this.waitForNew(before, 'the Preferences window', (e) => e.window === 'Preferences');
  }

  /** gnome-calculator: switches mode through its mode menu, then returns the window's labels. */
  async switchMode(mode: 'Basic' | 'Advanced'): Promise<GroundTruthLabel[]> {
    await this.openMenu();
    await this.clickElement(mode);
    // The menu closed (its shortcuts are gone) and the mode button shows the mode.
    await this.waitFor(async () => {
      const names = (await this.elements()).map((e) => e.name);
      return names.includes(mode) && !names.includes('Ctrl+Alt+B');
    }, `${mode} mode`);
    await delay(500); // the window resizes itself
    return this.groundTruth();
  }

  /** Escape until no popover or dialog of the app is open (best effort). */
  async closePopups(times = 2): Promise<void> {
    for (let i = 0; i < times; i++) {
      await run('xdotool', ['key', 'Escape'], this.env);
      await delay(200);
    }
  }

  async stop(): Promise<void> {
    await stopProcess(this.process.child);
    rmSync(this.home, { recursive: true, force: true });
  }

  private async waitForNew(before: AtspiElement[], what: string, wanted: (e: AtspiElement) => boolean = () => true): Promise<GroundTruthLabel[]> {
    const seen = new Set(before.map(key));
    let fresh: AtspiElement[] = [];
    await this.waitFor(async () => {
      fresh = (await this.elements()).filter((e) => !seen.has(key(e)) && wanted(e));
      return fresh.length > 0;
    }, what);
    await delay(400); // let it finish drawing, then read once more
    fresh = (await this.elements()).filter((e) => !seen.has(key(e)) && wanted(e));
    return fresh.map(toLabel);
  }

  private async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${this.kind}: ${what} did not show within ${timeoutMs} ms`);
      await delay(150);
    }
  }
}

/** Each program by its literal name, so the spawn scan (test/setup) sees what is started. */
function startApp(kind: Gtk4AppKind, args: string[], options: SpawnOptions): StartedProcess {
  switch (kind) {
    case 'gnome-calculator':
      return startProcess('gnome-calculator', args, options);
    case 'gnome-text-editor':
      return startProcess('gnome-text-editor', args, options);
  }
}

function toLabel(e: AtspiElement): GroundTruthLabel {
  return { text: e.name, bbox: e.bbox, source: 'atspi', role: e.role, where: e.window };
}

function key(e: AtspiElement): string {
  return `${e.role}|${e.name}|${e.bbox.x},${e.bbox.y}`;
}
