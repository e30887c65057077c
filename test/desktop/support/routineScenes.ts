// Record Steps scenes (issue 23), shared by test/desktop/routines.test.ts and the drift bench:
// galculator and mousepad in a private HOME whose look can drift (GSETTINGS_BACKEND=keyfile with
// its settings file written here, GTK_THEME for the dark theme, GDK_DPI_SCALE for a larger font),
// a scripted person who finds what to click in the app's accessibility tree (atspiTruth.py, not
// the product's reader) and acts through xdotool at a person's pace, and the three routines (Save
// As twice: name then folder, folder then name): what the person does, the parameters, the state
// before a replay and the check of its effect.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../../src/common/geometry';
import type { DesktopServices } from '../../../src/desktop/desktopServices';
import type { NavigationBrain } from '../../../src/navigation/navigationBrain';
import type { FinishedRecording } from '../../../src/navigation/recording/routineRecorder';
import type { Routine } from '../../../src/navigation/store/routineTypes';
import { FIXTURE_PYTHON } from './fixture';
import { activateWindow, centre, delay, placeWindow, run, startProcess, stopProcess, waitForWindow, type Placement, type StartedProcess } from './realApps/appWindow';

export type SceneKind = 'galculator' | 'mousepad';

/** What may differ between the recording and a replay, besides where the window is. */
export interface SceneLook {
  dark?: boolean;
  /** GDK_DPI_SCALE 1.25: every text and control larger. */
  bigFont?: boolean;
  /** mousepad's toolbar; galculator has none: its scientific mode adds keys instead. */
  extraControls?: boolean;
}

export const PLACEMENTS: Record<SceneKind, Placement> = {
  galculator: { x: 960, y: 480, width: 480, height: 480 },
  mousepad: { x: 260, y: 140, width: 900, height: 600 },
};

const TRUTH_SCRIPT = path.join(__dirname, 'realApps', 'atspiTruth.py');

/** One element of the app as AT-SPI shows it to a person (atspiTruth.py). */
export interface SeenElement {
  name: string;
  role: string;
  bbox: BBox;
  window: string;
}

/** A private HOME that outlives app restarts: the files, the settings file, the bookmarks. */
export class SceneHome {
  readonly dir: string;
  readonly reports: string;

  constructor(prefix = 'gai-routine-') {
    this.dir = mkdtempSync(path.join(tmpdir(), prefix));
    this.reports = path.join(this.dir, 'Reports');
    mkdirSync(this.reports, { recursive: true });
    mkdirSync(path.join(this.dir, '.config', 'gtk-3.0'), { recursive: true });
    // The file chooser's sidebar lists it: the folder the Save As routine picks.
    writeFileSync(path.join(this.dir, '.config', 'gtk-3.0', 'bookmarks'), `file://${encodeURI(this.reports)} Reports\n`);
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  /** GSettings' keyfile backend reads this at start: the toolbar, and replace-all on (the person's standing choice). */
  writeSettings(look: SceneLook): void {
    const dir = path.join(this.dir, '.config', 'glib-2.0', 'settings');
    mkdirSync(dir, { recursive: true });
    const lines = ['[org/xfce/mousepad/preferences/window]', `toolbar-visible=${look.extraControls === true}`, '', '[org/xfce/mousepad/state/search]', 'replace-all=true', ''];
    writeFileSync(path.join(dir, 'keyfile'), lines.join('\n'));
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A real app started in a SceneHome, placed, its tree ready. */
export class SceneApp {
  private constructor(
    readonly kind: SceneKind,
    private readonly process: StartedProcess,
    readonly env: NodeJS.ProcessEnv,
    readonly windowId: string,
  ) {}

  get pid(): number {
    return this.process.child.pid ?? 0;
  }

  static async start(kind: SceneKind, display: NodeJS.ProcessEnv, home: SceneHome, options: { look?: SceneLook; file?: string; placement?: Placement } = {}): Promise<SceneApp> {
    const look = options.look ?? {};
    home.writeSettings(look);
    const env: NodeJS.ProcessEnv = {
      ...display,
      HOME: home.dir,
      XDG_CONFIG_HOME: path.join(home.dir, '.config'),
      XDG_DATA_HOME: path.join(home.dir, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home.dir, '.cache'),
      GSETTINGS_BACKEND: 'keyfile',
      ...(look.dark ? { GTK_THEME: 'Adwaita:dark' } : {}),
      ...(look.bigFont ? { GDK_DPI_SCALE: '1.25' } : {}),
    };
    delete env.NO_AT_BRIDGE;
    if (!look.dark) delete env.GTK_THEME;
    if (!look.bigFont) delete env.GDK_DPI_SCALE;
    const args = options.file ? [options.file] : [];
    const options_ = { env, stdio: ['ignore', 'ignore', 'pipe'] as ['ignore', 'ignore', 'pipe'] };
    const process = kind === 'galculator' ? startProcess('galculator', args, options_) : startProcess('mousepad', args, options_);
    try {
      const windowId = await waitForWindow(process, env, kind);
      await placeWindow(windowId, options.placement ?? PLACEMENTS[kind], env);
      const app = new SceneApp(kind, process, env, windowId);
      await app.waitFor(async () => (await app.seen()).some((e) => e.role === 'menu'), 'its menu bar in the tree', 20_000);
      if (kind === 'galculator' && look.extraControls) {
        // View › Scientific Mode: more keys around the targets (the harness's doing, not the person's).
        await app.activate();
        for (const [name, role] of [['View', 'menu'], ['Scientific Mode', 'radio menu item']] as const) {
          const item = await app.find((e) => e.name === name && e.role === role, `its ${name} menu item`);
          await run('xdotool', ['mousemove', ...Object.values(centre(item.bbox)).map(String), 'click', '1'], env);
        }
        await app.waitFor(async () => (await app.seen()).some((e) => e.name === 'sin'), 'its scientific keys');
      }
      await app.activate();
      return app;
    } catch (error) {
      await stopProcess(process.child);
      throw error;
    }
  }

  /** Every showing, named element of the app's windows, as a person sees them. */
  async seen(): Promise<SeenElement[]> {
    const text = await run(FIXTURE_PYTHON, [TRUTH_SCRIPT, String(this.pid)], this.env, 20_000);
    const reply = JSON.parse(text) as { ok: boolean; error?: string; elements?: Array<{ name: string; role: string; box: [number, number, number, number]; window: string }> };
    if (!reply.ok) throw new Error(`${this.kind}'s tree could not be read: ${reply.error ?? 'no reason'}`);
    return (reply.elements ?? []).map((e) => ({ name: e.name, role: e.role, window: e.window, bbox: { x: e.box[0], y: e.box[1], width: e.box[2], height: e.box[3] } }));
  }

  /** Waits until the app shows an element like this; returns it. */
  async find(test: (e: SeenElement) => boolean, what: string, timeoutMs = 10_000): Promise<SeenElement> {
    let found: SeenElement | undefined;
    await this.waitFor(async () => (found = (await this.seen()).find(test)) !== undefined, what, timeoutMs);
    return found!;
  }

  async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`${this.kind}: ${what} did not show within ${timeoutMs} ms`);
      await delay(150);
    }
  }

  activate(): Promise<void> {
    return activateWindow(this.windowId, this.env);
  }

  place(placement: Placement): Promise<Placement> {
    return placeWindow(this.windowId, placement, this.env);
  }

  async stop(): Promise<void> {
    await stopProcess(this.process.child);
  }
}

/** A person at the keyboard and mouse: looks, moves, clicks, types, then waits as people do. */
export class ScriptedPerson {
  private rounds = 0;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly paceMs = 900,
  ) {}

  /** Between actions: the pace, a little uneven. */
  async pause(ms = this.paceMs): Promise<void> {
    this.rounds += 1;
    await delay(ms + ((this.rounds * 137) % 200) - 100);
  }

  async clickAt(point: { x: number; y: number }): Promise<void> {
    await run('xdotool', ['mousemove', String(point.x), String(point.y)], this.env);
    await delay(120);
    await run('xdotool', ['click', '1'], this.env);
    await this.pause();
  }

  /** Clicks the middle of what the app shows under this name (and role). */
  async click(app: SceneApp, name: string, role?: string, window?: string): Promise<SeenElement> {
    const element = await app.find((e) => e.name === name && (role === undefined || e.role === role) && (window === undefined || e.window === window), `"${name}"${role ? ` (${role})` : ''}`);
    await this.clickAt(centre(element.bbox));
    return element;
  }

  async type(text: string): Promise<void> {
    await run('xdotool', ['type', '--delay', '110', text], this.env);
    await this.pause(700);
  }

  async key(combo: string): Promise<void> {
    await run('xdotool', ['key', combo], this.env);
    await this.pause();
  }
}

/** What a routine scene works with while it records, prepares and checks. */
export interface SceneContext {
  home: SceneHome;
  app: SceneApp;
  services: DesktopServices;
}

export interface RoutineScene {
  /** The routine's name in the brain. */
  name: string;
  kind: SceneKind;
  /** The file the app opens (mousepad), made in the home. */
  file?(home: SceneHome): string;
  /** Parameter name → the text the person typed for it. */
  parameters: Record<string, string>;
  /** What the person does while it records. */
  perform(person: ScriptedPerson, context: SceneContext): Promise<void>;
  /** Back to where the task usually starts, when a replay leaves the app elsewhere (the bench does it before each replay). */
  startElsewhere?(context: SceneContext): Promise<void>;
  /** Sets the scene for replay `round` (so its effect shows) and gives its parameter values. */
  prepare(context: SceneContext, round: number): Promise<Record<string, string>>;
  /** undefined when the replay did what it should and nothing else; else what is wrong. */
  verify(context: SceneContext, values: Record<string, string>): Promise<string | undefined>;
}

/** galculator's display, read from the product's tree (the text element of the app). */
export async function calculatorDisplay(services: DesktopServices): Promise<string> {
  const elements = await services.desktop.accessibility!.elements({ activeWindowOnly: false, fresh: true });
  // Scientific mode adds a line of its modes (DEC HEX … RPN) under the number.
  return elements.find((e) => e.app?.toLowerCase().includes('galculator') && e.role === 'text')?.text?.trim().split('\n')[0]?.trim() ?? '';
}

async function settledValue(read: () => Promise<string>, wanted: string, timeoutMs = 3_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (value !== wanted && Date.now() < deadline) {
    await delay(150);
    value = await read();
  }
  return value;
}

export const CALCULATOR_KEYS = ['AC', '1', '2', '+', '3', '0', '='];

/** a. galculator computes 12 + 30 by its keys. */
export const calculatorScene: RoutineScene = {
  name: 'Add 12 and 30',
  kind: 'galculator',
  parameters: {},
  async perform(person, { app }) {
    await app.activate();
    for (const key of CALCULATOR_KEYS) await person.click(app, key, 'toggle button');
  },
  async prepare({ app, services }) {
    // Something else on the display first, so 42 shows only if the routine ran.
    await app.activate();
    await run('xdotool', ['key', '7'], app.env); // after "=" a new number starts
    const shown = await settledValue(() => calculatorDisplay(services), '7');
    if (shown !== '7') throw new Error(`galculator shows "${shown}" before the replay, not 7`);
    return {};
  },
  async verify({ services }) {
    const shown = await settledValue(() => calculatorDisplay(services), '42');
    return shown === '42' ? undefined : `the display shows "${shown}", not 42`;
  },
};

/** Words the text has twice each; a replay replaces one with its partner. */
export const REPLACEMENTS: Array<[string, string]> = [
  ['cat', 'dog'], ['bird', 'fish'], ['fox', 'wolf'], ['owl', 'hawk'], ['elk', 'moose'], ['yak', 'bison'],
  ['emu', 'crane'], ['ant', 'wasp'], ['bee', 'moth'], ['cod', 'tuna'], ['newt', 'frog'], ['lynx', 'puma'],
  ['rat', 'mink'], ['pig', 'goat'], ['ram', 'seal'], ['kiwi', 'dodo'], ['crab', 'clam'], ['boar', 'deer'], ['hen', 'duck'], ['ape', 'orca'],
];
export const WORDS_TEXT = REPLACEMENTS.map(([word]) => `the ${word} met a ${word}\n`).join('');

/** b. mousepad's Find and Replace with two parameters, then save. */
export const replaceScene: RoutineScene = {
  name: 'Replace a word',
  kind: 'mousepad',
  file(home) {
    const file = home.file('animals.txt');
    if (!existsSync(file)) writeFileSync(file, WORDS_TEXT);
    return file;
  },
  parameters: { find: 'cat', replace: 'dog' },
  async perform(person, { app }) {
    await app.activate();
    await person.click(app, 'Search', 'menu');
    await person.click(app, 'Find and Replace...', 'menu item');
    await app.find((e) => e.window === 'Find and Replace' && e.name === 'Replace All', 'the Find and Replace dialog');
    await person.pause();
    await person.type('cat');
    // The field right of its label (it has no name of its own).
    const label = await app.find((e) => e.name === 'Replace with:', 'the "Replace with:" label');
    await person.clickAt({ x: label.bbox.x + label.bbox.width + 130, y: Math.round(label.bbox.y + label.bbox.height / 2) });
    await person.type('dog');
    await person.click(app, 'Replace All', 'push button', 'Find and Replace');
    await person.click(app, 'Close', 'push button', 'Find and Replace');
    await person.key('ctrl+s');
  },
  async prepare({ home }, round) {
    const [find, replace] = REPLACEMENTS[1 + (round % (REPLACEMENTS.length - 1))]!;
    const text = readFileSync(home.file('animals.txt'), 'utf8');
    if (text.split(find).length !== 3) throw new Error(`animals.txt does not have "${find}" twice: ${JSON.stringify(text)}`);
    lastText.set(home, text);
    return { find, replace };
  },
  async verify({ home }, values) {
    const before = lastText.get(home) ?? WORDS_TEXT;
    const wanted = before.split(values.find!).join(values.replace!);
    const file = home.file('animals.txt');
    let text = readFileSync(file, 'utf8');
    for (let i = 0; i < 20 && text !== wanted; i++, await delay(150)) text = readFileSync(file, 'utf8');
    return text === wanted ? undefined : `animals.txt reads ${JSON.stringify(text)}, not ${JSON.stringify(wanted)}`;
  },
};
const lastText = new Map<SceneHome, string>();

/** c. mousepad's Save As: a name (parameter), the Reports folder from the chooser's sidebar, Save. */
export const saveAsScene: RoutineScene = {
  name: 'Save a copy in Reports',
  kind: 'mousepad',
  file(home) {
    const file = home.file('draft.txt');
    if (!existsSync(file)) writeFileSync(file, DRAFT_TEXT);
    return file;
  },
  parameters: { name: 'march-report' },
  perform: (person, context) => saveAs(person, context, false),
  async startElsewhere({ home, app }) {
    // The draft again (a running mousepad opens it in a tab): the chooser then opens in the home, not in Reports.
    await run('mousepad', [home.file('draft.txt')], app.env);
    await app.waitFor(async () => (await app.seen()).some((e) => e.window.endsWith('draft.txt - Mousepad')), 'draft.txt open again');
    await app.activate();
  },
  async prepare({ home }, round) {
    reportsBefore.set(home, readdirSync(home.reports).sort());
    return { name: `report-${round + 1}` };
  },
  async verify({ home }, values) {
    const wanted = `${values.name}.txt`;
    const file = path.join(home.reports, wanted);
    for (let i = 0; i < 20 && !existsSync(file); i++) await delay(150);
    const added = readdirSync(home.reports).filter((f) => !(reportsBefore.get(home) ?? []).includes(f));
    if (!existsSync(file)) return `no ${wanted} in Reports (new there: ${added.join(', ') || 'nothing'})`;
    if (added.length !== 1) return `Reports got ${added.join(', ')}, not only ${wanted}`;
    const text = readFileSync(file, 'utf8');
    return text === DRAFT_TEXT ? undefined : `${wanted} reads ${JSON.stringify(text)}`;
  },
};
export const DRAFT_TEXT = 'Quarterly notes: sales up, costs flat.\n';
const reportsBefore = new Map<SceneHome, string[]>();

/** c'. The same with the folder picked before the name is typed. */
export const saveAsFolderFirstScene: RoutineScene = { ...saveAsScene, name: 'Save a copy in Reports, folder first', perform: (person, context) => saveAs(person, context, true) };

async function saveAs(person: ScriptedPerson, { app }: SceneContext, folderFirst: boolean): Promise<void> {
  await app.activate();
  await person.key('ctrl+shift+s');
  await app.find((e) => e.window === 'Save As' && e.name === 'Save' && e.role === 'push button', 'the Save As dialog');
  await person.pause();
  if (folderFirst) await person.click(app, 'Reports', undefined, 'Save As');
  // The chooser selects the name without its extension: all of it, then the new one.
  await person.key('ctrl+a');
  await person.type('march-report.txt');
  if (!folderFirst) await person.click(app, 'Reports', undefined, 'Save As');
  await person.click(app, 'Save', 'push button', 'Save As');
}

export const ROUTINE_SCENES: readonly RoutineScene[] = [calculatorScene, replaceScene, saveAsScene, saveAsFolderFirstScene];

/** Starts the scene's app in the home, with the look given. */
export function startScene(scene: RoutineScene, display: NodeJS.ProcessEnv, home: SceneHome, look: SceneLook = {}, placement?: Placement): Promise<SceneApp> {
  return SceneApp.start(scene.kind, display, home, { look, ...(scene.file ? { file: scene.file(home) } : {}), ...(placement ? { placement } : {}) });
}

/** The person does the scene's task while the brain records it; the routine is kept with its parameters. */
export async function recordScene(brain: NavigationBrain, scene: RoutineScene, context: SceneContext, person: ScriptedPerson): Promise<{ routine: Routine; recording: FinishedRecording }> {
  await brain.routines.startRecording(scene.name);
  try {
    await person.pause();
    await scene.perform(person, context);
    await delay(1_200); // the last step's anchors are taken after it
  } catch (error) {
    await brain.routines.cancelRecording();
    throw error;
  }
  return brain.routines.stopRecording({ parameters: scene.parameters, replace: true });
}
