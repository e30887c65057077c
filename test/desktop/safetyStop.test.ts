import { strict as assert } from 'node:assert';
import type { TakeoverDecision, TakeoverRequest } from '../../src/safety/safetyMonitor';
import { suiteDisplay } from './support/fixture';
import { createStopRig, type StopRig } from './support/stopRig';

// Stop from anywhere (issue 9) on the suite's Xvfb: a scripted model asks for 20 clicks on the
// fixture's Apply button; the person stops it with the global hotkey or the fail-safe corner,
// or takes the pointer over mid-task. The fixture's own log says which clicks arrived.

const display = suiteDisplay();
const CLICKS = 20;

describe('stop from anywhere and the takeover pause (X11, fixture app)', function () {
  this.timeout(60_000);
  let rig: StopRig | undefined;
  afterEach(async () => {
    await rig?.dispose();
    rig = undefined;
  });

  /** Every click the fixture got was one GAI started before the stop; none started after it. */
  async function assertNothingAfterStop(r: StopRig): Promise<void> {
    const stoppedAt = r.stoppedAt;
    assert.ok(stoppedAt !== undefined, 'the monitor stopped the request');
    const late = r.clicksStarted.filter((t) => t > stoppedAt);
    assert.deepEqual(late, [], 'no click started after the stop');
    await new Promise((resolve) => setTimeout(resolve, 400)); // anything in flight has arrived
    assert.equal(r.fixtureClicks(), r.clicksStarted.length, 'the fixture logged exactly the clicks started before the stop');
    assert.ok(r.fixtureClicks() < CLICKS, 'the queue was cut short');
  }

  it('Ctrl+Alt+Escape sent by xdotool (focus on the fixture) stops the queue: no click after it, the run ends cancelled', async () => {
    rig = await createStopRig(display, { clicks: CLICKS });
    const running = rig.run();
    await rig.waitForClicks(3);
    await rig.xdotool(['key', 'ctrl+alt+Escape']);
    const response = await running;
    assert.equal(response.stopReason, 'cancelled');
    assert.equal(rig.stopMessage, 'stopped by the person (Ctrl+Alt+Escape)');
    await assertNothingAfterStop(rig);
    const key = rig.fixture.events().find((e) => e.event === 'key' && e.keysym === 'Escape');
    assert.equal(key, undefined, 'the hotkey is grabbed at the X server: the focused app never sees it');
    const cancelled = response.toolCalls.filter((c) => c.result.code === 'CANCELLED');
    assert.ok(cancelled.length > 0);
  });

  it('the pointer pushed into a screen corner stops the queue', async () => {
    rig = await createStopRig(display, { clicks: CLICKS });
    const running = rig.run();
    await rig.waitForClicks(3);
    await rig.xdotool(['mousemove', '0', '0']);
    const response = await running;
    assert.equal(response.stopReason, 'cancelled');
    assert.match(rig.stopMessage ?? '', /screen corner/);
    await assertNothingAfterStop(rig);
  });

  it('moving the pointer mid-task pauses before the next click; resume carries on', async () => {
    const asked: TakeoverRequest[] = [];
    let answer: (decision: TakeoverDecision) => void = () => {};
    rig = await createStopRig(display, {
      clicks: 8,
      onTakeover: (request) => {
        asked.push(request);
        return new Promise((resolve) => (answer = resolve));
      },
    });
    const r = rig;
    const running = r.run();
    await r.waitForClicks(3);
    await r.xdotool(['mousemove', '500', '500']);
    await r.fixture.waitFor(() => asked.length > 0, 10_000);
    const whilePaused = r.fixtureClicks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(r.fixtureClicks(), whilePaused, 'no click while paused');
    assert.match(asked[0]!.detail, /moved the pointer to 500,500/);
    answer('resume');
    const response = await running;
    assert.equal(response.stopReason, 'end_turn');
    await r.waitForClicks(8);
    assert.equal(asked.length, 1, 'asked once');
  });

  it('moving the pointer mid-task, then Stop at the prompt, ends the request', async () => {
    rig = await createStopRig(display, { clicks: CLICKS, onTakeover: async () => 'stop' });
    const r = rig;
    const running = r.run();
    await r.waitForClicks(3);
    await r.xdotool(['mousemove', '500', '500']);
    const response = await running;
    assert.equal(response.stopReason, 'cancelled');
    assert.match(r.stopMessage ?? '', /you took over and chose to stop/);
    await assertNothingAfterStop(r);
  });
});
