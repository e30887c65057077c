import { strict as assert } from 'node:assert';
import { InputClock } from '../../src/desktop/input/inputClock';
import { framesEqual } from '../../src/desktop/reading/screenDiff';
import { ScreenReader } from '../../src/desktop/reading/screenReader';
import { FakeOcr, FakeScreen } from '../support/fakeDesktop';

// A reading right after GAI's input shows what the input did: a fast or scripted model reads
// within milliseconds of a click, before the app has drawn its result (the chat once showed a
// calculator's display as "8" after "=", and the model got no display value at all).

describe('a screen reading right after GAI\'s input', () => {
  it('waits for the app to draw the input\'s effect, and reads that, not the picture from before', async () => {
    const screen = new FakeScreen(200, 100);
    const inputs = new InputClock();
    const reader = new ScreenReader(screen, new FakeOcr(), { inputs });
    await reader.read(); // the screen before the click
    inputs.note(); // "=" clicked
    const before = screen.frame;
    setTimeout(() => screen.paint({ x: 20, y: 20, width: 40, height: 12 }), 80); // the app draws "15" 80 ms later
    const started = performance.now();
    const after = await reader.read();
    assert.ok(performance.now() - started >= 70, 'it waited for the app');
    assert.equal(framesEqual(after.image, before), false, 'the picture shows the result, not the display from before');
    assert.equal(framesEqual(after.image, screen.frame), true);
  });

  it('an input with no visible effect costs a short wait only (300 ms after it at most), and a later reading none', async () => {
    const screen = new FakeScreen(200, 100);
    const inputs = new InputClock();
    const reader = new ScreenReader(screen, new FakeOcr(), { inputs });
    await reader.read();
    inputs.note();
    let started = performance.now();
    await reader.read();
    const waited = performance.now() - started;
    assert.ok(waited >= 250 && waited < 700, `waited ${Math.round(waited)} ms`);
    started = performance.now();
    await reader.read(); // no input since: no wait
    assert.ok(performance.now() - started < 100);
    // An input long enough ago has had its effect: nothing to wait for.
    inputs.note();
    await new Promise((r) => setTimeout(r, 320));
    started = performance.now();
    await reader.read();
    assert.ok(performance.now() - started < 100);
  });
});
