import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { LaunchAppTool } from '../../src/tools/desktop/launchAppTool';
import { PressKeyTool } from '../../src/tools/desktop/pressKeyTool';
import { ScrollTool } from '../../src/tools/desktop/scrollTool';
import { SpotlightTool } from '../../src/tools/desktop/spotlightTool';
import { TabNavigateTool } from '../../src/tools/desktop/tabNavigateTool';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { createFakeDesktop, makeServices, ocrWords, runTool, window, type FakeDesktop } from '../support/fakeDesktop';

// The action tools through validation and execution, on the in-memory desktop: what reached
// the input port is the evidence.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function data(result: ToolResult): Record<string, unknown> {
  return (result.data ?? {}) as Record<string, unknown>;
}

function screenWith(): FakeDesktop {
  return createFakeDesktop({
    analysis: ocrWords([
      { text: 'Save', x: 100, y: 40, w: 40, h: 20 },
      { text: 'Open', x: 300, y: 40, w: 40, h: 20 },
      { text: 'File', x: 345, y: 40, w: 30, h: 20 },
      { text: 'OK', x: 100, y: 400, w: 30, h: 20 },
      { text: 'OK', x: 500, y: 400, w: 30, h: 20 },
      { text: 'Cancel', x: 560, y: 400, w: 60, h: 20 },
      { text: 'Results', x: 200, y: 250, w: 70, h: 20 },
    ]),
  });
}

describe('desktop action tools', function () {
  this.timeout(10_000);
  let fake: FakeDesktop;
  beforeEach(() => {
    fake = screenWith();
  });

  describe('click', () => {
    const click = (): ClickTool => new ClickTool(makeServices(fake));

    it('clicks at coordinates', async () => {
      const result = await runTool(click(), { x: 10, y: 20, button: 'right', doubleClick: true });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 10, y: 20 }, button: 'right', double: true }]);
    });

    for (const [input, field] of [[{ x: 800, y: 10 }, 'x: 800'], [{ x: 10, y: 600 }, 'y: 600']] as const) {
      it(`refuses a point outside the screen (${field})`, async () => {
        const result = await runTool(click(), input);
        assert.equal(result.code, 'INVALID_INPUT');
        assert.ok(result.error?.includes(field), result.error);
        assert.deepEqual(fake.input.calls, []);
      });
    }

    it('clicks the centre of a text box', async () => {
      const result = await runTool(click(), { text: 'save' });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 120, y: 50 }, button: 'left', double: false }]);
      assert.deepEqual(data(result).bbox, { x: 100, y: 40, width: 40, height: 20 });
    });

    it('clicks a phrase across neighbouring words', async () => {
      await runTool(click(), { text: 'Open File' });
      assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 338, y: 50 }, button: 'left', double: false }]);
    });

    it('clicks nothing when the text is ambiguous, and lists the candidates', async () => {
      const result = await runTool(click(), { text: 'OK' });
      assert.equal(result.success, false);
      assert.equal(result.code, 'FAILED');
      assert.deepEqual(fake.input.calls, []);
      assert.match(result.observation, /did NOT click/i);
      assert.match(result.hint ?? '', /occurrence/);
      assert.match(result.hint ?? '', /near/);
      const candidates = data(result).candidates as Array<{ bbox: unknown }>;
      assert.deepEqual(
        candidates.map((c) => c.bbox),
        [{ x: 100, y: 400, width: 30, height: 20 }, { x: 500, y: 400, width: 30, height: 20 }],
      );
    });

    it('reports a missing text as NOT_FOUND with suggestions', async () => {
      const result = await runTool(click(), { text: 'Sve' });
      assert.equal(result.code, 'NOT_FOUND');
      assert.match(result.error ?? '', /"Save"/);
      assert.deepEqual(fake.input.calls, []);
    });

    it('occurrence and near pick one of the repeats', async () => {
      await runTool(click(), { text: 'OK', occurrence: 2 });
      await runTool(click(), { text: 'OK', near: 'Cancel' });
      await runTool(click(), { text: 'OK', occurrence: 1 });
      assert.deepEqual(
        fake.input.calls.map((c) => (c.type === 'click' ? c.at : undefined)),
        [{ x: 515, y: 410 }, { x: 515, y: 410 }, { x: 115, y: 410 }],
      );
    });

    const invalid: Array<[string, Record<string, unknown>, string]> = [
      ['x without y', { x: 5 }, 'y:'],
      ['y without x', { y: 5 }, 'x:'],
      ['text and x together', { text: 'Save', x: 1, y: 2 }, 'text:'],
      ['occurrence without text', { x: 1, y: 2, occurrence: 1 }, 'occurrence:'],
      ['near without text', { x: 1, y: 2, near: 'OK' }, 'near:'],
      ['occurrence and near together', { text: 'OK', occurrence: 1, near: 'Cancel' }, 'near:'],
      ['nothing to click', {}, 'text:'],
      ['a negative x', { x: -1, y: 2 }, 'x:'],
    ];
    for (const [name, input, field] of invalid) {
      it(`rejects ${name}, naming ${field.slice(0, -1)}`, async () => {
        const validation = click().validateInput(input);
        assert.equal(validation.ok, false);
        assert.ok(!validation.ok && validation.errors[0]?.startsWith(field), JSON.stringify(validation));
        const result = await runTool(click(), input);
        assert.equal(result.code, 'INVALID_INPUT');
        assert.deepEqual(fake.input.calls, []);
      });
    }

    it('returnScreen: true adds the text of the screen after the click', async () => {
      const result = await runTool(click(), { x: 1, y: 1, returnScreen: true });
      const after = data(result).screenAfter as { text: string; settled: boolean };
      assert.equal(after.settled, true);
      assert.match(after.text, /^<screen_text source="ocr" area="the screen after the action">\nSave\nOpen File\n/);
      assert.match(after.text, /Results/);
      assert.equal(result.images, undefined);
    });

    it('returnScreen: "screenshot" adds a PNG image block', async () => {
      const result = await runTool(click(), { x: 1, y: 1, returnScreen: 'screenshot' });
      assert.equal(result.images?.length, 1);
      const block = result.images![0]!;
      assert.equal(block.source.mediaType, 'image/png');
      assert.deepEqual(Buffer.from(block.source.data, 'base64').subarray(0, 8), PNG_SIGNATURE);
      assert.deepEqual((data(result).screenAfter as { width: number }).width, 800);
    });
  });

  describe('type_text', () => {
    it('types the text with the default delay', async () => {
      const result = await runTool(new TypeTextTool(makeServices(fake)), { text: 'héllo @ wörld' });
      assert.equal(result.success, true);
      assert.deepEqual(fake.input.calls, [{ type: 'type', text: 'héllo @ wörld', delayMs: 50 }]);
    });

    it('passes the delay and presses Enter after the text when asked', async () => {
      await runTool(new TypeTextTool(makeServices(fake)), { text: 'ls -la', delay: 0, pressEnter: true });
      assert.deepEqual(fake.input.calls, [
        { type: 'type', text: 'ls -la', delayMs: 0 },
        { type: 'key', combo: { modifiers: [], key: 'enter' } },
      ]);
    });
  });

  describe('press_key', () => {
    const press = (): PressKeyTool => new PressKeyTool(makeServices(fake));

    it('presses a list of combos in order', async () => {
      const result = await runTool(press(), { key: ['ctrl+s', 'Return', '+'] });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(fake.input.calls, [
        { type: 'key', combo: { modifiers: ['ctrl'], key: 's' } },
        { type: 'key', combo: { modifiers: [], key: 'enter' } },
        { type: 'key', combo: { modifiers: ['shift'], key: 'equal' } },
      ]);
      assert.deepEqual(data(result).keys, ['ctrl+s', 'enter', 'shift+equal']);
    });

    it('holds the extra modifiers', async () => {
      await runTool(press(), { key: 't', modifiers: ['command', 'shift'] });
      assert.deepEqual(fake.input.calls, [{ type: 'key', combo: { modifiers: ['command', 'shift'], key: 't' } }]);
    });

    it('rejects an unknown key at validation and presses nothing', async () => {
      const result = await runTool(press(), { key: ['enter', 'ctrl+nonsense'] });
      assert.equal(result.code, 'INVALID_INPUT');
      assert.match(result.error ?? '', /key: "nonsense"/);
      assert.deepEqual(fake.input.calls, []);
    });
  });

  describe('tab_navigate', () => {
    it('presses Tab count times', async () => {
      await runTool(new TabNavigateTool(makeServices(fake)), { count: 2 });
      assert.deepEqual(fake.input.calls, [
        { type: 'key', combo: { modifiers: [], key: 'tab' } },
        { type: 'key', combo: { modifiers: [], key: 'tab' } },
      ]);
    });

    it('reverse holds Shift', async () => {
      const result = await runTool(new TabNavigateTool(makeServices(fake)), { count: 3, reverse: true });
      assert.equal(data(result).direction, 'backward');
      assert.deepEqual(fake.input.calls, Array(3).fill({ type: 'key', combo: { modifiers: ['shift'], key: 'tab' } }));
    });
  });

  describe('scroll', () => {
    const scroll = (): ScrollTool => new ScrollTool(makeServices(fake));

    it('moves to the text first, then scrolls', async () => {
      const result = await runTool(scroll(), { direction: 'down', text: 'Results' });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(fake.input.calls, [
        { type: 'move', to: { x: 235, y: 260 } },
        { type: 'scroll', direction: 'down', amount: 3 },
      ]);
    });

    it('scrolls at a point, or where the mouse is', async () => {
      await runTool(scroll(), { direction: 'left', amount: 5, x: 10, y: 20 });
      await runTool(scroll(), { direction: 'up' });
      assert.deepEqual(fake.input.calls, [
        { type: 'move', to: { x: 10, y: 20 } },
        { type: 'scroll', direction: 'left', amount: 5 },
        { type: 'scroll', direction: 'up', amount: 3 },
      ]);
    });

    it('scrolls nothing when the text is missing', async () => {
      const result = await runTool(scroll(), { direction: 'down', text: 'Nowhere' });
      assert.equal(result.code, 'NOT_FOUND');
      assert.deepEqual(fake.input.calls, []);
    });
  });

  describe('spotlight', () => {
    it('is unsupported on Linux and points to launch_app', async () => {
      const result = await runTool(new SpotlightTool(makeServices(fake)), { query: 'Calculator' });
      assert.equal(result.code, 'UNSUPPORTED_PLATFORM');
      assert.match(result.hint ?? '', /launch_app/);
      assert.deepEqual(fake.input.calls, []);
    });

    it('on macOS presses command+space, types the query, then Enter', async () => {
      const mac = createFakeDesktop({ platform: 'darwin' });
      const result = await runTool(new SpotlightTool(makeServices(mac)), { query: 'Calculator' });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(mac.input.calls, [
        { type: 'key', combo: { modifiers: ['command'], key: 'space' } },
        { type: 'type', text: 'Calculator', delayMs: 50 },
        { type: 'key', combo: { modifiers: [], key: 'enter' } },
      ]);
    });
  });

  describe('launch_app', () => {
    const bounds = { x: 100, y: 100, width: 400, height: 300 };

    it('waits until a new window is active and reports its title', async () => {
      fake.windows.active = window('Terminal', bounds, 'w1');
      fake.windows.switchAfter(3, window('Calculator', bounds, 'w2'));
      const result = await runTool(new LaunchAppTool(makeServices(fake)), { appName: 'Calculator' });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(fake.launcher.launches, ['Calculator']);
      assert.equal((data(result).window as { title: string }).title, 'Calculator');
      assert.match(result.observation, /"Calculator"/);
      assert.ok(fake.windows.polls >= 4, `polled ${fake.windows.polls} times`);
    });

    it('without window ids, a different title counts as a new window', async () => {
      fake.windows.active = window('Terminal', bounds);
      fake.windows.switchAfter(2, window('Text Editor', bounds));
      const result = await runTool(new LaunchAppTool(makeServices(fake)), { appName: 'Text Editor' });
      assert.equal((data(result).window as { title: string }).title, 'Text Editor');
    });

    it('times out clearly when no new window appears', async () => {
      fake.windows.active = window('Terminal', bounds, 'w1');
      const started = performance.now();
      const result = await runTool(new LaunchAppTool(makeServices(fake)), { appName: 'Calculator', timeoutMs: 500 });
      assert.equal(result.code, 'TIMEOUT');
      assert.match(result.error ?? '', /no new window became active within 500 ms/);
      assert.ok(performance.now() - started >= 450, 'it waited for the window');
      assert.deepEqual(fake.launcher.launches, ['Calculator']);
    });

    it('is NOT_FOUND when the launcher cannot start the app', async () => {
      fake.launcher.failure = new Error('no application named "Nonexistent"');
      const result = await runTool(new LaunchAppTool(makeServices(fake)), { appName: 'Nonexistent' });
      assert.equal(result.code, 'NOT_FOUND');
      assert.match(result.error ?? '', /no application named "Nonexistent"/);
    });
  });
});
