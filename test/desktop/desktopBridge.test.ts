// The desktop bridge's warm helper on the suite's virtual display, against a real GTK 3 app
// (fixtures/gtkBridgeApp.py) with two top-level windows: window questions over its X connection
// (checked against xwininfo), the stacking order after a raise, AT-SPI reads served from the
// cache until the app changes (a label, a new window), and a restart after the helper is killed.
import { strict as assert } from 'node:assert';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { BBox } from '../../src/common/geometry';
import { AtspiAccessibility } from '../../src/platform/linux/atspi/atspiAccessibility';
import { DesktopBridge } from '../../src/platform/linux/desktopBridge';
import { X11Windows } from '../../src/platform/linux/x11/x11Windows';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { FIXTURE_PYTHON, suiteDisplay } from './support/fixture';
import { gtkFixtureMissing } from './support/gtkPasswordFixture';

const display = suiteDisplay();
const APP = path.resolve(__dirname, 'fixtures', 'gtkBridgeApp.py');

/** The fixture: commands on stdin, "ready"/"done" lines on stdout. */
class BridgeApp {
  private readonly lines: string[] = [];
  private readonly waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static start(): BridgeApp {
    const env: NodeJS.ProcessEnv = { ...display.env };
    // The app must register on this display's a11y bus, not on one named for another session.
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.NO_AT_BRIDGE;
    return new BridgeApp(spawn(FIXTURE_PYTHON, [APP, 'Bridge Main'], { env, stdio: ['pipe', 'pipe', 'inherit'] }));
  }

  /** The first line starting with `prefix` from now on (or already seen and not taken). */
  async line(prefix: string): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const index = this.lines.findIndex((l) => l.startsWith(prefix));
      if (index >= 0) return this.lines.splice(index, 1)[0]!;
      if (this.child.exitCode !== null || Date.now() > deadline) throw new Error(`the GTK bridge fixture never printed "${prefix}" (printed: ${JSON.stringify(this.lines)})`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async command(text: string): Promise<string> {
    this.child.stdin!.write(`${text}\n`);
    return this.line(`done ${text.split(' ')[0]!}`);
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}

describe('desktop bridge: warm windows and accessibility tree (Xvfb + openbox, GTK)', function () {
  this.timeout(90_000);
  let app: BridgeApp | undefined;
  let bridge: DesktopBridge;
  let windows: X11Windows;
  let tree: AtspiAccessibility;
  let mainId = '';
  let secondId = '';

  before(async function () {
    const missing = gtkFixtureMissing(display);
    if (missing) {
      this.test!.parent!.title += ` (skipped: ${missing})`;
      this.skip();
    }
    bridge = new DesktopBridge(display.env);
    windows = new X11Windows(display.env, { bridge });
    tree = new AtspiAccessibility(display.env, {}, bridge);
    if (!(await tree.available())) {
      this.test!.parent!.title += ` (skipped: AT-SPI cannot be read here: ${tree.unavailableReason ?? 'unknown'})`;
      this.skip();
    }
    app = BridgeApp.start();
    mainId = (await app.line('ready ')).split(' ')[1]!;
  });

  after(async () => {
    app?.stop();
    await bridge?.dispose();
  });

  it('answers the active window and the stacking order of two real windows, and sees a raise', async () => {
    secondId = (await app!.command('open')).split(' ')[2]!;
    const second = await activeBecomes('Bridge Second');
    assert.equal(second.id, secondId);
    assert.equal(second.pid, app!.child.pid);
    assert.equal(second.type, 'normal');
    assert.deepEqual(second.bounds, await xwininfoBounds(secondId), 'client bounds in root coordinates, as xwininfo reports them');

    let listed = await windows.listWindows();
    const order = (): string[] => listed.filter((w) => w.id === mainId || w.id === secondId).map((w) => w.title);
    assert.deepEqual(order(), ['Bridge Second', 'Bridge Main'], JSON.stringify(listed));
    const main = listed.find((w) => w.id === mainId)!;
    assert.deepEqual(main.bounds, await xwininfoBounds(mainId));
    assert.equal(main.appName.toLowerCase(), 'gtkbridgeapp.py');

    await app!.command('raise main');
    await activeBecomes('Bridge Main');
    listed = await windows.listWindows();
    assert.deepEqual(order(), ['Bridge Main', 'Bridge Second'], 'the raised window is listed first');
    assert.equal(await windows.activeWindowId(), mainId);
    assert.equal(bridge.startCount, 1, 'one helper answered every question');
  });

  it('serves an unchanged window from the cache and sees a label change (the part that changed walked again) and a new window in the next read', async () => {
    let elements = await tree.elements({ activeWindowOnly: false });
    assert.ok(elements.some((e) => e.name === 'Count Zero' && e.role === 'push button'), JSON.stringify(elements.map((e) => e.name)));
    const button = elements.find((e) => e.name === 'Count Zero')!;
    assert.deepEqual(button.window?.name, 'Bridge Main');
    assert.equal(button.pid, app!.child.pid);
    assert.ok(button.app, 'the application is named');

    await tree.elements({ activeWindowOnly: false });
    assert.equal(tree.lastRead?.cached, tree.lastRead?.windows, 'an unchanged tree is served from the cache');
    const digest = await tree.treeDigest();
    assert.match(digest ?? '', /^[0-9a-f]{16}$/);

    await app!.command('label Count Renamed');
    elements = await tree.elements({ activeWindowOnly: false });
    const names = elements.map((e) => e.name);
    assert.ok(names.includes('Count Renamed') && !names.includes('Count Zero'), JSON.stringify(names));
    assert.equal(tree.lastRead?.cached, tree.lastRead?.windows, 'the changed window was not walked whole');
    assert.ok(tree.lastRead?.walked.some((w) => /^Bridge Main \d+ 1 part\(s\), \d+ nodes, after object:/.test(w)), `the part walked again is named with its time and the event that changed it: ${JSON.stringify(tree.lastRead?.walked)}`);
    // The active window is the main one (raised above): its digest follows its tree.
    assert.notEqual(await tree.treeDigest(), digest);

    await app!.command('open');
    elements = await tree.elements({ activeWindowOnly: false });
    const added = elements.filter((e) => e.name === 'Second Button');
    assert.ok(added.length >= 1, `the window opened is read at once: ${JSON.stringify(elements.map((e) => e.name))}`);
    assert.ok(added.every((e) => e.window?.name === 'Bridge Second'));
  });

  it('walks again only the part of a window that changed, and the kept walk then equals a fresh one', async () => {
    /** The main window's elements as a fresh walk and as the kept one give them. */
    const mainWindow = (elements: Awaited<ReturnType<AtspiAccessibility['elements']>>): string[] =>
      elements.filter((e) => e.window?.name === 'Bridge Main').map((e) => `${e.role}|${e.name}|${e.text ?? ''}|${e.bbox.x},${e.bbox.y},${e.bbox.width},${e.bbox.height}|${[...e.states].sort().join(' ')}`);
    const kept = async (): Promise<string[]> => mainWindow(await tree.elements({ activeWindowOnly: false }));
    const walkedMain = (): string[] => (tree.lastRead?.walked ?? []).filter((w) => w.startsWith('Bridge Main '));
    await app!.command('raise main');
    await kept();
    const steps: Array<[string, (names: string[]) => boolean]> = [
      ['add Part Added', (names) => names.some((n) => n.startsWith('push button|Part Added|'))],
      ['hide', (names) => !names.some((n) => n.includes('|Bridge fixture text|'))],
      ['show', (names) => names.some((n) => n.includes('|Bridge fixture text|'))],
      ['remove Part Added', (names) => !names.some((n) => n.includes('|Part Added|'))],
    ];
    for (const [command, seen] of steps) {
      await app!.command(command);
      let names = await kept();
      // The last events of a change may come after the first read that saw some of it.
      for (let tries = 0; !seen(names) && tries < 20; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        names = await kept();
      }
      assert.ok(seen(names), `${command}: ${JSON.stringify(names)}`);
      const parts = walkedMain();
      assert.ok(parts.length > 0 && parts.every((w) => / part\(s\), \d+ nodes, after object:/.test(w)), `${command}: only parts of the window were walked again: ${JSON.stringify(tree.lastRead?.walked)}`);
      // GTK lays the window out again a frame after the change, moving its neighbours: their
      // bounds events come then, and have their parts walked again at the next read.
      let again = names;
      for (let tries = 0; tries < 10; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        again = await kept();
        if (JSON.stringify(again) === JSON.stringify(names)) break;
        names = again;
      }
      assert.deepEqual(again, mainWindow(await tree.elements({ activeWindowOnly: false, fresh: true })), `${command}: the spliced walk is the window's walk`);
    }
  });

  it('switching back to an unchanged window reads it from the cache', async () => {
    const activeRead = async (title: string): Promise<void> => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const elements = await tree.elements();
        if (elements.length > 0 && elements.every((e) => e.window?.name === title && e.window.active)) return;
        if (Date.now() > deadline) throw new Error(`the tree never showed "${title}" as the active window: ${JSON.stringify(elements.map((e) => e.window))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await app!.command('raise main');
    await activeRead('Bridge Main');
    await app!.command('raise second');
    await activeRead('Bridge Second');
    await app!.command('raise main');
    await activeRead('Bridge Main');
    // Focus and activation moved, nothing in the window changed: its walk is kept.
    assert.deepEqual(tree.lastRead, { windows: 1, cached: 1, visited: tree.lastRead?.visited, walked: [] });
  });

  it('starts a new helper when the old one was killed, and fails the question it was answering clearly', async () => {
    const before = bridge.pid;
    assert.ok(before, 'the helper runs');
    const answer = tree.elements({ activeWindowOnly: false, fresh: true });
    process.kill(before, 'SIGKILL');
    // It may have answered before the signal landed; when not, the error says what happened.
    await answer.then(
      () => undefined,
      (error: Error) => assert.match(error.message, /desktop bridge helper exited \(SIGKILL\)/),
    );
    const active = await windows.activeWindow();
    assert.ok(active?.title.startsWith('Bridge'), JSON.stringify(active));
    assert.notEqual(bridge.pid, before);
    assert.equal(bridge.startCount, 2);
    const elements = await tree.elements({ activeWindowOnly: false });
    assert.ok(elements.some((e) => e.name === 'Count Renamed'), 'the new helper reads the tree again');
  });

  async function activeBecomes(title: string): Promise<WindowInfo> {
    // The window manager activates a window after it maps or is presented: wait for it.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const active = await windows.activeWindow();
      if (active?.title === title) return active;
      if (Date.now() > deadline) throw new Error(`"${title}" did not become active (active: ${JSON.stringify(active)})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});

function xwininfoBounds(id: string): Promise<BBox> {
  return new Promise((resolve, reject) => {
    execFile('xwininfo', ['-id', id], { env: display.env, timeout: 5_000 }, (error, stdout) => {
      if (error) return reject(error);
      const n = (re: RegExp): number => Number(re.exec(stdout)?.[1] ?? NaN);
      resolve({ x: n(/Absolute upper-left X:\s+(-?\d+)/), y: n(/Absolute upper-left Y:\s+(-?\d+)/), width: n(/Width:\s+(\d+)/), height: n(/Height:\s+(\d+)/) });
    });
  });
}
