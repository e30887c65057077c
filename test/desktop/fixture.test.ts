// Proves the desktop harness: a private 1920x1080 display with a window manager, the Tk
// fixture app on it, and real X input (xdotool) arriving in the fixture's log.
import * as assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { VirtualDisplay } from '../../src/platform/linux/x11/virtualDisplay';
import {
  FIXTURE_PYTHON,
  FIXTURE_SCRIPT,
  FIXTURE_TITLE,
  FIXTURE_WM_CLASS,
  fixtureArgs,
  launchFixture,
  suiteDisplay,
  writeDesktopEntry,
  type Fixture,
  type FixtureEvent,
  type SuiteDisplay,
  type WidgetGeometry,
} from './support/fixture';

/** Runs an X client against the given env (never the ambient DISPLAY); resolves with stdout. */
function x11(env: NodeJS.ProcessEnv, command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: 10000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}; stderr: ${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * `pgrep -a` lines of the matching processes, zombies left out ('' for none): an orphaned
 * child (the display watchdog's `sleep`) stays a zombie until init reaps it; not a leak.
 */
function pgrep(args: string[]): string {
  const result = spawnSync('pgrep', ['-a', ...args], { encoding: 'utf8' });
  if (result.status !== 0) return '';
  return result.stdout
    .split('\n')
    .filter((line) => line.trim() !== '' && !isZombie(Number(line.split(' ')[0])))
    .join('\n');
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return true; // already gone
  }
}

function centre(widget: WidgetGeometry): [string, string] {
  return [String(Math.round(widget.x + widget.width / 2)), String(Math.round(widget.y + widget.height / 2))];
}

function screenSize(xdpyinfo: string): string | undefined {
  return /dimensions:\s+(\d+x\d+) pixels/.exec(xdpyinfo)?.[1];
}

async function activeWindowId(env: NodeJS.ProcessEnv): Promise<string> {
  const out = await x11(env, 'xprop', ['-root', '_NET_ACTIVE_WINDOW']);
  const id = /window id # (0x[0-9a-f]+)/i.exec(out)?.[1];
  if (id === undefined || /^0x0+$/.test(id)) throw new Error(`no active window: ${out.trim()}`);
  return id;
}

describe('desktop harness', function () {
  let display: SuiteDisplay;

  before(function () {
    display = suiteDisplay();
  });

  it('runs on its own 1920x1080 virtual display, not the user\u2019s', async function () {
    assert.match(display.display, /^:\d+$/);
    assert.notEqual(display.display, display.outerDisplay, 'the suite display must not be the DISPLAY it was started from');
    assert.equal(display.env.WAYLAND_DISPLAY, undefined);
    assert.equal(display.env.DBUS_SESSION_BUS_ADDRESS, undefined, "children must not reach the user's D-Bus session");
    assert.equal(screenSize(await x11(display.env, 'xdpyinfo', [])), '1920x1080');
    const root = await x11(display.env, 'xwininfo', ['-root']);
    assert.match(root, /Width: 1920\b/);
    assert.match(root, /Height: 1080\b/);
    // openbox manages it: without a window manager focus and nut-js misbehave.
    assert.match(await x11(display.env, 'xprop', ['-root', '_NET_SUPPORTING_WM_CHECK']), /window id # 0x[0-9a-f]+/i);
  });

  describe('the fixture app', function () {
    let fixture: Fixture;

    before(async function () {
      fixture = await launchFixture(display);
    });

    after(async function () {
      if (!fixture) return;
      await fixture.close();
      assert.ok(fixture.events().some((event) => event.event === 'exit'), 'the fixture logs "exit" on SIGTERM');
      assert.equal(pgrep(['-f', fixture.logPath]), '', 'no fixture process outlives close()');
    });

    it('starts focused, with every widget\u2019s screen geometry in its ready line', function () {
      assert.equal(fixture.ready.title, FIXTURE_TITLE);
      assert.equal(fixture.ready.focused, true);
      for (const name of ['save_button', 'left_ok_button', 'right_ok_button', 'name_entry', 'email_entry', 'item_list']) {
        const widget = fixture.widget(name);
        assert.ok(widget.width > 0 && widget.height > 0, `${name} has a size`);
        assert.ok(widget.x >= 0 && widget.x + widget.width <= 1920 && widget.y >= 0 && widget.y + widget.height <= 1080, `${name} is on screen`);
      }
      assert.equal(fixture.widget('left_ok_button').label, fixture.widget('right_ok_button').label);
    });

    it('is the active window, titled "GAI Fixture" with WM_CLASS GaiFixture', async function () {
      const id = await activeWindowId(display.env);
      const props = await x11(display.env, 'xprop', ['-id', id, '_NET_WM_NAME', 'WM_CLASS']);
      assert.match(props, /_NET_WM_NAME\(UTF8_STRING\) = "GAI Fixture"/);
      assert.match(props, new RegExp(`WM_CLASS\\(STRING\\) = "[^"]*", "${FIXTURE_WM_CLASS}"`));
    });

    it('logs an xdotool click on Save as a left click on save_button', async function () {
      const start = fixture.events().length;
      await x11(display.env, 'xdotool', ['mousemove', '--sync', ...centre(fixture.widget('save_button')), 'click', '1']);
      const click = await fixture.waitFor((event, index) => index >= start && event.event === 'click');
      assert.deepEqual(pick(click, ['widget', 'label', 'button', 'double']), {
        widget: 'save_button',
        label: 'Save',
        button: 1,
        double: false,
      });
    });

    it('logs text typed with xdotool into the Name entry', async function () {
      const start = fixture.events().length;
      const entry = fixture.widget('name_entry');
      await x11(display.env, 'xdotool', ['mousemove', '--sync', ...centre(entry), 'click', '1']);
      await fixture.waitFor((event, index) => index >= start && event.event === 'focus' && event.widget === 'name_entry');
      await x11(display.env, 'xdotool', ['type', '--delay', '10', 'Hello GAI!']);
      await fixture.waitFor((event) => event.event === 'text' && event.widget === 'name_entry' && event.value === 'Hello GAI!');
      const keys = fixture.events().filter((event, index) => index >= start && event.event === 'key' && event.char === '!');
      assert.deepEqual(pick(keys[0] ?? { event: 'none' }, ['keysym', 'state', 'widget']), {
        keysym: 'exclam',
        state: ['Shift'],
        widget: 'name_entry',
      });
    });
  });

  it('moves and renames the buttons in the "moved" and "renamed" variants', async function () {
    const positions: Record<string, WidgetGeometry> = {};
    for (const variant of ['default', 'moved', 'renamed'] as const) {
      const fixture = await launchFixture(display, { variant, title: `GAI Fixture ${variant}` });
      try {
        positions[variant] = fixture.widget('save_button');
      } finally {
        await fixture.close();
      }
    }
    assert.equal(positions.default?.label, 'Save');
    assert.equal(positions.moved?.label, 'Save');
    assert.equal(positions.renamed?.label, 'Store');
    assert.notDeepEqual([positions.moved?.x, positions.moved?.y], [positions.default?.x, positions.default?.y]);
  });

  it('logs "exit" and ends when its window is closed (openbox\u2019s default Alt+F4)', async function () {
    const fixture = await launchFixture(display, { title: 'GAI Fixture close' });
    try {
      await x11(display.env, 'xdotool', ['key', 'alt+F4']);
      await fixture.waitFor((event) => event.event === 'exit');
    } finally {
      await fixture.close();
    }
    assert.equal(pgrep(['-f', fixture.logPath]), '');
  });

  it('writes a desktop entry whose Exec line starts the fixture', async function () {
    // Spaces, quotes, $ and % in the path exercise the Desktop Entry quoting.
    const dataHome = mkdtempSync(path.join(tmpdir(), 'gai xdg $HOME "q" 100%-'));
    let launched: ChildProcess | undefined;
    try {
      const logPath = path.join(dataHome, 'launched.jsonl');
      const file = writeDesktopEntry(dataHome, {
        name: FIXTURE_TITLE,
        exec: [FIXTURE_PYTHON, FIXTURE_SCRIPT, ...fixtureArgs({ logPath, title: 'Launched Fixture' })],
      });
      assert.equal(file, path.join(dataHome, 'applications', 'gai-fixture.desktop'));
      const text = readFileSync(file, 'utf8');
      assert.match(text, /^\[Desktop Entry\]\nType=Application\n/);
      assert.match(text, /^Name=GAI Fixture$/m);
      assert.match(text, /^StartupWMClass=GaiFixture$/m);
      const exec = /^Exec=(.*)$/m.exec(text)?.[1] ?? '';
      // Without field codes, an Exec line unescapes like a POSIX shell word list once %% is %.
      launched = spawn('sh', ['-c', `exec ${exec.replace(/%%/g, '%')}`], { env: display.env, stdio: 'ignore' });
      const ready = await waitForLine(logPath, '"event": "ready"', 15000);
      assert.match(ready, /"title": "Launched Fixture"/);
    } finally {
      launched?.kill('SIGTERM');
      if (launched && launched.exitCode === null && launched.signalCode === null) await once(launched, 'exit');
      rmSync(dataHome, { recursive: true, force: true });
    }
  });

  it('starts and stops a VirtualDisplay of its own without leaving processes behind', async function () {
    const own = await VirtualDisplay.start({ width: 800, height: 600 });
    const { xvfb, windowManager, watchdog } = own.processIds;
    const groups = [xvfb, windowManager, watchdog].filter((pid) => pid !== undefined).join(',');
    try {
      assert.notEqual(own.display, display.display);
      assert.equal(screenSize(await x11(own.env, 'xdpyinfo', [])), '800x600');
      assert.match(pgrep(['-g', groups]), /Xvfb[\s\S]*openbox|openbox[\s\S]*Xvfb/);
    } finally {
      await own.stop();
    }
    await own.stop(); // idempotent
    assert.equal(pgrep(['-g', groups]), '', 'Xvfb and openbox are gone after stop()');
    assert.equal(existsSync(`/tmp/.X11-unix/X${own.display.slice(1)}`), false, 'the display socket is removed');
    assert.equal(existsSync(own.logDir), false, 'the temporary log directory is removed');
  });
});

async function waitForLine(file: string, needle: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const line = text.split('\n').find((candidate) => candidate.includes(needle));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no line with ${needle} in ${file} within ${timeoutMs} ms:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function pick(event: FixtureEvent, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, event[key]]));
}
