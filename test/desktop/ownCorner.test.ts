// The fail-safe corner counts only pointer positions GAI did not produce (issue 18): on the suite's
// Xvfb, with the X11 interrupt watcher and the safety monitor watching a request, GAI's own moves
// and clicks into every corner (one after another, beyond the screen's edge, two at once) do not
// stop the request; the person's move into a corner (xdotool) still does.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { X11InterruptWatcher } from '../../src/platform/linux/x11/x11InterruptWatcher';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { withWatchedInput } from '../../src/desktop/input/watchedInput';
import { SafetyMonitor, type SafetySession } from '../../src/safety/safetyMonitor';
import { DEFAULT_SAFETY } from '../../src/safety/safetySettings';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ComputerDisplay, toImagePoint } from '../../src/tools/desktop/computer/computerDisplay';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import type { ToolResult } from '../../src/tools/toolTypes';
import { suiteDisplay } from './support/fixture';

const display = suiteDisplay();
let counter = 0;

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe("fail-safe corner: GAI's own pointer is not the person's (X11 watcher)", function () {
  this.timeout(60_000);
  let watcher: X11InterruptWatcher;
  let monitor: SafetyMonitor;
  let services: DesktopServices;
  let runtime: ToolRuntime;
  let computer: ComputerDisplay;
  let session: SafetySession | undefined;
  let stopped: string | undefined;
  let cancelled = false;

  async function run(name: string, input: unknown): Promise<ToolResult> {
    const result = (await runtime.executeWithRecovery({ id: `c${++counter}`, name, input }, new AbortController().signal)).result;
    // The watcher polls the pointer every 25 ms: give it a few looks at where GAI left it.
    await pause(120);
    return result;
  }

  function assertNotStopped(what: string): void {
    assert.equal(stopped, undefined, `${what}: ${stopped}`);
    assert.equal(cancelled, false, `${what}: the request was cancelled`);
  }

  before(() => {
    watcher = new X11InterruptWatcher({ env: display.env });
    monitor = new SafetyMonitor({ interrupts: watcher, settings: DEFAULT_SAFETY, onStopped: (message) => (stopped = message) });
    services = createDesktopServices(withWatchedInput(createPlatformDesktop({ env: display.env }), monitor));
    computer = new ComputerDisplay(services.desktop.screen);
    const registry = new ToolRegistry();
    for (const tool of createDesktopTools(services, { computerDisplay: computer })) registry.register(tool);
    runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'], guards: [monitor] });
  });
  after(async () => {
    watcher?.dispose();
    await services?.desktop.ocr.dispose();
  });
  beforeEach(async () => {
    stopped = undefined;
    cancelled = false;
    await new Promise<void>((ok, fail) => execFile('xdotool', ['mousemove', '960', '540'], { env: display.env }, (e) => (e ? fail(e) : ok())));
    session = monitor.begin(() => (cancelled = true));
  });
  afterEach(async () => {
    await session?.end();
    session = undefined;
  });

  it('GAI moves and clicks into every corner, through its tools, and the request goes on', async () => {
    const { width, height } = await services.desktop.screen.size();
    const corners = [
      { x: 0, y: 0 },
      { x: width - 1, y: 0 },
      { x: 0, y: height - 1 },
      { x: width - 1, y: height - 1 },
    ];
    for (const corner of corners) {
      const moved = await run('mouse_move', { to: corner });
      assert.equal(moved.success, true, JSON.stringify(moved));
      assertNotStopped(`mouse_move to ${JSON.stringify(corner)}`);
      assert.deepEqual(await services.desktop.input.position(), corner, 'the pointer is in the corner');
      await run('mouse_move', { to: { x: 960, y: 540 } });
    }
    // A top-left Activities menu is a legitimate click; so is a click from the middle straight to a corner.
    const click = await run('click', { x: 0, y: 0 });
    assert.equal(click.success, true, JSON.stringify(click));
    assertNotStopped('click at (0, 0)');
    const geometry = await computer.geometry();
    for (const corner of corners) {
      const shot = toImagePoint(corner, geometry);
      const result = await run('computer', { action: 'mouse_move', coordinate: [shot.x, shot.y] });
      assert.equal(result.success, true, JSON.stringify(result));
      assertNotStopped(`computer mouse_move to ${JSON.stringify(shot)} of the screenshot`);
    }
    // The runtime still acts: no stop was recorded.
    assert.equal((await run('mouse_move', { to: { x: 500, y: 500 } })).success, true);
    assertNotStopped('after the corners');
  });

  it('a point far off the screen is refused before it moves the pointer (nut-js would wrap it into a corner); two inputs at once are GAI\'s too', async () => {
    const scrolled = await run('scroll', { direction: 'down', x: 99_999, y: 99_999 });
    assert.equal(scrolled.code, 'INVALID_INPUT', JSON.stringify(scrolled));
    assert.match(scrolled.error ?? '', /x, y: \(99999, 99999\) is outside the \d+x\d+ screen/);
    await assert.rejects(services.desktop.input.move({ x: 99_999, y: 99_999 }), /input refused: \(99999, 99999\) is off the \d+x\d+ screen/);
    assert.deepEqual(await services.desktop.input.position(), { x: 960, y: 540 }, 'the pointer did not move');
    assertNotStopped('points off the screen');
    const { width, height } = await services.desktop.screen.size();
    await Promise.all([services.desktop.input.move({ x: 0, y: 0 }), services.desktop.input.move({ x: width - 1, y: 0 }), services.desktop.input.click({ x: 0, y: height - 1 }, 'left', 1)]);
    await pause(150);
    assertNotStopped('three inputs into corners at once');
  });

  it("the person's move into a corner still stops the request, also right after GAI was in one", async () => {
    await run('mouse_move', { to: { x: 0, y: 0 } });
    assertNotStopped('GAI in the corner');
    const xdotool = (args: string[]): Promise<void> => new Promise((ok, fail) => execFile('xdotool', args, { env: display.env }, (e) => (e ? fail(e) : ok())));
    await xdotool(['mousemove', '700', '400']);
    await pause(150);
    await xdotool(['mousemove', '0', '0']);
    const deadline = Date.now() + 3_000;
    while (stopped === undefined && Date.now() < deadline) await pause(25);
    assert.match(stopped ?? '', /pointer pushed into a screen corner/);
    assert.equal(cancelled, true, 'the request was cancelled');
    const after = await run('mouse_move', { to: { x: 300, y: 300 } });
    assert.equal(after.code, 'CANCELLED', 'no action after the stop');
  });
});
