// GAI on a Wayland desktop: a headless sway started by the test as the unprivileged set-up user,
// a native Wayland galculator (GTK 3, GDK_BACKEND=wayland), and GAI's own ports and CLI.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectDisplaySession } from '../../src/platform/linux/displaySession';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { SwayInterrupts } from '../../src/platform/linux/wayland/swayInterrupts';
import { SwayIpc } from '../../src/platform/linux/wayland/swayIpc';
import { GrimScreen } from '../../src/platform/linux/wayland/grimScreen';
import { SwayLayout } from '../../src/platform/linux/wayland/waylandLayout';
import type { Desktop } from '../../src/desktop/ports/desktop';
import type { StopTrigger } from '../../src/desktop/ports/interruptPort';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { runBuiltCli } from './support/builtCli';
import { suiteDisplay } from './support/fixture';
import { SWAY_SIZE, startSway, swayMissing, xwaylandDisplay, type SwayDisplay } from './support/swayDisplay';

describe('Wayland: sway (wlroots), headless, a native Wayland GTK app', function () {
  this.timeout(120_000);
  let sway: SwayDisplay;
  let desktop: Desktop;
  let app: ChildProcess | undefined;

  before(async function () {
    const missing = swayMissing();
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    sway = await startSway();
    desktop = createPlatformDesktop({ env: sway.env });
    app = spawn('galculator', [], { env: { ...sway.env, GDK_BACKEND: 'wayland' }, stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while (!(await desktop.windows.listWindows!()).some((w) => w.appName === 'galculator')) {
      if (Date.now() > deadline) throw new Error('galculator did not show on sway within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The first frame after the window is mapped: the buttons are drawn.
    await new Promise((r) => setTimeout(r, 700));
  });

  after(async () => {
    if (app?.pid !== undefined && app.exitCode === null) app.kill('SIGTERM');
    await desktop?.dispose?.();
    await sway?.stop();
  });

  /** The calculator's display, read by OCR from a fresh capture of its right end (a lone digit in a wide strip is missed). */
  async function displayText(): Promise<string> {
    const window = (await desktop.windows.activeWindow())!;
    const strip = await desktop.screen.grab({ x: window.bounds.x + window.bounds.width - 300, y: window.bounds.y + 30, width: 296, height: 56 });
    return (await desktop.ocr.recognize(strip)).fullText.replace(/\s+/g, '');
  }

  /** Input reaches the app after the compositor took it: the display is read until it shows what was expected. */
  async function waitForDisplay(expected: RegExp, timeoutMs = 5_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let text = await displayText();
    while (!expected.test(text) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 150));
      text = await displayText();
    }
    return text;
  }

  it('knows the session is sway from the environment; the screen is copied by GAI\'s helper, pixel for pixel what grim sees', async () => {
    const session = detectDisplaySession(sway.env);
    assert.equal(session.kind, 'wayland');
    assert.equal(session.kind === 'wayland' && session.compositor, 'sway');
    assert.deepEqual(await desktop.screen.size(), SWAY_SIZE);
    const image = await desktop.screen.grab();
    assert.equal(image.width, SWAY_SIZE.width);
    assert.equal(image.height, SWAY_SIZE.height);
    // Not a blank frame: galculator's light buttons and dark labels are both there.
    let dark = 0;
    for (let i = 0; i < image.data.length; i += 4) if (image.data[i]! < 80) dark++;
    assert.ok(dark > 1000, `dark pixels in the capture: ${dark}`);
    // A region, against grim's PPM of the same region: same size, origin and colours (byte order, stride).
    const region = { x: 900, y: 40, width: 333, height: 120 };
    const mine = await desktop.screen.grab(region);
    const ipc = new SwayIpc(sway.swaySocket);
    const grim = await new GrimScreen(sway.env, new SwayLayout(ipc)).grab(region);
    assert.deepEqual([mine.width, mine.height, mine.origin], [grim.width, grim.height, grim.origin]);
    let differing = 0;
    for (let i = 0; i < mine.data.length; i++) if (Math.abs(mine.data[i]! - grim.data[i]!) > 2) differing++;
    assert.ok(differing < mine.data.length / 100, `${differing} of ${mine.data.length} bytes differ from grim's`);
  });

  it('lists the window from sway\'s tree, with its pid and client box, and knows it is active', async () => {
    const windows = await desktop.windows.listWindows!();
    const galculator = windows.find((w) => w.appName === 'galculator');
    assert.ok(galculator, JSON.stringify(windows));
    assert.equal(galculator.pid, app!.pid);
    assert.ok(galculator.bounds.width > 1000 && galculator.bounds.height > 700, JSON.stringify(galculator.bounds));
    assert.equal((await desktop.windows.activeWindow())?.id, galculator.id);
  });

  it('gai click by text (OCR) presses the button on the Wayland window, and typing reaches it', async () => {
    const clicked = await runBuiltCli(['click', '9', '--json'], sway.env);
    assert.equal(clicked.code, 0, clicked.stdout + clicked.stderr);
    assert.match(clicked.stdout, /"success": true/);
    await desktop.input.typeText('42', 60);
    assert.match(await waitForDisplay(/^942$/), /^942$/);
    await runBuiltCli(['click', 'AC'], sway.env);
    assert.match(await waitForDisplay(/^0?$/), /^0?$/);
  });

  it('reads the window\'s accessibility tree and places it on the screen: "sqrt", which OCR reads as "sart", is clicked from the tree', async () => {
    const window = (await desktop.windows.activeWindow())!;
    const elements = await desktop.accessibility!.elements({ activeWindowOnly: true, fresh: true });
    const seven = elements.find((e) => e.name === '7' && e.role.includes('button'));
    assert.ok(seven, `no "7" button among ${elements.length} elements`);
    // GTK reports (6, 270) inside its window; the window's client box starts below sway's title bar.
    assert.ok(seven.bbox.x >= window.bounds.x && seven.bbox.y >= window.bounds.y + 200, JSON.stringify({ seven: seven.bbox, window: window.bounds }));
    // No digit twice in a row: galculator shows a typed key as its button pressed for a moment
    // and takes the same key again only after that (as it does on X11).
    await desktop.input.typeText('169', 60);
    assert.match(await waitForDisplay(/^169$/), /^169$/);
    const clicked = await runBuiltCli(['click', 'sqrt', '--json'], sway.env);
    assert.equal(clicked.code, 0, clicked.stdout + clicked.stderr);
    assert.match(clicked.stdout, /accessibility/);
    assert.match(await waitForDisplay(/^13$/), /^13$/);
    await runBuiltCli(['click', 'AC'], sway.env);
  });

  it('the stop hotkey is a sway binding for the request: pressing it stops, and it is gone after', async () => {
    const interrupts = new SwayInterrupts(new SwayIpc(sway.swaySocket));
    const stops: StopTrigger[] = [];
    const warnings: string[] = [];
    const watch = await interrupts.watch(
      { stopHotkey: { modifiers: ['ctrl', 'alt'], key: 'escape' }, failSafeCorner: true, watchInput: true },
      { onStop: (trigger) => stops.push(trigger), onWarning: (message) => warnings.push(message) },
    );
    assert.deepEqual(watch.capabilities, { hotkey: true, corner: false, input: false });
    assert.match(warnings.join('\n'), /takeover pause and the fail-safe corner cannot work on sway/);
    await desktop.input.pressKey({ modifiers: ['ctrl', 'alt'], key: 'escape' });
    const deadline = Date.now() + 3_000;
    while (stops.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(stops, ['hotkey']);
    await watch.close();
    // After the request the combination is the person's again: sway runs no binding for it.
    const heard: unknown[] = [];
    const listening = await new SwayIpc(sway.swaySocket).subscribe(['binding'], (_type, payload) => heard.push(payload), () => undefined);
    await desktop.input.pressKey({ modifiers: ['ctrl', 'alt'], key: 'escape' });
    await new Promise((r) => setTimeout(r, 300));
    listening.close();
    assert.deepEqual(heard, []);
  });
});

describe('Wayland: an X11 app under sway\'s XWayland', function () {
  this.timeout(120_000);
  let sway: SwayDisplay;
  let desktop: Desktop;
  let app: ChildProcess | undefined;

  before(async function () {
    const missing = swayMissing();
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    sway = await startSway(20_000, SWAY_SIZE, true);
    const display = await xwaylandDisplay(sway, new SwayIpc(sway.swaySocket));
    desktop = createPlatformDesktop({ env: sway.env });
    app = spawn('galculator', [], { env: { ...sway.env, DISPLAY: display, GDK_BACKEND: 'x11' }, stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while (!(await desktop.windows.listWindows!()).some((w) => w.pid === app!.pid)) {
      if (Date.now() > deadline) throw new Error('galculator (X11) did not show on sway within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 700));
  });

  after(async () => {
    if (app?.pid !== undefined && app.exitCode === null) app.kill('SIGTERM');
    await desktop?.dispose?.();
    await sway?.stop();
  });

  it('its tree is where XWayland says (not moved again), and typing and a click by the tree reach it', async () => {
    const window = (await desktop.windows.listWindows!()).find((w) => w.pid === app!.pid)!;
    const elements = await desktop.accessibility!.elements({ activeWindowOnly: true, fresh: true });
    const sqrt = elements.find((e) => e.name === 'sqrt');
    assert.ok(sqrt, `no "sqrt" among ${elements.length} elements`);
    // Inside the window's client box and on its right edge, where the button is drawn.
    assert.ok(sqrt.bbox.x + sqrt.bbox.width <= window.bounds.x + window.bounds.width + 1 && sqrt.bbox.x > window.bounds.x + window.bounds.width / 2, JSON.stringify({ sqrt: sqrt.bbox, window: window.bounds }));
    await desktop.input.typeText('169', 60);
    const clicked = await runBuiltCli(['click', 'sqrt', '--json'], sway.env);
    assert.equal(clicked.code, 0, clicked.stdout + clicked.stderr);
    assert.match(clicked.stdout, /accessibility/);
    const display = { x: window.bounds.x + window.bounds.width - 300, y: window.bounds.y + 30, width: 296, height: 56 };
    const read = async (): Promise<string> => (await desktop.ocr.recognize(await desktop.screen.grab(display))).fullText.replace(/\s+/g, '');
    const deadline = Date.now() + 5_000;
    let text = await read();
    while (text !== '13' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 150));
      text = await read();
    }
    assert.equal(text, '13');
  });
});

describe('Wayland: GTK 4 and Qt 5 apps as native sway clients', function () {
  this.timeout(120_000);
  let sway: SwayDisplay;
  let desktop: Desktop;
  const apps: ChildProcess[] = [];
  let home: string;

  before(async function () {
    const missing = swayMissing();
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    sway = await startSway();
    home = mkdtempSync(join(tmpdir(), 'gai-wl-apps-'));
    desktop = createPlatformDesktop({ env: sway.env });
    const env = { ...sway.env, HOME: home, GSETTINGS_BACKEND: 'memory' };
    apps.push(spawn('gnome-calculator', [], { env: { ...env, GDK_BACKEND: 'wayland' }, stdio: 'ignore' }));
    apps.push(spawn('speedcrunch', [], { env: { ...env, QT_QPA_PLATFORM: 'wayland', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' }, stdio: 'ignore' }));
    const deadline = Date.now() + 30_000;
    while ((await desktop.windows.listWindows!()).length < 2) {
      if (Date.now() > deadline) throw new Error('gnome-calculator and speedcrunch did not both show on sway within 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1500));
  });

  after(async () => {
    for (const app of apps) if (app.exitCode === null) app.kill('SIGTERM');
    await desktop?.dispose?.();
    await sway?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** The window of the app, from sway's tree. */
  async function windowOf(app: ChildProcess): Promise<WindowInfo> {
    const window = (await desktop.windows.listWindows!()).find((w) => w.pid === app.pid);
    assert.ok(window, `no window of pid ${app.pid}`);
    return window;
  }

  it('GTK 4 (gnome-calculator): its keys are placed inside its tile and clicked by the tree', async () => {
    const window = await windowOf(apps[0]!);
    for (const key of ['7', '8', '9']) {
      const clicked = await runBuiltCli(['click', key, '--json'], sway.env);
      assert.equal(clicked.code, 0, clicked.stdout + clicked.stderr);
      assert.match(clicked.stdout, /accessibility/);
      const point = (JSON.parse(clicked.stdout) as { data: { point: { x: number; y: number } } }).data.point;
      assert.ok(point.x > window.bounds.x && point.x < window.bounds.x + window.bounds.width, `${key} at ${point.x}, window ${JSON.stringify(window.bounds)}`);
    }
    // The expression line shows 789 (the keypad's 7 8 9 are apart, on a line of their own).
    const text = (await desktop.ocr.recognize(await desktop.screen.grab(window.bounds))).fullText;
    assert.match(text, /^\s*789\s*$/m, text);
  });

  it('Qt 5 (speedcrunch): its menu titles are placed on its menu bar, and a menu opened by a click shows its items below', async () => {
    const window = await windowOf(apps[1]!);
    const clicked = await runBuiltCli(['click', 'Session', '--json'], sway.env);
    assert.equal(clicked.code, 0, clicked.stdout + clicked.stderr);
    const point = (JSON.parse(clicked.stdout) as { data: { point: { x: number; y: number } } }).data.point;
    assert.ok(point.x >= window.bounds.x && point.x < window.bounds.x + 120 && point.y >= window.bounds.y && point.y < window.bounds.y + 30, `Session at ${JSON.stringify(point)}, window ${JSON.stringify(window.bounds)}`);
    const deadline = Date.now() + 5_000;
    let items: AccessibleElement[] = [];
    while (items.length === 0 && Date.now() < deadline) {
      items = (await desktop.accessibility!.elements({ activeWindowOnly: false, fresh: true })).filter((e) => e.app?.toLowerCase().includes('speedcrunch') && e.role === 'menu item' && /quit/i.test(e.name));
      if (items.length === 0) await new Promise((r) => setTimeout(r, 150));
    }
    assert.equal(items.length, 1, 'the Session menu\'s Quit item');
    // Drawn: the pixels at the item's box read its name.
    const box = items[0]!.bbox;
    assert.ok(box.y > point.y && box.x >= window.bounds.x, JSON.stringify({ quit: box, session: point }));
    const pixels = await desktop.screen.grab({ x: box.x, y: box.y, width: Math.min(box.width, 200), height: box.height });
    assert.match((await desktop.ocr.recognize(pixels)).fullText, /Quit/);
    await desktop.input.pressKey({ modifiers: [], key: 'escape' });
  });
});

describe('Wayland desktops GAI cannot drive yet: a coded answer, never an X error', function () {
  this.timeout(60_000);

  it('GNOME on Wayland (XWayland DISPLAY set too): click answers UNSUPPORTED_PLATFORM naming GNOME and what to do', async () => {
    const env: NodeJS.ProcessEnv = { ...suiteDisplay().env, WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'GNOME' };
    delete env.SWAYSOCK;
    const outcome = await runBuiltCli(['click', 'Apply', '--json'], env);
    assert.notEqual(outcome.code, 0);
    const text = outcome.stdout + outcome.stderr;
    assert.match(text, /UNSUPPORTED_PLATFORM/);
    assert.match(text, /GNOME \(Mutter\) on Wayland/);
    assert.match(text, /X11 session/);
    assert.doesNotMatch(text, /X Error|BadMatch|X_GetImage|\n\s+at /);
  });
});
