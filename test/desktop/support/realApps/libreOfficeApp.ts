// LibreOffice Writer and Calc (GTK 3 VCL plugin) on the suite's display for the real-app tests:
// each in its own temp HOME and user profile (no user settings leak in, no first-start dialogs),
// a document of our own, ground truth from AT-SPI through our own reader (atspiTruth.py).
// soffice is a script that execs oosplash, which starts soffice.bin: the window, the AT-SPI
// application and a crash are soffice.bin's, so that is the pid watched.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../../../src/common/geometry';
import { FIXTURE_PYTHON } from '../fixture';
import { activateWindow, clickFirst, delay, placeWindow, run, startProcess, stopProcess, unmaximize, type GroundTruthLabel, type Placement, type StartedProcess } from './appWindow';
import type { AtspiElement } from './atspiApps';

export type OfficeKind = 'writer' | 'calc';

const TRUTH_SCRIPT = path.join(__dirname, 'atspiTruth.py');

const WRITER_DOCUMENT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
<text:h text:outline-level="1">Quarterly report</text:h>
<text:p>Sales grew in every region this quarter.</text:p>
<text:p>The new warehouse opened in March.</text:p>
<text:p>Next steps: hire two engineers and ship the mobile app.</text:p>
</office:text></office:body></office:document>
`;

const ROWS: Array<[string, number]> = [
  ['Rent', 1200],
  ['Travel', 340],
  ['Software', 95],
  ['Training', 410],
];

function cell(value: string | number): string {
  return typeof value === 'number'
    ? `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string"><text:p>${value}</text:p></table:table-cell>`;
}

const CALC_DOCUMENT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet>
<table:table table:name="Budget">
<table:table-row>${cell('Item')}${cell('Cost')}</table:table-row>
${ROWS.map(([item, cost]) => `<table:table-row>${cell(item)}${cell(cost)}</table:table-row>`).join('\n')}
</table:table>
<table:table table:name="Notes"><table:table-row><table:table-cell/></table:table-row></table:table>
</office:spreadsheet></office:body></office:document>
`;

// No tip of the day, no "what's new" or donation bar on a fresh profile.
const REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>7.4</value></prop></item>
<item oor:path="/org.openoffice.Setup/Office"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

/** The menu and item that open a dialog in each. */
const DIALOGS: Record<OfficeKind, [string, RegExp]> = {
  writer: ['Format', /^Paragraph\.\.\.$/],
  calc: ['Format', /^Cells\.\.\.$/],
};

interface TruthReply {
  ok: boolean;
  error?: string;
  elements?: Array<{ name: string; role: string; box: [number, number, number, number]; window: string; states: string[] }>;
}

export class LibreOfficeApp {
  private constructor(
    readonly kind: OfficeKind,
    private readonly process: StartedProcess,
    /** soffice.bin's pid: its window, its AT-SPI application. */
    readonly officePid: number,
    private readonly home: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly windowId: string,
    readonly placement: Placement,
  ) {}

  static async start(kind: OfficeKind, env: NodeJS.ProcessEnv, placement: Placement): Promise<LibreOfficeApp> {
    const home = mkdtempSync(path.join(tmpdir(), `gai-${kind}-`));
    const profile = path.join(home, 'profile');
    mkdirSync(path.join(profile, 'user'), { recursive: true });
    writeFileSync(path.join(profile, 'user', 'registrymodifications.xcu'), REGISTRY);
    const file = path.join(home, kind === 'writer' ? 'report.fodt' : 'budget.fods');
    writeFileSync(file, kind === 'writer' ? WRITER_DOCUMENT : CALC_DOCUMENT);
    const appEnv: NodeJS.ProcessEnv = {
      ...env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      GSETTINGS_BACKEND: 'memory',
      // The GTK 3 plugin: its widgets are GTK's, with their AT-SPI tree (the default on a bare
      // X display would be the X11 plugin, which has none).
      SAL_USE_VCLPLUGIN: 'gtk3',
    };
    delete appEnv.NO_AT_BRIDGE;
    const process = startProcess('soffice', [`-env:UserInstallation=file://${profile}`, '--norestore', '--nologo', '--nodefault', `--${kind}`, file], {
      env: appEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const { officePid, windowId } = await waitForOfficeWindow(process, appEnv, kind);
      // It opens maximized the first time: a window smaller than the screen is unmaximized to be placed.
      if (placement.width < 1900) await unmaximize(windowId, appEnv);
      const placed = await placeWindow(windowId, placement, appEnv);
      const app = new LibreOfficeApp(kind, process, officePid, home, appEnv, windowId, placed);
      await app.waitFor(async () => (await app.elements().catch(() => [])).some((e) => e.role === 'menu' && e.name === 'Format'), 'its menu bar in the AT-SPI tree', 30_000);
      if (kind === 'calc') {
        // The cursor on an empty cell below the table: the formula bar then shows no copy of a
        // cell's text (its input line is defunct in the tree, so the truth could not count it).
        await app.activate();
        await run('xdotool', ['key', 'ctrl+End', 'Down'], appEnv);
        await delay(300);
      }
      return app;
    } catch (error) {
      await stopOffice(process);
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** soffice.bin still runs (a crash ends it). */
  alive(): boolean {
    try {
      globalThis.process.kill(this.officePid, 0);
      return true;
    } catch {
      return false;
    }
  }

  crashReport(): string {
    return this.process.stderr().trim().split('\n').slice(-12).join('\n');
  }

  /** Every drawn, named element of soffice.bin's showing windows. */
  async elements(): Promise<AtspiElement[]> {
    const text = await run(FIXTURE_PYTHON, [TRUTH_SCRIPT, String(this.officePid)], this.env, 30_000);
    const reply = JSON.parse(text) as TruthReply;
    if (!reply.ok) throw new Error(`AT-SPI ground truth of ${this.kind} failed: ${reply.error ?? 'no reason'}`);
    return (reply.elements ?? [])
      .map((e) => ({ name: e.name, role: e.role, window: e.window, states: e.states, bbox: { x: e.box[0], y: e.box[1], width: e.box[2], height: e.box[3] } }))
      .filter((e) => onScreen(e.bbox));
  }

  async groundTruth(): Promise<GroundTruthLabel[]> {
    return (await this.elements()).map(label);
  }

  async activate(): Promise<void> {
    await activateWindow(this.windowId, this.env);
  }

  /** A real click (xdotool) on the centre of the first drawn element with this name (and role). */
  async clickElement(name: string | RegExp, role?: string): Promise<AtspiElement> {
    return clickFirst(await this.elements(), name, role, this.kind, this.env);
  }

  /** Opens a menu of the menu bar; returns the labels of its items. */
  async openMenu(name: string): Promise<GroundTruthLabel[]> {
    await this.activate();
    const before = new Set((await this.elements()).map(key));
    await this.clickElement(name, 'menu');
    return this.waitForNew(before, (e) => e.role.includes('menu'), `the ${name} menu`);
  }

  /** Opens the dialog of DIALOGS through the menus; returns the labels of its window. */
  async openDialog(): Promise<GroundTruthLabel[]> {
    await this.activate();
    const elements = await this.elements();
    const before = new Set(elements.map(key));
    const main = elements.find((e) => e.role === 'menu' && e.name === 'Format')?.window;
    const [menu, item] = DIALOGS[this.kind];
    await this.clickElement(menu, 'menu');
    await this.waitFor(async () => (await this.elements()).some((e) => item.test(e.name)), `its ${menu} menu`);
    await this.clickElement(item);
    return this.waitForNew(before, (e) => e.window !== main, `the dialog of ${String(item)}`);
  }

  /** Escape until no menu or dialog is open (best effort). */
  async closePopups(times = 3): Promise<void> {
    for (let i = 0; i < times; i++) {
      await run('xdotool', ['key', 'Escape'], this.env);
      await delay(150);
    }
  }

  async stop(): Promise<void> {
    await stopOffice(this.process, this.officePid);
    rmSync(this.home, { recursive: true, force: true });
  }

  async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${this.kind}: ${what} did not show within ${timeoutMs} ms`);
      await delay(200);
    }
  }

  private async waitForNew(before: Set<string>, wanted: (e: AtspiElement) => boolean, what: string): Promise<GroundTruthLabel[]> {
    await this.waitFor(async () => (await this.elements()).some((e) => !before.has(key(e)) && wanted(e)), what);
    await delay(500); // let it finish drawing, then read once more
    return (await this.elements()).filter((e) => !before.has(key(e)) && wanted(e)).map(label);
  }
}

/** soffice.bin, the child oosplash starts. */
async function waitForOffice(process: StartedProcess, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = process.problem();
    if (problem !== undefined) throw new Error(`soffice did not start: ${problem}; stderr: ${process.stderr().trim() || '(empty)'}`);
    const found = await run('pgrep', ['-x', '-P', String(process.child.pid), 'soffice.bin'], env).catch(() => '');
    const pid = Number(found.trim().split('\n')[0]);
    if (pid > 0) return pid;
    if (Date.now() > deadline) throw new Error(`soffice started no soffice.bin within ${timeoutMs} ms`);
    await delay(200);
  }
}

/** soffice.bin and its window. On a new profile soffice.bin restarts once: the pid is asked again each time. */
async function waitForOfficeWindow(process: StartedProcess, env: NodeJS.ProcessEnv, what: string, timeoutMs = 60_000): Promise<{ officePid: number; windowId: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const officePid = await waitForOffice(process, env, Math.max(1000, deadline - Date.now()));
    const ids = await run('xdotool', ['search', '--onlyvisible', '--pid', String(officePid)], env).catch(() => '');
    const id = ids.split('\n').map((line) => line.trim()).find((line) => line !== '');
    if (id !== undefined) return { officePid, windowId: id };
    if (Date.now() > deadline) throw new Error(`${what} opened no window within ${timeoutMs} ms; stderr: ${process.stderr().trim() || '(empty)'}`);
    await delay(200);
  }
}

async function stopOffice(process: StartedProcess, officePid?: number): Promise<void> {
  // soffice.bin outlives a killed oosplash: end it first, by its pid.
  if (officePid !== undefined) {
    try {
      globalThis.process.kill(officePid, 'SIGTERM');
    } catch {
      // already gone
    }
    for (let i = 0; i < 40; i++) {
      try {
        globalThis.process.kill(officePid, 0);
      } catch {
        break;
      }
      await delay(100);
    }
    try {
      globalThis.process.kill(officePid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await stopProcess(process.child);
}

function label(e: AtspiElement): GroundTruthLabel {
  return { text: e.name, bbox: e.bbox, source: 'atspi', role: e.role, where: e.window };
}

function onScreen(box: BBox): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= 1920 && box.y + box.height <= 1080;
}

function key(e: AtspiElement): string {
  return `${e.role}|${e.name}|${e.bbox.x},${e.bbox.y}`;
}
