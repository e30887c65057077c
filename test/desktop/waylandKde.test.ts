// GAI on KDE Plasma's Wayland session: headless KWin 5.27 with xdg-desktop-portal and its KDE
// backend, the way a Plasma session offers them to an ordinary program. Input goes through the
// portal's remote-desktop session (KDE asks no question of a program outside a sandbox, it shows a
// notification), windows and the places of their accessibility trees come from KWin's scripting,
// the stop hotkey from the portal's global shortcuts. What the test checks is seen independently:
// galculator's display is read through its own accessibility tree, its size from its frame.
// Not run here: the screen's pictures (KWin 5.27's headless backend casts none; see kdeDisplay.ts).
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { Desktop } from '../../src/desktop/ports/desktop';
import type { InterruptHandlers } from '../../src/desktop/ports/interruptPort';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { createPlatformInterrupts } from '../../src/platform/platformInterrupts';
import { runBuiltCli } from './support/builtCli';
import { kdeMissing, startKde, type KdeDisplay } from './support/kdeDisplay';
import { pollText } from './support/pollText';

/** galculator's display and its frame's size, read through its own accessibility tree. */
const GALCULATOR_READER = String.raw`
import gi, json
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi
d = Atspi.get_desktop(0)
for i in range(d.get_child_count()):
    app = d.get_child_at_index(i)
    if app.get_name() != 'galculator':
        continue
    frame = app.get_child_at_index(0)
    e = frame.get_extents(Atspi.CoordType.WINDOW)
    shown, stack = '', [frame]
    while stack:
        n = stack.pop()
        if n.get_role_name() == 'text':
            t = Atspi.Text.get_text(n, 0, -1).strip()
            shown = shown or t
        stack.extend(n.get_child_at_index(k) for k in range(n.get_child_count()))
    print(json.dumps({'display': shown, 'size': [e.width, e.height]}))
`;

/** Runs a KWin script from the test's side (a person moving a window, in effect). */
const KWIN_RUN = String.raw`
import sys, tempfile, os
from gi.repository import Gio, GLib
b = Gio.bus_get_sync(Gio.BusType.SESSION, None)
fd, path = tempfile.mkstemp(suffix='.js'); os.write(fd, sys.argv[1].encode()); os.close(fd)
call = lambda m, fmt=None, args=None: b.call_sync('org.kde.KWin', '/Scripting', 'org.kde.kwin.Scripting', m, GLib.Variant(fmt, args) if fmt else None, None, 0, 3000, None)
call('loadScript', '(ss)', (path, 'gai-test')); call('start'); call('unloadScript', '(s)', ('gai-test',))
`;

/** Holds a key for another program through the portal's global shortcuts, until stdin closes. */
const OTHER_SHORTCUT = String.raw`
import sys, os
from gi.repository import Gio, GLib
b = Gio.bus_get_sync(Gio.BusType.SESSION, None)
sc = GLib.Variant('a(sa{sv})', [('other', {'description': GLib.Variant('s', 'Another program'), 'preferred_trigger': GLib.Variant('s', sys.argv[1])})])
b.call_sync('org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop', 'org.freedesktop.portal.GlobalShortcuts', 'CreateSession',
    GLib.Variant('(a{sv})', ({'handle_token': GLib.Variant('s', 'other%d' % os.getpid()), 'session_handle_token': GLib.Variant('s', 'otherapp'), 'shortcuts': sc},)), None, 0, 10000, None)
print('held', flush=True)
sys.stdin.read()
`;

describe('Wayland: KDE Plasma (headless KWin 5.27) through the desktop portal and KWin\'s scripting', function () {
  this.timeout(180_000);
  let kde: KdeDisplay | undefined;
  let desktop: Desktop | undefined;
  let app: ChildProcess | undefined;
  let home = '';
  let env: NodeJS.ProcessEnv = {};

  const galculator = (): { display: string; size: [number, number] } => {
    const read = spawnSync('/usr/bin/python3', ['-c', GALCULATOR_READER], { env, encoding: 'utf8', timeout: 10_000 });
    return JSON.parse(read.stdout.trim() || '{"display":"","size":[0,0]}') as { display: string; size: [number, number] };
  };
  const clickAll = async (texts: string[]): Promise<void> => {
    const services = createDesktopServices(desktop!);
    for (const text of texts) {
      const found = await services.locator.locate(text);
      assert.ok(found.status === 'found', `${text}: ${JSON.stringify(found)}`);
      assert.equal(found.source, 'accessibility', `${text} was found through ${found.source}`);
      await desktop!.input.click(found.point, 'left', 1);
    }
  };

  before(async function () {
    const missing = kdeMissing();
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    kde = await startKde();
    env = kde.env;
    home = mkdtempSync(join(tmpdir(), 'gai-kde-app-'));
    app = spawn('galculator', [], { env: { ...env, HOME: home, GDK_BACKEND: 'wayland', GSETTINGS_BACKEND: 'memory' }, stdio: 'ignore' });
    desktop = createPlatformDesktop({ env });
    const deadline = Date.now() + 30_000;
    while ((await desktop.windows.activeWindow().catch(() => undefined))?.appName !== 'galculator') {
      if (Date.now() > deadline) throw new Error('galculator did not show within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  after(async () => {
    if (app?.pid !== undefined && app.exitCode === null) app.kill('SIGTERM');
    await desktop?.dispose?.();
    await kde?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('windows come from KWin: the active window and the list name galculator, its process and its client area', async () => {
    const active = await desktop!.windows.activeWindow();
    assert.equal(active?.appName, 'galculator');
    assert.equal(active?.pid, app!.pid);
    const [width, height] = galculator().size;
    assert.ok(width > 200 && height > 200, `galculator's frame: ${width}x${height}`);
    // KWin's client area is the surface galculator draws (KDE decorates it on the server's side).
    assert.deepEqual([active!.bounds.width, active!.bounds.height], [width, height]);
    const listed = await desktop!.windows.listWindows!();
    assert.deepEqual(listed.map((w) => w.appName), ['galculator']);
    assert.deepEqual(listed[0]!.bounds, active!.bounds);
  });

  it('the tree is placed where KWin puts the window; clicks by text go through the portal and land, also after the window moved', async () => {
    const before = (await desktop!.windows.activeWindow())!.bounds;
    const seven = (await desktop!.accessibility!.elements({ activeWindowOnly: true })).find((e) => e.name === '7')!;
    assert.ok(seven.bbox.x > before.x && seven.bbox.x + seven.bbox.width < before.x + before.width, `7 at ${JSON.stringify(seven.bbox)} in ${JSON.stringify(before)}`);
    assert.ok(seven.bbox.y > before.y && seven.bbox.y + seven.bbox.height < before.y + before.height, `7 at ${JSON.stringify(seven.bbox)} in ${JSON.stringify(before)}`);
    await clickAll(['AC', '7', '+', '8', '=']);
    assert.equal(await pollText(async () => galculator().display, /^15$/), '15');
    // The person moves the window: the next clicks follow it.
    const moved = spawnSync('/usr/bin/python3', ['-c', KWIN_RUN, `var w = workspace.activeClient; var g = w.frameGeometry; w.frameGeometry = {x: g.x - 300, y: g.y + 120, width: g.width, height: g.height};`], { env, encoding: 'utf8', timeout: 10_000 });
    assert.equal(moved.status, 0, moved.stderr);
    await new Promise((r) => setTimeout(r, 300));
    const after = (await desktop!.windows.activeWindow())!.bounds;
    assert.deepEqual([after.x - before.x, after.y - before.y], [-300, 120]);
    await clickAll(['AC', '9', '-', '4', '=']);
    assert.equal(await pollText(async () => galculator().display, /^5$/), '5');
  });

  it('typing through the portal\'s keyboard', async () => {
    await clickAll(['AC']);
    await desktop!.input.typeText('12+30', 40);
    await desktop!.input.pressKey({ modifiers: [], key: 'enter' });
    assert.equal(await pollText(async () => galculator().display, /^42$/), '42');
  });

  it('the stop hotkey through the portal\'s global shortcuts, at each request; a key another program holds is said, not taken', async () => {
    const interrupts = createPlatformInterrupts(env);
    for (let request = 0; request < 2; request++) {
      const stops: string[] = [];
      const warnings: string[] = [];
      const handlers: InterruptHandlers = { onStop: (trigger) => stops.push(trigger), onWarning: (message) => warnings.push(message) };
      const watch = await interrupts.watch({ stopHotkey: { modifiers: ['ctrl', 'alt'], key: 'escape' }, failSafeCorner: true, watchInput: true }, handlers);
      try {
        assert.deepEqual(watch.capabilities, { hotkey: true, corner: false, input: false });
        assert.match(warnings.join('\n'), /the takeover pause and the fail-safe corner cannot work on KDE Plasma's Wayland session/);
        await desktop!.input.pressKey({ modifiers: ['ctrl', 'alt'], key: 'escape' });
        const deadline = Date.now() + 5_000;
        while (stops.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(stops, ['hotkey'], `request ${request + 1}`);
      } finally {
        await watch.close();
      }
    }
    // Another program holds Ctrl+Alt+F12: GAI says so and leaves it.
    const other = spawn('/usr/bin/python3', ['-c', OTHER_SHORTCUT, 'CTRL+ALT+F12'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        other.stdout!.once('data', () => resolve());
        other.once('exit', (code) => reject(new Error(`the other program's shortcut ended (${code})`)));
      });
      const warnings: string[] = [];
      const watch = await interrupts.watch({ stopHotkey: { modifiers: ['ctrl', 'alt'], key: 'f12' }, failSafeCorner: false, watchInput: false },
        { onStop: () => assert.fail('the stop hotkey fired'), onWarning: (message) => warnings.push(message) });
      await watch.close();
      assert.equal(watch.capabilities.hotkey, false);
      assert.match(warnings.join('\n'), /ctrl\+alt\+f12 is taken by another shortcut on KDE Plasma, so the stop hotkey is off/i);
    } finally {
      other.stdin!.end();
      if (other.exitCode === null) other.kill('SIGTERM');
    }
  });

  it('gai doctor names the KDE route; a screen reading fails saying why (this headless KWin casts no picture), with no raw error', async () => {
    const doctor = await runBuiltCli(['doctor'], env);
    assert.match(doctor.stdout, /display\s+ok\s+Wayland, KDE Plasma \(KWin\).*desktop portal's remote-desktop session.*KWin's scripting.*global shortcuts/);
    const ocr = await runBuiltCli(['ocr'], env);
    const said = ocr.stdout + ocr.stderr;
    assert.notEqual(ocr.code, 0);
    assert.match(said, /gave no picture of the screen within 3 s/);
    assert.doesNotMatch(said, /Traceback|GDBus\.Error|X Error|\n\s+at /);
  });
});
