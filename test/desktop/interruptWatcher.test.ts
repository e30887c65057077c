import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { X11InterruptWatcher } from '../../src/platform/linux/x11/x11InterruptWatcher';
import type { InterruptWatch, StopTrigger } from '../../src/desktop/ports/interruptPort';
import { suiteDisplay } from './support/fixture';

// The X11 interrupt watcher on the suite's Xvfb, driven by xdotool as the person.

const display = suiteDisplay();
const HOTKEY = { modifiers: ['ctrl' as const, 'alt' as const], key: 'escape' };

function xdotool(...args: string[]): Promise<void> {
  return new Promise((ok, fail) => execFile('xdotool', args, { env: display.env }, (error) => (error ? fail(error) : ok())));
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('X11 interrupt watcher (python3-xlib helper)', function () {
  this.timeout(30_000);
  const watcher = new X11InterruptWatcher({ env: display.env });
  const open: InterruptWatch[] = [];
  afterEach(async () => {
    for (const watch of open.splice(0)) await watch.close();
  });

  async function watch(warnings: string[] = [], stops: StopTrigger[] = []): Promise<InterruptWatch> {
    const w = await watcher.watch({ stopHotkey: HOTKEY, failSafeCorner: true, watchInput: true }, { onStop: (t) => stops.push(t), onWarning: (m) => warnings.push(m) });
    open.push(w);
    return w;
  }

  it('grabs the hotkey whatever lock keys are on', async () => {
    const stops: StopTrigger[] = [];
    const w = await watch([], stops);
    assert.deepEqual(w.capabilities, { hotkey: true, corner: true, input: true });
    await xdotool('key', 'Num_Lock');
    await xdotool('key', 'Caps_Lock');
    try {
      await xdotool('key', 'ctrl+alt+Escape');
      await until('the stop', () => stops.length > 0);
      assert.deepEqual(stops, ['hotkey']);
    } finally {
      await xdotool('key', 'Caps_Lock');
      await xdotool('key', 'Num_Lock');
    }
  });

  it("tells the person's input from GAI's own", async () => {
    const w = await watch();
    await w.reset();
    await w.beginOwnInput([{ x: 300, y: 300 }]);
    await xdotool('mousemove', '300', '300', 'click', '1', 'key', 'b');
    const left = await w.endOwnInput();
    assert.deepEqual(left, { x: 300, y: 300 });
    let seen = await w.activity();
    assert.deepEqual({ keys: seen.keys, buttons: seen.buttons, moved: seen.moved }, { keys: 0, buttons: 0, moved: false }, 'GAI\'s own input');
    await xdotool('key', 'b');
    await xdotool('mousemove', '320', '330');
    seen = await w.activity();
    assert.deepEqual({ keys: seen.keys, moved: seen.moved, pointer: seen.pointer, left: seen.left }, { keys: 1, moved: true, pointer: { x: 320, y: 330 }, left: { x: 300, y: 300 } });
    await w.reset();
    seen = await w.activity();
    assert.equal(seen.moved || seen.keys > 0, false, 'forgotten after a reset');
    // Modifiers alone act on nothing: the first keys of the stop hotkey are not a takeover.
    await xdotool('keydown', 'ctrl', 'keydown', 'alt', 'keyup', 'alt', 'keyup', 'ctrl', 'key', 'shift');
    seen = await w.activity();
    assert.equal(seen.keys, 0, 'modifier presses are not counted');
    await xdotool('key', 'ctrl+b');
    seen = await w.activity();
    assert.equal(seen.keys, 1, 'a key pressed with a modifier is');
  });

  it('says so when another program holds the hotkey; the helper ends with its stdin and releases the grab', async () => {
    const first = await watch();
    const warnings: string[] = [];
    const second = await watch(warnings);
    assert.equal(second.capabilities.hotkey, false);
    assert.match(warnings.join('\n'), /another program already holds the stop hotkey ctrl\+alt\+escape/);
    await first.close();
    await second.close();
    const third = await watch();
    assert.equal(third.capabilities.hotkey, true, 'the first helper is gone and its grab with it');
    await assert.rejects(first.activity(), /exited/);
  });

  it("starts the next request's helper when a watch ends and arms it (no python3 start-up in the request); dispose ends it", async () => {
    const local = new X11InterruptWatcher({ env: display.env });
    const first = await local.watch({ stopHotkey: HOTKEY, failSafeCorner: false, watchInput: true }, { onStop: () => {}, onWarning: () => {} });
    const firstPid = (first as unknown as { pid: number }).pid;
    await first.close();
    const standby = (local as unknown as { standby?: { pid: number } }).standby;
    assert.ok(standby?.pid, 'a standby helper was started when the watch ended');
    const stops: StopTrigger[] = [];
    const second = await local.watch({ stopHotkey: HOTKEY, failSafeCorner: false, watchInput: true }, { onStop: (t) => stops.push(t), onWarning: () => {} });
    open.push(second);
    assert.equal((second as unknown as { pid: number }).pid, standby.pid, 'the standby helper was armed');
    assert.notEqual(standby.pid, firstPid);
    assert.deepEqual(second.capabilities, { hotkey: true, corner: false, input: true });
    await xdotool('key', 'ctrl+alt+Escape');
    await until('the stop from the armed helper', () => stops.length > 0);
    await second.activity();
    await second.close();
    const next = (local as unknown as { standby?: { pid: number; exitCode: number | null; once(e: string, f: () => void): void } }).standby;
    assert.ok(next, 'another standby for the request after');
    const exited = new Promise<void>((resolve) => next.once('exit', () => resolve()));
    local.dispose();
    await exited;
  });
});
