import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { ComputerDisplay, fitImage, toImagePoint, toScreenPoint, type DisplayGeometry } from '../../src/tools/desktop/computer/computerDisplay';
import { ComputerTool } from '../../src/tools/desktop/computerTool';
import { NullLogger } from '../../src/common/logger';
import { createFakeDesktop, makeServices, runTool, type FakeDesktop } from '../support/fakeDesktop';

// The `computer` tool on the in-memory desktop: what reached the input port, and the
// screenshot sizes, are the evidence.

const LIMITS = { maxLongEdge: 1568, maxPixels: 1_150_000 };

function geometryOf(width: number, height: number): DisplayGeometry {
  const image = fitImage({ width, height }, LIMITS);
  return { screen: { width, height }, image, scale: image.width / width };
}

describe('ComputerDisplay', () => {
  it('fits 1920x1080 within 1568 px and 1.15 MP, aspect kept', () => {
    const { width, height } = fitImage({ width: 1920, height: 1080 }, LIMITS);
    assert.deepEqual([width, height], [1429, 804]);
    assert.ok(width * height <= LIMITS.maxPixels);
    assert.ok(Math.abs(width / height - 1920 / 1080) < 0.005);
  });

  it('fits 2560x1600 by its pixel count, a portrait screen by its long edge, and never upscales', () => {
    assert.deepEqual(fitImage({ width: 2560, height: 1600 }, LIMITS), { width: 1356, height: 848 });
    assert.deepEqual(fitImage({ width: 1000, height: 3000 }, LIMITS), { width: 522, height: 1566 });
    assert.deepEqual(fitImage({ width: 1024, height: 768 }, LIMITS), { width: 1024, height: 768 });
  });

  it('maps screenshot points to the screen and back (round trip), clamped inside the screen', () => {
    const geometry = geometryOf(1920, 1080);
    for (let x = 0; x < geometry.image.width; x += 37) {
      for (let y = 0; y < geometry.image.height; y += 29) {
        const screen = toScreenPoint([x, y], geometry, 'coordinate');
        assert.ok(screen.x < 1920 && screen.y < 1080);
        assert.deepEqual(toImagePoint(screen, geometry), { x, y });
      }
    }
    assert.deepEqual(toScreenPoint([1428, 803], geometry, 'coordinate'), { x: 1919, y: 1079 });
    assert.deepEqual(toImagePoint({ x: 5000, y: -3 }, geometry), { x: 1428, y: 0 });
    assert.throws(() => toScreenPoint([1429, 10], geometry, 'start_coordinate'), /start_coordinate: \(1429, 10\) is outside the 1429x804 screenshot/);
  });

  it('follows the limits it is given and refuses nonsense ones', async () => {
    const fake = createFakeDesktop({ width: 1920, height: 1080 });
    const display = new ComputerDisplay(fake.screen);
    assert.deepEqual((await display.geometry()).image, { width: 1429, height: 804 });
    display.setLimits({ maxLongEdge: 1280, maxPixels: 10_000_000 });
    const geometry = await display.geometry();
    assert.deepEqual(geometry.image, { width: 1280, height: 720 });
    assert.equal(geometry.scale, 1280 / 1920);
    assert.throws(() => display.setLimits({ maxLongEdge: 0, maxPixels: 100 }), /image limits/);
  });
});

describe('computer tool', function () {
  this.timeout(10_000);
  let fake: FakeDesktop;
  let tool: ComputerTool;
  beforeEach(() => {
    fake = createFakeDesktop({ width: 1920, height: 1080 });
    tool = new ComputerTool(makeServices(fake), new ComputerDisplay(fake.screen));
  });
  const run = (input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> =>
    runTool(tool, input, { signal: signal ?? new AbortController().signal, logger: new NullLogger() });
  const ok = async (input: Record<string, unknown>): Promise<ToolResult> => {
    const result = await run(input);
    assert.equal(result.success, true, result.error);
    return result;
  };

  it('is read for the observing actions, action for the others, and ordered', () => {
    assert.equal(tool.ordered, true);
    for (const action of ['screenshot', 'zoom', 'cursor_position', 'wait'] as const) assert.equal(tool.riskFor({ action }), 'read', action);
    for (const action of ['left_click', 'type', 'key', 'left_mouse_up', 'scroll'] as const) assert.equal(tool.riskFor({ action }), 'action', action);
  });

  it('screenshot: a PNG at the size the coordinates refer to', async () => {
    const result = await ok({ action: 'screenshot' });
    const image = await new SharpImages().decode(Buffer.from(result.images![0]!.source.data, 'base64'));
    assert.deepEqual([image.width, image.height], [1429, 804]);
    assert.match(result.observation, /1920x1080 screen, scaled to 1429x804/);
  });

  it('zoom: the region at full screen resolution, not upscaled; a region past the screenshot is refused', async () => {
    const result = await ok({ action: 'zoom', region: [100, 100, 200, 150] });
    const image = await new SharpImages().decode(Buffer.from(result.images![0]!.source.data, 'base64'));
    const box = (result.data as { screenRegion: { width: number; height: number } }).screenRegion;
    assert.deepEqual([image.width, image.height], [box.width, box.height]);
    assert.ok(Math.abs(box.width - 100 / (1429 / 1920)) <= 2 && Math.abs(box.height - 50 / (804 / 1080)) <= 2, JSON.stringify(box));
    const past = await run({ action: 'zoom', region: [1400, 0, 1500, 10] });
    assert.equal(past.code, 'INVALID_INPUT');
    assert.match(past.error ?? '', /region: .* extends beyond the 1429x804 screenshot/);
  });

  it('clicks map screenshot pixels to the screen and say both', async () => {
    const result = await ok({ action: 'left_click', coordinate: [640, 360] });
    assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 860, y: 484 }, button: 'left', double: false }]);
    assert.equal(result.observation, 'Clicked (left) at (640, 360) in the screenshot = (860, 484) on the screen.');
  });

  it('right, middle, double and triple clicks, with modifiers held; no coordinate clicks where the pointer is', async () => {
    await ok({ action: 'right_click', coordinate: [10, 10] });
    await ok({ action: 'middle_click', coordinate: [10, 10] });
    await ok({ action: 'double_click', coordinate: [10, 10], text: 'shift' });
    const triple = await ok({ action: 'triple_click', text: 'ctrl+shift' });
    assert.deepEqual(fake.input.calls, [
      { type: 'click', at: { x: 13, y: 13 }, button: 'right', double: false },
      { type: 'click', at: { x: 13, y: 13 }, button: 'middle', double: false },
      { type: 'click', at: { x: 13, y: 13 }, button: 'left', double: true, modifiers: ['shift'] },
      { type: 'click', at: { x: 13, y: 13 }, button: 'left', double: false, triple: true, modifiers: ['ctrl', 'shift'] },
    ]);
    assert.match(triple.observation, /^Triple-clicked at .* with ctrl\+shift held\.$/);
  });

  it('drags from start_coordinate to coordinate, or along a path', async () => {
    await ok({ action: 'left_click_drag', start_coordinate: [100, 100], coordinate: [200, 150] });
    await ok({ action: 'left_click_drag', path: [[0, 0], [10, 0], [10, 10]] });
    assert.deepEqual(fake.input.calls, [
      { type: 'dragAlong', path: [{ x: 134, y: 134 }, { x: 269, y: 201 }], button: 'left' },
      { type: 'dragAlong', path: [{ x: 0, y: 0 }, { x: 13, y: 0 }, { x: 13, y: 13 }], button: 'left' },
    ]);
  });

  it('presses and releases the left button, moving first when given a coordinate', async () => {
    await ok({ action: 'left_mouse_down', coordinate: [100, 100] });
    await ok({ action: 'mouse_move', coordinate: [200, 100] });
    const up = await ok({ action: 'left_mouse_up' });
    assert.deepEqual(fake.input.calls, [
      { type: 'move', to: { x: 134, y: 134 } },
      { type: 'down', button: 'left' },
      { type: 'move', to: { x: 269, y: 134 } },
      { type: 'up', button: 'left' },
    ]);
    assert.match(up.observation, /Released the left button at \(200, 100\) in the screenshot/);
  });

  it('scrolls at a coordinate with modifiers held, 3 steps unless told', async () => {
    await ok({ action: 'scroll', coordinate: [100, 100], scroll_direction: 'down', scroll_amount: 5, text: 'shift' });
    await ok({ action: 'scroll', scroll_direction: 'left' });
    assert.deepEqual(fake.input.calls, [
      { type: 'move', to: { x: 134, y: 134 } },
      { type: 'scroll', direction: 'down', amount: 5, modifiers: ['shift'] },
      { type: 'scroll', direction: 'left', amount: 3 },
    ]);
  });

  it('types text; a secret-looking text is masked in the public input and the result', async () => {
    await ok({ action: 'type', text: 'Hello, World!' });
    assert.deepEqual(fake.input.calls, [{ type: 'type', text: 'Hello, World!', delayMs: 12 }]);
    const secret = 'sk-ant-api03-' + 'x'.repeat(40);
    const validated = tool.validateInput({ action: 'type', text: secret });
    assert.ok(validated.ok);
    const context = { signal: new AbortController().signal, logger: new NullLogger() };
    const shown = (await tool.publicInput(validated.value, context)) as { text: string };
    assert.ok(!shown.text.includes('sk-ant'), shown.text);
    const result = await tool.execute(validated.value, context);
    assert.ok(!result.observation.includes('sk-ant'), result.observation);
  });

  it('presses xdotool-style keys: combos, Return, super, sequences and repeats', async () => {
    await ok({ action: 'key', text: 'ctrl+s' });
    await ok({ action: 'key', text: 'Return', repeat: 3 });
    await ok({ action: 'key', text: 'super' });
    await ok({ action: 'key', text: 'ctrl+a Delete' });
    await ok({ action: 'key', text: 'shift+Page_Down' });
    const keys = fake.input.calls.map((c) => (c.type === 'key' ? [...c.combo.modifiers, c.combo.key].join('+') : c.type));
    assert.deepEqual(keys, ['ctrl+s', 'enter', 'enter', 'enter', 'super', 'ctrl+a', 'delete', 'shift+pagedown']);
  });

  it('holds a key for the duration, and lets go early on cancel', async () => {
    const held = await ok({ action: 'hold_key', text: 'shift', duration: 0.05 });
    assert.deepEqual(fake.input.calls, [{ type: 'hold', combo: { modifiers: [], key: 'shift' }, ms: 50, released: 'after' }]);
    assert.match(held.observation, /Held shift for 0.05 s/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = performance.now();
    const cancelled = await run({ action: 'hold_key', text: 'ctrl+right', duration: 20 }, controller.signal);
    assert.ok(performance.now() - started < 1000);
    assert.equal(cancelled.code, 'CANCELLED');
    assert.deepEqual(fake.input.calls[1], { type: 'hold', combo: { modifiers: ['ctrl'], key: 'right' }, ms: 20_000, released: 'early' });
  });

  it('waits, and returns at once on cancel', async () => {
    const started = performance.now();
    await ok({ action: 'wait', duration: 0.05 });
    assert.ok(performance.now() - started >= 45);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const cut = await run({ action: 'wait', duration: 60 }, controller.signal);
    assert.equal(cut.code, 'CANCELLED');
    assert.ok(performance.now() - started < 1000);
  });

  it('cursor_position answers in screenshot pixels after a move', async () => {
    await ok({ action: 'mouse_move', coordinate: [700, 400] });
    const result = await ok({ action: 'cursor_position' });
    assert.deepEqual({ x: (result.data as { x: number }).x, y: (result.data as { y: number }).y }, { x: 700, y: 400 });
    assert.match(result.observation, /\(700, 400\) in the screenshot = \(941, 537\) on the screen/);
  });

  it('names the field of every cross-field mistake, and sends nothing', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ action: 'left_click_drag', start_coordinate: [1, 1] }, /coordinate: required for left_click_drag/],
      [{ action: 'left_click_drag', path: [[1, 1], [2, 2]], coordinate: [3, 3] }, /coordinate: give either path or/],
      [{ action: 'mouse_move' }, /coordinate: required for mouse_move/],
      [{ action: 'mouse_move', coordinate: [1, 1], text: 'shift' }, /text: not used by mouse_move/],
      [{ action: 'key' }, /text: required for key/],
      [{ action: 'key', text: 'hyper+s' }, /text: "hyper" in "hyper\+s" is not a modifier/],
      [{ action: 'key', text: 'nosuchkey' }, /text: "nosuchkey" is not a known key/],
      [{ action: 'hold_key', text: 'shift' }, /duration: required for hold_key/],
      [{ action: 'hold_key', text: 'a b', duration: 1 }, /text: hold_key holds one key/],
      [{ action: 'left_click', coordinate: [1, 1], text: 'hello' }, /text: "hello" is not a modifier/],
      [{ action: 'scroll', coordinate: [1, 1] }, /scroll_direction: required for scroll/],
      [{ action: 'zoom', region: [10, 10, 5, 20] }, /region: must be \[x0, y0, x1, y1\] with x1 > x0/],
      [{ action: 'wait' }, /duration: required for wait/],
      [{ action: 'type', text: '' }, /text: must not be empty/],
      [{ action: 'screenshot', coordinate: [1, 1] }, /coordinate: not used by screenshot/],
      [{ action: 'left_click', coordinate: [1500, 10] }, /coordinate: \(1500, 10\) is outside the 1429x804 screenshot/],
      [{ action: 'left_click_drag', path: [[1, 1], [2000, 2]] }, /path\[1\]: \(2000, 2\) is outside/],
    ];
    for (const [input, expected] of cases) {
      const result = await run(input);
      assert.equal(result.code, 'INVALID_INPUT', JSON.stringify(input));
      assert.match(result.error ?? '', expected, JSON.stringify(input));
    }
    assert.deepEqual(fake.input.calls, []);
  });
});
