// GAI on GNOME's Wayland: headless Mutter 43, then GNOME Shell 43, started by the test with
// PipeWire, a native Wayland galculator (GTK 3), and GAI's own ports and CLI driving it through
// Mutter's remote-desktop and screen-cast interfaces, with the accessibility tree placed by the
// screen's text.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BBox } from '../../src/common/geometry';
import type { Desktop } from '../../src/desktop/ports/desktop';
import { detectDisplaySession } from '../../src/platform/linux/displaySession';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { runBuiltCli } from './support/builtCli';
import { pollText } from './support/pollText';
import { GNOME_SIZE, gnomeMissing, startGnome, type GnomeDisplay, type GnomeKind } from './support/gnomeDisplay';

const KINDS: Array<[GnomeKind, string]> = [['mutter', 'Mutter 43 alone'], ['gnome-shell', 'GNOME Shell 43']];

for (const [kind, title] of KINDS) describe(`Wayland: GNOME (${title}, headless), a native Wayland GTK app`, function () {
  this.timeout(120_000);
  let gnome: GnomeDisplay | undefined;
  let desktop: Desktop;
  let app: ChildProcess | undefined;
  let home: string;

  before(async function () {
    const missing = gnomeMissing(kind);
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    gnome = await startGnome(kind);
    desktop = createPlatformDesktop({ env: gnome.env });
    if (kind === 'gnome-shell') {
      // GNOME Shell starts in its overview; a person leaves it with Escape before opening an app.
      // On a busy machine the shell may not offer its remote desktop yet: the helper's first
      // connection then gives up after 5 s (as it should), and a person would try again.
      await new Promise((r) => setTimeout(r, 1_500));
      const shellDeadline = Date.now() + 30_000;
      for (;;) {
        try {
          await desktop.input.pressKey({ modifiers: [], key: 'escape' });
          break;
        } catch (error) {
          if (Date.now() > shellDeadline) throw error;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
    home = mkdtempSync(join(tmpdir(), 'gai-gnome-apps-'));
    app = spawn('galculator', [], { env: { ...gnome.env, HOME: home, GDK_BACKEND: 'wayland', GSETTINGS_BACKEND: 'memory' }, stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!(await desktop.windows.activeWindow().catch(() => undefined))) {
      if (Date.now() > deadline) throw new Error('galculator did not show on Mutter within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 500));
  });

  after(async () => {
    if (app?.pid !== undefined && app.exitCode === null) app.kill('SIGTERM');
    await desktop?.dispose?.();
    await gnome?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** The calculator's display (above "AC", its right end over "sqrt"), read by OCR from a fresh capture of its right end. */
  async function displayText(): Promise<string> {
    const elements = await desktop.accessibility!.elements({ activeWindowOnly: true });
    const ac = elements.find((e) => e.name === 'AC')!;
    const sqrt = elements.find((e) => e.name === 'sqrt')!;
    const strip = await desktop.screen.grab({ x: sqrt.bbox.x + sqrt.bbox.width - 200, y: ac.bbox.y - 66, width: 198, height: 58 });
    return (await desktop.ocr.recognize(strip)).fullText.replace(/\s+/g, '');
  }

  /** What is drawn at the middle of a box (a key's label), read by OCR. */
  async function labelInside(box: BBox): Promise<string> {
    const width = Math.min(box.width - 8, 48);
    const height = Math.min(box.height - 8, 28);
    const middle = await desktop.screen.grab({ x: Math.round(box.x + (box.width - width) / 2), y: Math.round(box.y + (box.height - height) / 2), width, height });
    return (await desktop.ocr.recognize(middle, { layout: 'word', scale: 3 })).fullText.trim();
  }

  function waitForDisplay(expected: RegExp): Promise<string> {
    return pollText(displayText, expected);
  }


  it('knows the session is GNOME; the screen comes from Mutter\'s screen-cast stream, a region the same pixels as the whole', async () => {
    const session = detectDisplaySession(gnome!.env);
    assert.equal(session.kind === 'wayland' && session.compositor, 'gnome');
    assert.deepEqual(await desktop.screen.size(), GNOME_SIZE);
    const image = await desktop.screen.grab();
    assert.deepEqual([image.width, image.height], [GNOME_SIZE.width, GNOME_SIZE.height]);
    let dark = 0;
    let light = 0;
    for (let i = 0; i < image.data.length; i += 4) {
      if (image.data[i]! < 60) dark++;
      if (image.data[i]! > 220 && image.data[i + 2]! > 220) light++;
    }
    assert.ok(dark > 1000 && light > 10_000, `a drawn desktop with a light window: dark ${dark}, light ${light}`);
    const region = { x: 100, y: 200, width: 333, height: 120 };
    const part = await desktop.screen.grab(region);
    assert.deepEqual([part.width, part.height, part.origin], [region.width, region.height, { x: 100, y: 200 }]);
    for (const [px, py] of [[0, 0], [150, 60], [332, 119]] as const) {
      const a = (py * part.width + px) * 4;
      const b = ((region.y + py) * image.width + region.x + px) * 4;
      assert.deepEqual([...part.data.subarray(a, a + 4)], [...image.data.subarray(b, b + 4)], `pixel ${px},${py}`);
    }
  });

  it('places the window\'s accessibility tree on the screen: each placed button has its own label drawn inside it', async () => {
    const elements = await desktop.accessibility!.elements({ activeWindowOnly: true, fresh: true });
    const buttons = elements.filter((e) => /^[0-9]$/.test(e.name) && e.role.includes('button'));
    assert.equal(buttons.length, 10, JSON.stringify(elements.map((e) => e.name)));
    for (const button of buttons.filter((b) => ['1', '5', '9'].includes(b.name))) {
      assert.equal(await labelInside(button.bbox), button.name, `inside the placed box of "${button.name}" (${JSON.stringify(button.bbox)})`);
    }
    const window = (await desktop.windows.activeWindow())!;
    assert.equal(window.appName, 'galculator');
    assert.equal(window.pid, app!.pid);
  });

  it('typing and keys reach the app through Mutter\'s virtual keyboard (once a click gave it the focus)', async () => {
    // A new window on a headless Mutter has no keyboard focus until it is clicked, as a person would.
    const ac = (await desktop.accessibility!.elements({ activeWindowOnly: true })).find((e) => e.name === 'AC')!;
    await desktop.input.click({ x: ac.bbox.x + ac.bbox.width / 2, y: ac.bbox.y + ac.bbox.height / 2 }, 'left', 1);
    await desktop.input.typeText('12+30', 60);
    await desktop.input.pressKey({ modifiers: [], key: 'enter' });
    assert.match(await waitForDisplay(/^42$/), /^42$/);
  });

  it('gai click by text: "sqrt" from the placed tree (OCR reads it "sart"), then "AC" clears', async () => {
    await desktop.input.pressKey({ modifiers: [], key: 'escape' });
    await desktop.input.typeText('169', 60);
    assert.match(await waitForDisplay(/^169$/), /^169$/);
    const clicked = await runBuiltCli(['click', 'sqrt', '--json'], gnome!.env);
    assert.equal(clicked.code, 0, clicked.stdout + clicked.stderr);
    assert.match(clicked.stdout, /"source": "accessibility"/);
    assert.match(await waitForDisplay(/^13$/), /^13$/);
    const ocr = await runBuiltCli(['click', 'AC', '--json'], gnome!.env);
    assert.equal(ocr.code, 0, ocr.stdout + ocr.stderr);
    assert.match(await waitForDisplay(/^0?\.?$/), /^0?\.?$/);
  });

  it('presses buttons through their accessibility actions, no input event: 8 5', async () => {
    for (const digit of ['8', '5']) {
      const pressed = await runBuiltCli(['click', digit, '--via', 'accessibility', '--json'], gnome!.env);
      assert.equal(pressed.code, 0, pressed.stdout + pressed.stderr);
      assert.match(pressed.stdout, /the pointer did not move/);
    }
    assert.match(await waitForDisplay(/^85$/), /^85$/);
    await runBuiltCli(['click', 'AC'], gnome!.env);
    assert.match(await waitForDisplay(/^0?\.?$/), /^0?\.?$/);
  });

  // Mutter alone has no tiling shortcut: a GNOME Shell test only.
  if (kind === 'gnome-shell') it('a window the person moves is placed again before its tree is used (GNOME Shell: Super+Left tiles it)', async () => {
    const before = (await desktop.accessibility!.elements({ activeWindowOnly: true })).find((e) => e.name === '7')!;
    await desktop.input.pressKey({ modifiers: ['super'], key: 'left' });
    await new Promise((r) => setTimeout(r, 1_500)); // the shell's tiling animation
    const after = (await desktop.accessibility!.elements({ activeWindowOnly: true, fresh: true })).find((e) => e.name === '7')!;
    assert.notDeepEqual(after.bbox, before.bbox, 'the tiled window\'s keys moved');
    assert.equal(await labelInside(after.bbox), '7', `inside the placed box ${JSON.stringify(after.bbox)}`);
    const clicked = await runBuiltCli(['click', '7', '--json'], gnome!.env);
    assert.match(clicked.stdout, /"source": "accessibility"/);
    assert.match(await waitForDisplay(/^7$/), /^7$/);
  });

  it('lists the windows from the accessibility tree, each where its elements are; the active one first', async () => {
    const editor = spawn('mousepad', [], { env: { ...gnome!.env, HOME: home, GDK_BACKEND: 'wayland', GSETTINGS_BACKEND: 'memory' }, stdio: 'ignore' });
    try {
      const deadline = Date.now() + 30_000;
      let windows = await desktop.windows.listWindows!();
      // Shown, then given the focus (Mutter focuses a new window once it is mapped).
      while (windows[0]?.pid !== editor.pid && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 300));
        windows = await desktop.windows.listWindows!();
      }
      const calculator = windows.find((w) => w.pid === app!.pid);
      const mousepad = windows.find((w) => w.pid === editor.pid);
      assert.ok(calculator && mousepad, JSON.stringify(windows));
      assert.equal(windows[0], mousepad, 'the new window has the focus and comes first');
      assert.equal((await desktop.windows.activeWindow())?.pid, editor.pid);
      // Each box holds the window's own title bar label, drawn there. A window just mapped may not
      // have drawn its title bar yet (CI once read mousepad's root-account bar there): read again.
      for (const pid of [app!.pid, editor.pid]) {
        const title = pid === editor.pid ? /Mousepad/ : /galculator/;
        let read = '';
        for (let attempt = 0; attempt < 8 && !title.test(read); attempt++) {
          if (attempt > 0) await new Promise((r) => setTimeout(r, 400));
          const window = (await desktop.windows.listWindows!()).find((w) => w.pid === pid)!;
          const strip = await desktop.screen.grab({ x: window.bounds.x, y: window.bounds.y, width: window.bounds.width, height: 30 });
          read = (await desktop.ocr.recognize(strip)).fullText;
        }
        assert.match(read, title);
      }
    } finally {
      editor.kill('SIGTERM');
    }
  });

  // The indicator is GNOME Shell's: Mutter alone shows none.
  if (kind === 'gnome-shell') it('the person stops GAI\'s screen sharing from the top bar: the first look after the session ends says so (never an old frame), and the next starts a new session', async () => {
    // The orange indicator in the top bar, found by its colour; its "×" is at its right end. The
    // click's release, or else the next look, is the first to meet the ended session, and says so.
    const bar = await desktop.screen.grab({ x: 0, y: 0, width: GNOME_SIZE.width, height: 32 });
    let right = -1;
    for (let x = 0; x < bar.width; x++) {
      const i = (16 * bar.width + x) * 4;
      if (bar.data[i]! > 170 && bar.data[i + 1]! > 90 && bar.data[i + 1]! < 190 && bar.data[i + 2]! < 90) right = x;
    }
    assert.ok(right > GNOME_SIZE.width / 2, 'the screen-sharing indicator is in the top bar');
    // The shell ends the session a moment after the release (its D-Bus call returns once the
    // event is queued), so looks may still get pictures until then; the first failure says why.
    let said = await desktop.input.click({ x: right - 14, y: 16 }, 'left', 1).then(() => '', (error: Error) => error.message);
    for (const deadline = Date.now() + 5_000; !said && Date.now() < deadline; ) {
      said = await desktop.screen.grab().then(() => '', (error: Error) => error.message);
      if (!said) await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(said, /GNOME ended GAI's remote-desktop session/);
    const image = await desktop.screen.grab();
    assert.equal(image.width, GNOME_SIZE.width);
  });

  it('gai doctor names GNOME and how GAI reaches it', async () => {
    const doctor = await runBuiltCli(['doctor'], gnome!.env);
    assert.match(doctor.stdout, /display\s+ok\s+Wayland, GNOME \(Mutter\)[^\n]*remote-desktop session/);
    assert.doesNotMatch(doctor.stdout, /cannot drive this desktop/);
  });
});
