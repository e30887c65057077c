import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSecretRole } from '../../../src/desktop/reading/screenPrivacy';
import { TOGGLE_ROLES, isChecked } from '../../../src/navigation/recognition/pointScene';
import { createMacPorts, type MacPorts, type MacPortsOptions } from '../../../src/platform/macos/macDesktop';
import { ACCESSIBILITY_PANE, SCREEN_RECORDING_PANE } from '../../../src/platform/macos/macPermissions';

// The macOS ports end to end over the helper protocol, against a scripted helper that answers as
// the JXA script would on a 2x Retina MacBook with a 1x display left of it (scriptedMacHelper.mjs).

const SCRIPT = join(__dirname, 'scriptedMacHelper.mjs');

describe('macOS ports over the JXA helper protocol', () => {
  let dir: string;
  let ports: MacPorts | undefined;
  let warnings: string[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-mac-'));
    warnings = [];
  });
  afterEach(async () => {
    await ports?.dispose();
    ports = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(flags = '', env: NodeJS.ProcessEnv = {}, options: MacPortsOptions = {}): MacPorts {
    ports = createMacPorts(
      { ...process.env, GAI_SCRIPT_STATE: join(dir, 'state'), __CFBundleIdentifier: 'com.microsoft.VSCode', ...env },
      { helper: { command: process.execPath, args: [SCRIPT, flags], idleMs: 0 }, onWarning: (m) => warnings.push(m), pollMs: 10, ...options },
    );
    return ports;
  }

  it('lists windows topmost first in screen pixels (points x2 on Retina), without the menu bar and Dock, with bundle ids', async () => {
    const { windows } = start();
    const list = await windows.listWindows();
    assert.deepEqual(list.map((w) => w.appName), ['TextEdit', 'Finder']);
    assert.deepEqual(list[0]!.bounds, { x: 200, y: 120, width: 1600, height: 1200 });
    assert.equal(list[0]!.bundleId, 'com.apple.TextEdit');
    assert.equal(list[0]!.pid, 501);
    assert.equal(list[0]!.title, 'Untitled');
    // The display left of the main one keeps negative coordinates (off nut-js's grab of the main display).
    assert.deepEqual(list[1]!.bounds, { x: -3600, y: 240, width: 1800, height: 1000 });
    const active = await windows.activeWindow();
    assert.equal(active?.id, '4007');
    assert.equal(active?.bundleId, 'com.apple.TextEdit');
    const popups = await windows.listPopups();
    assert.deepEqual(popups.map((p) => [p.id, p.type, p.bounds.x]), [['4021', 'popup_menu', 280]]);
  });

  it('a scale given by the screen port wins over the helper\'s', async () => {
    const { windows } = start('', {}, { scaleFactor: () => Promise.resolve(1) });
    assert.deepEqual((await windows.activeWindow())?.bounds, { x: 100, y: 60, width: 800, height: 600 });
  });

  it('reads the tree with AT-SPI role words, pixel boxes, states, ancestors, app and pid; no text of a password field', async () => {
    const { accessibility } = start();
    assert.equal(await accessibility.available(), true);
    const elements = await accessibility.elements();
    const byName = new Map(elements.map((e) => [e.name, e]));
    const save = byName.get('Save')!;
    assert.equal(save.role, 'push button');
    assert.deepEqual(save.bbox, { x: 1400, y: 1200, width: 160, height: 48 });
    assert.deepEqual(save.ancestors, [{ role: 'dialog', name: 'Save As' }]);
    assert.equal(save.app, 'TextEdit');
    assert.equal(save.pid, 501);
    assert.ok(save.states.includes('enabled'));
    assert.ok(!byName.get('Delete')!.states.includes('enabled'));
    const tab = byName.get('General')!;
    assert.equal(tab.role, 'page tab');
    assert.ok(isChecked(tab));
    const wrap = byName.get('Wrap lines')!;
    assert.equal(wrap.role, 'check box');
    assert.ok(TOGGLE_ROLES.has(wrap.role) && isChecked(wrap));
    const password = byName.get('Password')!;
    assert.equal(password.role, 'password text');
    assert.ok(isSecretRole(password.role));
    assert.equal(password.text, undefined);
    assert.equal(byName.get('Name')!.role, 'text');
    assert.equal(byName.get('Name')!.text, 'report.txt');
    assert.equal(byName.get('Format')!.role, 'combo box');
    const item = byName.get('Open Recent')!;
    assert.equal(item.role, 'menu item');
    assert.deepEqual(item.ancestors, [{ role: 'menu', name: 'File' }, { role: 'menu', name: 'File' }]);
    assert.equal(byName.get('Hello from TextEdit')!.role, 'label');
    assert.equal(byName.get('Hello from TextEdit')!.text, 'Hello from TextEdit');
    assert.equal(byName.get('Learn more')!.role, 'link');
    assert.deepEqual(save.window, { name: 'Untitled', role: 'frame', active: true });
    assert.deepEqual(byName.get('Copy')!.window, { name: '', role: 'menu', active: false });
    assert.deepEqual(byName.get('Copy')!.bbox, { x: 840, y: 640, width: 320, height: 44 });
    const focused = await accessibility.focusedElement!();
    assert.deepEqual(focused, { name: 'Password', role: 'password text', states: ['enabled', 'focused'] });
    assert.deepEqual(warnings, []);
  });

  it('presses through AXPress, says so on a dry run, and rejects a disabled, gone or actionless element with the reason', async () => {
    const { accessibility } = start();
    const elements = await accessibility.elements();
    const ref = (name: string): string => elements.find((e) => e.name === name)!.ref!;
    assert.equal(await accessibility.perform!(ref('Save'), { kind: 'press', dryRun: true }), 'press');
    assert.equal(await accessibility.perform!(ref('Save'), { kind: 'press' }), 'press');
    await assert.rejects(accessibility.perform!(ref('Delete'), { kind: 'press' }), /the element is disabled/);
    await assert.rejects(accessibility.perform!(ref('Hello from TextEdit'), { kind: 'press' }), /offers no press action/);
    await assert.rejects(accessibility.perform!('7:3', { kind: 'press' }), /the element is gone/);
  });

  it('without the Accessibility permission: the tree is unavailable, said once, and the report names the app and both panes', async () => {
    const { accessibility, permissions } = start('denied');
    assert.equal(await accessibility.available(), false);
    assert.deepEqual(await accessibility.elements(), []);
    assert.equal(await accessibility.focusedElement!(), undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /Accessibility permission is missing, so GAI reads the screen by OCR only/);
    const report = await permissions();
    assert.equal(report.accessibility, false);
    assert.equal(report.screenRecording, false);
    assert.deepEqual(report.host, { name: 'Visual Studio Code', bundleId: 'com.microsoft.VSCode' });
    assert.deepEqual(report.problems.map((p) => [p.permission, p.app, p.pane]), [
      ['accessibility', 'Visual Studio Code', ACCESSIBILITY_PANE],
      ['screenRecording', 'Visual Studio Code', SCREEN_RECORDING_PANE],
    ]);
    assert.match(report.problems[0]!.message, /switch on Visual Studio Code/);
    assert.equal(ACCESSIBILITY_PANE, 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility');
    assert.equal(SCREEN_RECORDING_PANE, 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture');
  });

  it('names Terminal as the app to grant when gai runs there', async () => {
    const { permissions } = start('denied', { __CFBundleIdentifier: 'com.apple.Terminal' });
    const report = await permissions();
    assert.equal(report.host.name, 'Terminal');
    assert.match(report.problems[1]!.message, /Screen Recording permission.*switch on Terminal/);
  });

  it('asking for the permissions shows macOS\'s prompts and reports what is still missing', async () => {
    const prompted = join(dir, 'prompted');
    const report = await start('denied', { GAI_SCRIPT_PROMPTED: prompted }).requestPermissions();
    assert.equal(readFileSync(prompted, 'utf8'), 'yes');
    assert.deepEqual(report.problems.map((p) => p.permission), ['accessibility', 'screenRecording']);
  });

  it('a Screen Recording permission macOS cannot report is said as unknown, not as missing', async () => {
    const report = await start('no-preflight').permissions();
    assert.equal(report.screenRecording, undefined);
    assert.deepEqual(report.problems.map((p) => [p.permission, p.checked]), [['screenRecording', false]]);
    assert.match(report.problems[0]!.message, /could not ask this macOS whether Visual Studio Code has the Screen Recording permission: if screenshots show only the desktop wallpaper, open System Settings/);
  });

  it('granted: no problems', async () => {
    const report = await start().permissions();
    assert.deepEqual(report.problems, []);
  });

  it('a helper that crashes mid-request fails that call with the reason and is restarted for the next', async () => {
    const { windows } = start('crash-windows');
    await assert.rejects(windows.listWindows(), /the macOS helper \(osascript\) exited \(code 3\)/);
    assert.equal((await windows.listWindows()).length, 2);
  });

  it('stray and malformed lines on the helper\'s stdout are skipped', async () => {
    const { windows, accessibility } = start('malformed');
    assert.equal((await windows.listWindows()).length, 2);
    assert.equal((await accessibility.elements()).length, 11);
  });

  it('the stop hotkey (ctrl+alt+escape) polled from the key state stops the watch once', async () => {
    const { interrupts } = start('hotkey-after=4');
    const stops: string[] = [];
    const watch = await interrupts.watch(
      { stopHotkey: { modifiers: ['ctrl', 'alt'], key: 'escape' }, failSafeCorner: false, watchInput: true },
      { onStop: (trigger) => stops.push(trigger), onWarning: (m) => warnings.push(m) },
    );
    assert.deepEqual(watch.capabilities, { hotkey: true, corner: false, input: true });
    const deadline = Date.now() + 5_000;
    while (stops.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    await watch.close();
    assert.deepEqual(stops, ['hotkey']);
  });

  it('the fail-safe corner stops the watch; the pointer is reported in pixels', async () => {
    const { interrupts } = start('corner-after=3');
    const stops: string[] = [];
    const watch = await interrupts.watch({ failSafeCorner: true, watchInput: false }, { onStop: (t) => stops.push(t), onWarning: (m) => warnings.push(m) });
    const deadline = Date.now() + 5_000;
    while (stops.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(stops, ['corner']);
    assert.deepEqual((await watch.activity()).pointer, { x: 3022, y: 0 });
    await watch.close();
  });

  it('the person\'s key presses since GAI\'s last input count as a takeover; a reset forgets them', async () => {
    const { interrupts } = start('typing');
    const watch = await interrupts.watch({ failSafeCorner: false, watchInput: true }, { onStop: () => assert.fail('no stop'), onWarning: (m) => warnings.push(m) });
    await new Promise((r) => setTimeout(r, 200));
    const activity = await watch.beginOwnInput([]);
    assert.equal(activity.keys, 3);
    assert.equal(activity.buttons, 0);
    assert.equal(activity.moved, false);
    assert.deepEqual(await watch.endOwnInput(), { x: 800, y: 600 });
    assert.equal((await watch.activity()).keys, 0);
    await watch.close();
  });

  it('a hotkey on a key macOS GAI cannot watch is off, said with what to choose', async () => {
    const { interrupts } = start();
    const watch = await interrupts.watch({ stopHotkey: { modifiers: ['ctrl'], key: 'pause' }, failSafeCorner: true, watchInput: false }, { onStop: () => {}, onWarning: (m) => warnings.push(m) });
    assert.equal(watch.capabilities.hotkey, false);
    assert.equal(watch.capabilities.corner, true);
    assert.match(warnings[0]!, /ctrl\+pause.*cannot watch; choose letters, digits, F1–F12 or Escape/i);
    await watch.close();
  });

  it('an interrupt watch whose helper cannot start rejects with the reason', async () => {
    const { interrupts } = start('', {}, { helper: { command: join(dir, 'no-such-osascript'), args: [], idleMs: 0 } });
    await assert.rejects(
      interrupts.watch({ failSafeCorner: true, watchInput: true }, { onStop: () => {}, onWarning: () => {} }),
      /the stop hotkey and takeover watch cannot start on macOS: .*could not start .*no-such-osascript/,
    );
  });
});
