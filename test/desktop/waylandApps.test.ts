// GAI on Wayland with apps of other kinds: an X11 app under sway's XWayland, GTK 4 and Qt 5 as
// native sway clients, and desktops GAI cannot drive (KDE or GNOME without their remote desktop) answered with a code.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { Desktop } from '../../src/desktop/ports/desktop';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { runBuiltCli } from './support/builtCli';
import { suiteDisplay } from './support/fixture';
import type { SwayDisplay } from './support/swayDisplay';
import { useSwayRig } from './support/swayRig';

describe('Wayland: an X11 app under sway\'s XWayland', function () {
  this.timeout(120_000);
  let sway: SwayDisplay;
  let desktop: Desktop;
  let app: ChildProcess;
  const start = (env: NodeJS.ProcessEnv, display?: string): ChildProcess[] => [spawn('galculator', [], { env: { ...env, DISPLAY: display, GDK_BACKEND: 'x11' }, stdio: 'ignore' })];
  useSwayRig({ xwayland: true, start }, (rig) => {
    ({ sway, desktop } = rig);
    app = rig.apps[0]!;
  });

  it('its tree is where XWayland says (not moved again), and typing and a click by the tree reach it', async () => {
    const window = (await desktop.windows.listWindows!()).find((w) => w.pid === app.pid)!;
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
  let apps: ChildProcess[];
  const start = (env: NodeJS.ProcessEnv): ChildProcess[] => [
    spawn('gnome-calculator', [], { env: { ...env, GDK_BACKEND: 'wayland' }, stdio: 'ignore' }),
    spawn('speedcrunch', [], { env: { ...env, QT_QPA_PLATFORM: 'wayland', QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' }, stdio: 'ignore' }),
  ];
  useSwayRig({ start }, (rig) => ({ sway, desktop, apps } = rig));

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

describe('Wayland desktops GAI cannot drive: a coded answer, never an X error', function () {
  this.timeout(60_000);

  it('GNOME on Wayland without Mutter\'s remote desktop (XWayland DISPLAY set too): click answers UNSUPPORTED_PLATFORM saying what is missing', async () => {
    const env: NodeJS.ProcessEnv = {
      ...suiteDisplay().env, WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'GNOME',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gai-bus',
    };
    delete env.SWAYSOCK;
    const outcome = await runBuiltCli(['click', 'Apply', '--json'], env);
    assert.notEqual(outcome.code, 0);
    const text = outcome.stdout + outcome.stderr;
    assert.match(text, /UNSUPPORTED_PLATFORM/);
    assert.match(text, /no session bus to reach Mutter on/);
    assert.match(text, /GNOME on Xorg/);
    assert.doesNotMatch(text, /X Error|BadMatch|X_GetImage|\n\s+at /);
  });

  it('KDE Plasma on Wayland without a session bus (so no desktop portal): click answers UNSUPPORTED_PLATFORM naming the portal and what to install', async () => {
    const env: NodeJS.ProcessEnv = {
      ...suiteDisplay().env, WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'KDE',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gai-bus',
    };
    delete env.SWAYSOCK;
    const outcome = await runBuiltCli(['click', 'Apply', '--json'], env);
    assert.notEqual(outcome.code, 0);
    const text = outcome.stdout + outcome.stderr;
    assert.match(text, /UNSUPPORTED_PLATFORM/);
    assert.match(text, /no session bus to reach the desktop portal on/);
    assert.match(text, /xdg-desktop-portal-kde/);
    assert.match(text, /Plasma \(X11\)/);
    assert.doesNotMatch(text, /X Error|BadMatch|X_GetImage|\n\s+at /);
  });
});
