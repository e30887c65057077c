// GAI on a Wayland desktop: a headless sway started by the test as the unprivileged set-up user,
// a native Wayland galculator (GTK 3, GDK_BACKEND=wayland), and GAI's own ports and CLI.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Desktop } from '../../src/desktop/ports/desktop';
import type { StopTrigger } from '../../src/desktop/ports/interruptPort';
import { detectDisplaySession } from '../../src/platform/linux/displaySession';
import { GrimScreen } from '../../src/platform/linux/wayland/grimScreen';
import { SwayInterrupts } from '../../src/platform/linux/wayland/swayInterrupts';
import { SwayIpc } from '../../src/platform/linux/wayland/swayIpc';
import { SwayLayout } from '../../src/platform/linux/wayland/waylandLayout';
import { runBuiltCli } from './support/builtCli';
import { pollText } from './support/pollText';
import { SWAY_SIZE, type SwayDisplay } from './support/swayDisplay';
import { useSwayRig } from './support/swayRig';

describe('Wayland: sway (wlroots), headless, a native Wayland GTK app', function () {
  this.timeout(120_000);
  let sway: SwayDisplay;
  let desktop: Desktop;
  let app: ChildProcess;
  useSwayRig({ start: (env) => [spawn('galculator', [], { env: { ...env, GDK_BACKEND: 'wayland' }, stdio: 'ignore' })] }, (rig) => {
    ({ sway, desktop } = rig);
    app = rig.apps[0]!;
  });

  /** The calculator's display, read by OCR from a fresh capture of its right end (a lone digit in a wide strip is missed). */
  async function displayText(): Promise<string> {
    const window = (await desktop.windows.activeWindow())!;
    const strip = await desktop.screen.grab({ x: window.bounds.x + window.bounds.width - 300, y: window.bounds.y + 30, width: 296, height: 56 });
    return (await desktop.ocr.recognize(strip)).fullText.replace(/\s+/g, '');
  }

  function waitForDisplay(expected: RegExp): Promise<string> {
    return pollText(displayText, expected);
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
    assert.equal((desktop.screen as { lastVia?: string }).lastVia, 'helper', 'copied by the helper, not by grim');
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
    assert.equal(galculator.pid, app.pid);
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

  it('presses buttons through their accessibility actions, no pointer event: 8 5', async () => {
    await runBuiltCli(['click', 'AC'], sway.env);
    assert.match(await waitForDisplay(/^0?$/), /^0?$/);
    for (const digit of ['8', '5']) {
      const pressed = await runBuiltCli(['click', digit, '--via', 'accessibility', '--json'], sway.env);
      assert.equal(pressed.code, 0, pressed.stdout + pressed.stderr);
      assert.match(pressed.stdout, /"via": "accessibility"/);
      assert.match(pressed.stdout, /the pointer did not move/);
    }
    assert.match(await waitForDisplay(/^85$/), /^85$/);
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
