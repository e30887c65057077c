import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSecretRole } from '../../../src/desktop/reading/screenPrivacy';
import { TOGGLE_ROLES, isChecked } from '../../../src/navigation/recognition/pointScene';
import { createWindowsPorts, type WindowsPorts, type WindowsPortsOptions } from '../../../src/platform/windows/windowsDesktop';

// The Windows ports end to end over the helper protocol, against a scripted helper that answers
// as the PowerShell script would (scriptedUiaHelper.mjs).

const SCRIPT = join(__dirname, 'scriptedUiaHelper.mjs');

/** Ports over a scripted helper in a temp folder of their own, ended after each test; `warnings` holds what they said. */
function scriptedPorts(): { start(flags?: string, options?: WindowsPortsOptions, env?: NodeJS.ProcessEnv): WindowsPorts; readonly dir: string; readonly warnings: string[] } {
  let dir = '';
  let ports: WindowsPorts | undefined;
  const warnings: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-uia-'));
    warnings.length = 0;
  });
  afterEach(async () => {
    await ports?.dispose();
    ports = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    warnings,
    start(flags = '', options = {}, env = {}) {
      ports = createWindowsPorts(
        { ...process.env, GAI_SCRIPT_LOG: join(dir, 'requests.log'), GAI_SCRIPT_STATE: join(dir, 'state'), ...env },
        { helperCommand: process.execPath, helperArgs: [SCRIPT, flags], onWarning: (m) => warnings.push(m), idleMs: 0, ...options },
      );
      return ports;
    },
  };
}

describe('Windows ports over the UI Automation helper protocol', () => {
  const fixture = scriptedPorts();
  const { start, warnings } = fixture;

  function requests(): Array<Record<string, unknown>> {
    return readFileSync(join(fixture.dir, 'requests.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('lists windows topmost first, named by executable, with pid, type and physical bounds at negative coordinates', async () => {
    const { windows } = start('', { screenSize: async () => ({ width: 6400, height: 2160 }) });
    const list = await windows.listWindows!();
    assert.deepEqual(list.map((w) => [w.title, w.appName, w.pid, w.type]), [
      ['Save As', 'Notepad', 4120, 'dialog'],
      ['notes.txt - Notepad', 'Notepad', 4120, 'normal'],
      ['Settings', 'SystemSettings', 7312, 'normal'],
    ]);
    assert.deepEqual(list[1]!.bounds, { x: -3000, y: 150, width: 1500, height: 1050 });
    assert.deepEqual((await windows.listPopups!()).map((w) => [w.appName, w.type, w.bounds.x]), [['Notepad', 'popup_menu', -2500]], 'an open menu is a popup, not a window');
    assert.equal((await windows.activeWindow())?.title, 'notes.txt - Notepad');
    assert.equal(await windows.activeWindowId!(), '197146');
    assert.deepEqual(warnings, [], 'a DPI-aware host needs no scaling and says nothing');
  });

  it('takes boxes as they are when libnut grabs only the primary monitor in physical pixels', async () => {
    const { windows } = start('', { screenSize: async () => ({ width: 2560, height: 1440 }) });
    assert.deepEqual((await windows.activeWindow())?.bounds, { x: -3000, y: 150, width: 1500, height: 1050 });
    assert.deepEqual(warnings, []);
  });

  it('scales boxes to the screenshots of a DPI-unaware host, and says so once', async () => {
    // A 3840-wide primary monitor at 150%: an unaware node.exe sees it 2560 wide.
    const primary = JSON.stringify({ x: 0, y: 0, width: 3840, height: 2160 });
    const { windows, accessibility } = start('', { screenSize: async () => ({ width: 2560, height: 1440 }) }, { GAI_SCRIPT_PRIMARY: primary });
    const active = await windows.activeWindow();
    assert.deepEqual(active?.bounds, { x: -2000, y: 100, width: 1000, height: 700 });
    const ok = (await accessibility.elements()).find((e) => e.name === 'OK');
    assert.deepEqual(ok?.bbox, { x: -1467, y: 467, width: 90, height: 32 });
    await windows.listWindows!();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /primary monitor 3840 physical pixels: this process is not DPI aware.*scaled by 0\.667/);
  });

  it('reads the tree with Linux role words, states, ancestors, app and refs, in reading order', async () => {
    const { accessibility } = start();
    assert.equal(await accessibility.available(), true);
    const elements = await accessibility.elements();
    assert.deepEqual(elements.map((e) => [e.name, e.role]), [
      ['File', 'menu item'],
      ['Word wrap', 'check menu item'],
      ['Text editor', 'document text'],
      ['', 'password text'],
      ['OK', 'push button'],
    ], 'zero-sized elements and unnamed panes are left out');
    const wrap = elements[1]!;
    assert.ok(TOGGLE_ROLES.has(wrap.role) && isChecked(wrap), 'a checked toggle menu item reads as checked');
    assert.deepEqual(wrap.ancestors, [{ role: 'menu bar', name: 'Application' }]);
    assert.equal(wrap.app, 'Notepad');
    assert.equal(wrap.pid, 4120);
    assert.equal(wrap.ref, 'g1e1');
    assert.deepEqual(wrap.window, { name: 'notes.txt - Notepad', role: 'frame', active: true });
    assert.ok(elements[2]!.states.includes('focused'));
    assert.equal(elements[2]!.text, 'Meeting notes\r\nBuy milk');
    assert.equal(elements[2]!.textCut, undefined);
    assert.equal(elements[3]!.text, undefined, 'a password field\'s value is never read');
    assert.ok(isSecretRole(elements[3]!.role), 'a password edit is masked like AT-SPI\'s password text');
    assert.deepEqual(requests().find((r) => r.cmd === 'elements')?.activeOnly, true);
  });

  it('tells a focused password field', async () => {
    const { accessibility } = start();
    const focused = await accessibility.focusedElement!();
    assert.equal(focused?.role, 'password text');
    assert.ok(isSecretRole(focused!.role));
    assert.deepEqual(focused?.states, ['enabled', 'focused']);
  });

  it('presses without the pointer through the pattern the element offers, and says which on a dry run', async () => {
    const { accessibility } = start();
    await accessibility.elements();
    assert.equal(await accessibility.perform!('g1e4', { kind: 'press' }), 'invoke');
    assert.equal(await accessibility.perform!('g1e1', { kind: 'press' }), 'toggle');
    assert.equal(await accessibility.perform!('g1e0', { kind: 'press', dryRun: true }), 'expand');
    assert.equal(requests().filter((r) => r.cmd === 'perform').at(-1)?.dryRun, true);
    await assert.rejects(accessibility.perform!('g1e3', { kind: 'press' }), /offers no Invoke, Toggle, SelectionItem or ExpandCollapse pattern/);
    await assert.rejects(accessibility.perform!('g9e9', { kind: 'press' }), /not from the last reading of the tree; read it again/);
    await assert.rejects(accessibility.perform!('g1e2', { kind: 'press' }), /the element is gone/);
  });

  it('answers through PowerShell chatter and malformed lines', async () => {
    const { windows, accessibility } = start('malformed');
    assert.equal((await windows.listWindows!()).length, 3);
    assert.equal((await accessibility.elements()).length, 5);
  });
});

describe('Windows ports when the helper cannot work', () => {
  const fixture = scriptedPorts();
  const { start, warnings } = fixture;

  it('an unloadable UI Automation means OCR only, said once', async () => {
    const { accessibility } = start('fatal');
    assert.equal(await accessibility.available(), false);
    assert.equal(await accessibility.available(), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /by OCR only: the UI Automation helper did not start: Could not load file or assembly 'UIAutomationClient'/);
  });

  it('names a missing powershell.exe', async () => {
    const { accessibility, interrupts } = start('', { helperCommand: join(fixture.dir, 'powershell.exe'), helperArgs: [] });
    assert.equal(await accessibility.available(), false);
    assert.match(warnings[0]!, /the UI Automation helper did not start: .*powershell\.exe not found \(Windows PowerShell 5\.1/);
    await assert.rejects(
      interrupts.watch({ failSafeCorner: true, watchInput: true }, { onStop: () => {}, onWarning: () => {} }),
      /^Error: the stop hotkey and takeover watch cannot run: the UI Automation helper did not start: .*not found.*; use the Stop button$/,
    );
  });
});
