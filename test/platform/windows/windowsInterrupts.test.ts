import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StopTrigger } from '../../../src/desktop/ports/interruptPort';
import { createWindowsInterrupts, createWindowsPorts, type WindowsPorts } from '../../../src/platform/windows/windowsDesktop';
import { windowsHotkey } from '../../../src/platform/windows/virtualKeys';

// The stop hotkey, the fail-safe corner and the takeover watch over the helper protocol.

const SCRIPT = join(__dirname, 'scriptedUiaHelper.mjs');
const CTRL_ALT_ESCAPE = { modifiers: ['ctrl' as const, 'alt' as const], key: 'escape' };

describe('Windows interrupts', () => {
  let dir: string;
  let ports: WindowsPorts | undefined;
  let stops: StopTrigger[];
  let warnings: string[];
  const handlers = { onStop: (t: StopTrigger) => stops.push(t), onWarning: (m: string) => warnings.push(m) };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-uia-'));
    stops = [];
    warnings = [];
  });
  afterEach(async () => {
    await ports?.dispose();
    ports = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(flags: string, inputs?: Array<{ lastInput: number; x: number; y: number }>): WindowsPorts {
    const env = { ...process.env, GAI_SCRIPT_LOG: join(dir, 'requests.log'), ...(inputs ? { GAI_SCRIPT_INPUTS: JSON.stringify(inputs) } : {}) };
    ports = createWindowsPorts(env, { helperCommand: process.execPath, helperArgs: [SCRIPT, flags], idleMs: 0 });
    return ports;
  }

  function requests(cmd: string): Array<Record<string, unknown>> {
    return readFileSync(join(dir, 'requests.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.cmd === cmd);
  }

  it('registers Ctrl+Alt+Escape with RegisterHotKey\'s codes and stops on its press', async () => {
    const { interrupts } = start('press-hotkey');
    const watch = await interrupts.watch({ stopHotkey: CTRL_ALT_ESCAPE, failSafeCorner: false, watchInput: true }, handlers);
    assert.deepEqual(watch.capabilities, { hotkey: true, corner: false, input: true });
    assert.deepEqual(requests('watch').map((r) => [r.modifiers, r.vk, r.corner]), [[0x2 | 0x1, 0x1b, false]]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(stops, ['hotkey']);
    assert.deepEqual(warnings, []);
    await watch.close();
    await watch.close();
    assert.equal(requests('unwatch').length, 1, 'closing twice releases the hotkey once');
  });

  it('a hotkey another program holds is a warning, and the corner still stops', async () => {
    const { interrupts } = start('hotkey-held,press-corner');
    const watch = await interrupts.watch({ stopHotkey: CTRL_ALT_ESCAPE, failSafeCorner: true, watchInput: false }, handlers);
    assert.deepEqual(watch.capabilities, { hotkey: false, corner: true, input: false });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^the stop hotkey .* is held by another program, so it does not stop GAI; use the Stop button/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(stops, ['corner']);
    await watch.close();
  });

  it('a helper that dies during the watch is said once, and closing still works', async () => {
    const { interrupts } = start('crash-in-watch');
    const watch = await interrupts.watch({ stopHotkey: CTRL_ALT_ESCAPE, failSafeCorner: true, watchInput: true }, handlers);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(warnings, ['the stop hotkey watch ended with the UI Automation helper; use the Stop button']);
    assert.deepEqual(stops, []);
    await watch.close();
  });

  it('a key RegisterHotKey has no code for is a warning, not a crash', async () => {
    const { interrupts } = start('');
    const watch = await interrupts.watch({ stopHotkey: { modifiers: ['ctrl'], key: 'mediaplay' }, failSafeCorner: true, watchInput: true }, handlers);
    assert.equal(watch.capabilities.hotkey, false);
    assert.match(warnings[0]!, /has a key Windows' RegisterHotKey cannot take/);
    assert.deepEqual(requests('watch').map((r) => r.vk), [0]);
    await watch.close();
  });

  it('tells the person\'s input from GAI\'s by the last-input tick and the pointer', async () => {
    const { interrupts } = start('', [
      { lastInput: 1000, x: -2000, y: 500 }, // the watch starts
      { lastInput: 1000, x: -2000, y: 500 }, // nothing since
      { lastInput: 1500, x: -2000, y: 500 }, // a key (or a click where the pointer stayed)
      { lastInput: 2000, x: -1800, y: 600 }, // GAI's own input ends here
      { lastInput: 2000, x: -1800, y: 600 }, // nothing since GAI's input
      { lastInput: 2600, x: -1790, y: 600 }, // the person moved the mouse
    ]);
    const watch = await interrupts.watch({ failSafeCorner: false, watchInput: true }, handlers);
    const quiet = await watch.activity();
    assert.deepEqual([quiet.keys, quiet.moved], [0, false]);
    const typed = await watch.beginOwnInput([{ x: -1800, y: 600 }]);
    assert.deepEqual([typed.keys, typed.moved], [1, false]);
    assert.deepEqual(await watch.endOwnInput(), { x: -1800, y: 600 });
    const after = await watch.activity();
    assert.deepEqual([after.keys, after.moved], [0, false], 'GAI\'s own input is not the person\'s');
    const moved = await watch.activity();
    assert.deepEqual([moved.moved, moved.pointer, moved.left], [true, { x: -1790, y: 600 }, { x: -1800, y: 600 }]);
    await watch.close();
  });

  it('the last-input tick wraps at 2^32 milliseconds (49.7 days of uptime)', async () => {
    const { interrupts } = start('', [{ lastInput: 0xfffffff0, x: 0, y: 0 }, { lastInput: 5, x: 0, y: 0 }]);
    const watch = await interrupts.watch({ failSafeCorner: false, watchInput: true }, handlers);
    assert.equal((await watch.activity()).keys, 1);
    await watch.close();
  });
});

describe('Windows interrupts made apart from the desktop', () => {
  it('start their own helper for a watch and end it on dispose', async () => {
    const stops: StopTrigger[] = [];
    const interrupts = createWindowsInterrupts(process.env, { helperCommand: process.execPath, helperArgs: [SCRIPT, 'press-hotkey'], idleMs: 0 });
    const watch = await interrupts.watch({ stopHotkey: CTRL_ALT_ESCAPE, failSafeCorner: false, watchInput: false }, { onStop: (t) => stops.push(t), onWarning: () => {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(stops, ['hotkey']);
    await watch.close();
    interrupts.dispose!();
    await assert.rejects(interrupts.watch({ failSafeCorner: true, watchInput: false }, { onStop: () => {}, onWarning: () => {} }), /the UI Automation helper was disposed; use the Stop button/);
  });
});

describe('Windows virtual-key codes for RegisterHotKey', () => {
  it('maps modifiers to MOD_* and keys to VK_*', () => {
    assert.deepEqual(windowsHotkey({ modifiers: ['ctrl', 'shift'], key: 'f12' }), { modifiers: 0x6, vk: 0x7b });
    assert.deepEqual(windowsHotkey({ modifiers: ['super'], key: 'q' }), { modifiers: 0x8, vk: 0x51 });
    assert.deepEqual(windowsHotkey({ modifiers: ['alt'], key: 'pause' }), { modifiers: 0x1, vk: 0x13 });
    assert.equal(windowsHotkey({ modifiers: [], key: 'mediaplay' }), undefined);
  });
});
