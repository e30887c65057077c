// Real GTK and Qt applications from Debian (mousepad and featherpad with code, galculator,
// speedcrunch, thunar in a folder of its own) on the suite's display, each with a temp HOME/XDG
// config (no user settings leak in) and its accessibility on. Ground truth comes from AT-SPI through our own reader (atspiTruth.py), not
// the product's adapter, so a bug there cannot hide itself.
import type { SpawnOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../../../src/common/geometry';
import { FIXTURE_PYTHON } from '../fixture';
import {
  activateWindow,
  clickFirst,
  delay,
  placeWindow,
  run,
  startProcess,
  stopProcess,
  waitForWindow,
  type GroundTruthLabel,
  type Placement,
  type StartedProcess,
} from './appWindow';

export type AtspiAppKind = 'mousepad' | 'galculator' | 'speedcrunch' | 'featherpad' | 'thunar';

const TRUTH_SCRIPT = path.join(__dirname, 'atspiTruth.py');

/** The code mousepad shows: a realistic editor screen, words with dots and underscores. */
export const CODE_SAMPLE = `import { readFileSync } from 'node:fs';
import * as path from 'node:path';

// Loads settings.toml and merges the defaults.
export interface Settings {
  theme: string;
  fontSize: number;
  autosave_delay: number;
}

const DEFAULTS: Settings = { theme: 'dark', fontSize: 14, autosave_delay: 1500 };

export function loadSettings(folder: string): Settings {
  const text = readFileSync(path.join(folder, 'settings.toml'), 'utf8');
  const parsed = parseToml(text);
  return { ...DEFAULTS, ...parsed };
}

function parseToml(text: string): Partial<Settings> {
  const out: Record<string, string | number> = {};
  for (const line of text.split('\\n')) {
    const match = /^(\\w+)\\s*=\\s*(.+)$/.exec(line.trim());
    if (match) out[match[1]] = Number(match[2]) || match[2];
  }
  return out;
}
`;

export interface AtspiElement {
  name: string;
  role: string;
  bbox: BBox;
  /** The top-level window's name (or role) it is in. */
  window: string;
  states: string[];
}

interface TruthReply {
  ok: boolean;
  error?: string;
  windows?: Array<{ name: string; role: string; box: [number, number, number, number] | null }>;
  elements?: Array<{ name: string; role: string; box: [number, number, number, number]; window: string; states: string[] }>;
  /** Showing in the toolkit's tree but not drawn: scrolled out of an ancestor, or under a popup or the active window. */
  hidden?: Array<{ name: string; role: string; box: [number, number, number, number]; window: string; states: string[] }>;
}

const DEFAULT_PLACEMENT: Record<AtspiAppKind, Placement> = {
  mousepad: { x: 960, y: 0, width: 960, height: 560 },
  galculator: { x: 960, y: 600, width: 480, height: 480 },
  speedcrunch: { x: 1440, y: 600, width: 480, height: 480 },
  featherpad: { x: 960, y: 0, width: 960, height: 500 },
  thunar: { x: 0, y: 0, width: 950, height: 500 },
};

/** The folders thunar shows (in its own temp HOME): what a click by name opens. */
export const THUNAR_FOLDERS = ['Projects', 'Photos 2024', 'Invoices', 'Music', 'Recipes', 'Taxes'];

export class AtspiApp {
  private constructor(
    readonly kind: AtspiAppKind,
    private readonly process: StartedProcess,
    private readonly home: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly windowId: string,
    readonly placement: Placement,
  ) {}

  get pid(): number | undefined {
    return this.process.child.pid;
  }

  /** `text`: what the editors (mousepad, featherpad) open instead of CODE_SAMPLE. */
  static async start(kind: AtspiAppKind, env: NodeJS.ProcessEnv, placement: Placement = DEFAULT_PLACEMENT[kind], text = CODE_SAMPLE): Promise<AtspiApp> {
    const temp = mkdtempSync(path.join(tmpdir(), `gai-${kind}-`));
    // thunar's side pane shows the home folder's name: a person's, not the temp folder's.
    const home = kind === 'thunar' ? path.join(temp, 'alex') : temp;
    const appEnv: NodeJS.ProcessEnv = {
      ...env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      // Qt joins AT-SPI only with this; GTK3 does by itself.
      QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
      GSETTINGS_BACKEND: 'memory',
    };
    delete appEnv.NO_AT_BRIDGE;
    const args: string[] = [];
    if (kind === 'mousepad' || kind === 'featherpad') {
      const file = path.join(home, 'settingsLoader.ts');
      writeFileSync(file, text);
      args.push(file);
    }
    mkdirSync(path.join(home, '.config'), { recursive: true });
    if (kind === 'thunar') {
      const folder = path.join(home, 'Files');
      for (const name of THUNAR_FOLDERS) mkdirSync(path.join(folder, name), { recursive: true });
      writeFileSync(path.join(folder, 'notes.txt'), 'notes\n');
      args.push(folder);
      // Its settings go through xfconfd, which D-Bus starts with the bus's environment: point
      // that at the temp HOME so nothing of the real HOME is read or written.
      await setActivationEnvironment(appEnv);
    }
    const process = startApp(kind, args, { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const windowId = await waitForWindow(process, appEnv, kind);
      const placed = await placeWindow(windowId, placement, appEnv);
      const app = new AtspiApp(kind, process, temp, appEnv, windowId, placed);
      await app.waitForTree();
      if (kind === 'speedcrunch') await app.showSpeedCrunchKeypad();
      return app;
    } catch (error) {
      await stopProcess(process.child);
      rmSync(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** Every showing, named element of the app's showing windows (main window, open menus, dialogs). */
  async elements(which: 'elements' | 'hidden' = 'elements'): Promise<AtspiElement[]> {
    const pid = this.process.child.pid;
    const text = await run(FIXTURE_PYTHON, [TRUTH_SCRIPT, String(pid ?? 0)], this.env, 20_000);
    const reply = JSON.parse(text) as TruthReply;
    if (!reply.ok) throw new Error(`AT-SPI ground truth of ${this.kind} failed: ${reply.error ?? 'no reason'}`);
    const screen = await this.screenSize();
    return (reply[which] ?? [])
      .map((e) => ({ name: e.name, role: e.role, window: e.window, states: e.states, bbox: { x: e.box[0], y: e.box[1], width: e.box[2], height: e.box[3] } }))
      .filter((e) => onScreen(e.bbox, screen));
  }

  /** Elements the toolkit reports showing that are not drawn (scrolled out, under a menu or the dialog). */
  hiddenElements(): Promise<AtspiElement[]> {
    return this.elements('hidden');
  }

  /** The elements as labels to look for. `filter` narrows them (a menu's items, a dialog's). */
  async groundTruth(filter: (element: AtspiElement) => boolean = () => true): Promise<GroundTruthLabel[]> {
    return (await this.elements()).filter(filter).map((e) => ({ text: e.name, bbox: e.bbox, source: 'atspi' as const, role: e.role, where: e.window }));
  }

  /** A real click (xdotool) on the centre of the first element with this name (and role). */
  async clickElement(name: string | RegExp, role?: string): Promise<AtspiElement> {
    return clickFirst(await this.elements(), name, role, this.kind, this.env);
  }

  private screen: { width: number; height: number } | undefined;

  private async screenSize(): Promise<{ width: number; height: number }> {
    if (!this.screen) {
      const info = await run('xwininfo', ['-root'], this.env);
      const size = (label: string): number => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(info)?.[1] ?? NaN);
      this.screen = { width: size('Width'), height: size('Height') };
    }
    return this.screen;
  }

  async activate(): Promise<void> {
    await activateWindow(this.windowId, this.env);
  }

  /**
   * Opens the first menu of the menu bar and returns the labels of its items (only those: the
   * rest of the window was read before).
   */
  async openFirstMenu(): Promise<GroundTruthLabel[]> {
    return this.openMenu();
  }

  /** Opens the menu bar's menu of this name (the first one without) and returns its items' labels. */
  async openMenu(name?: string): Promise<GroundTruthLabel[]> {
    await this.activate();
    const before = new Set((await this.elements()).map(key));
    const first = (await this.elements()).find((e) => (e.role === 'menu' || e.role === 'menu item') && (name === undefined || e.name === name));
    if (!first) throw new Error(`${this.kind} shows no menu ${name ?? 'bar'}`);
    await this.clickElement(first.name, first.role);
    return this.waitForNew(before, (e) => e.role.includes('menu'), `the ${first.name} menu`);
  }

  /** Opens a dialog through the app's menus and returns the labels of the dialog's window. */
  async openDialog(): Promise<GroundTruthLabel[]> {
    await this.activate();
    const shown = await this.elements();
    const before = new Set(shown.map(key));
    // Named before the dialog opens: a dialog over the whole window hides all its elements.
    const main = shown.find((e) => e.window !== '')?.window;
    const [menu, item] = DIALOGS[this.kind];
    await this.clickElement(menu);
    await this.waitFor(async () => (await this.elements()).some((e) => item.test(e.name)), `${menu} menu`);
    await this.clickElement(item);
    return this.waitForNew(before, (e) => e.window !== main || e.window === '', `the dialog of ${String(item)}`);
  }

  /** Escape until no menu or dialog of the app is open (best effort). */
  async closePopups(times = 3): Promise<void> {
    for (let i = 0; i < times; i++) {
      await run('xdotool', ['key', 'Escape'], this.env);
      await delay(150);
    }
  }

  async stop(): Promise<void> {
    await stopProcess(this.process.child);
    rmSync(this.home, { recursive: true, force: true });
  }

  private async waitForNew(before: Set<string>, wanted: (e: AtspiElement) => boolean, what: string): Promise<GroundTruthLabel[]> {
    let fresh: AtspiElement[] = [];
    await this.waitFor(async () => {
      fresh = (await this.elements()).filter((e) => !before.has(key(e)) && wanted(e));
      return fresh.length > 0;
    }, what);
    await delay(300); // let it finish drawing, then read once more
    fresh = (await this.elements()).filter((e) => !before.has(key(e)) && wanted(e));
    return fresh.map((e) => ({ text: e.name, bbox: e.bbox, source: 'atspi' as const, role: e.role, where: e.window }));
  }

  private async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${this.kind}: ${what} did not show within ${timeoutMs} ms`);
      await delay(150);
    }
  }

  private async waitForTree(): Promise<void> {
    await this.waitFor(async () => (await this.elements().catch(() => [])).some((e) => e.role === 'menu' || e.role === 'menu item'), 'its menu bar in the AT-SPI tree', 20_000);
  }

  private async showSpeedCrunchKeypad(): Promise<void> {
    await this.activate();
    await this.clickElement('View', 'menu item');
    await this.waitFor(async () => (await this.elements()).some((e) => e.name === 'Keypad'), 'its View menu');
    await this.clickElement('Keypad');
    await this.waitFor(async () => (await this.elements()).some((e) => e.role === 'push button' && e.name === '7'), 'its keypad');
    // Off the keypad (its tooltip would cover a key): onto the window's title bar.
    await run('xdotool', ['mousemove', String(this.placement.x + 40), String(this.placement.y - 8)], this.env);
  }
}

/** Each program by its literal name, so the spawn scan (test/setup) sees what is started. */
function startApp(kind: AtspiAppKind, args: string[], options: SpawnOptions): StartedProcess {
  switch (kind) {
    case 'mousepad':
      return startProcess('mousepad', args, options);
    case 'galculator':
      return startProcess('galculator', args, options);
    case 'speedcrunch':
      return startProcess('speedcrunch', args, options);
    case 'featherpad':
      return startProcess('featherpad', args, options);
    case 'thunar':
      return startProcess('thunar', args, options);
  }
}

/** The menu and item that open a dialog in each app. */
const DIALOGS: Record<AtspiAppKind, [string, RegExp]> = {
  mousepad: ['Search', /^Find and Replace/],
  galculator: ['Edit', /^Preferences/],
  speedcrunch: ['Help', /^About/],
  featherpad: ['Options', /^Preferences/],
  thunar: ['Edit', /^Preferences/],
};

/** D-Bus starts services (thunar's xfconfd) with these HOME and XDG folders from now on. */
async function setActivationEnvironment(env: NodeJS.ProcessEnv): Promise<void> {
  const vars = Object.fromEntries(['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME'].map((k) => [k, env[k] ?? '']));
  const script = [
    'import json, sys',
    'from gi.repository import Gio, GLib',
    'bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)',
    "bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'UpdateActivationEnvironment',",
    "    GLib.Variant('(a{ss})', (json.loads(sys.argv[1]),)), None, Gio.DBusCallFlags.NONE, 5000, None)",
  ].join('\n');
  await run(FIXTURE_PYTHON, ['-c', script, JSON.stringify(vars)], env);
}

/** Wholly on the screen: a window wider than its place leaves part of its widgets off the edge. */
function onScreen(box: BBox, screen: { width: number; height: number }): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= screen.width && box.y + box.height <= screen.height;
}

function key(e: AtspiElement): string {
  return `${e.role}|${e.name}|${e.bbox.x},${e.bbox.y}`;
}
