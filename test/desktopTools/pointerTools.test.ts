import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { NullLogger } from '../../src/common/logger';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { CursorPositionTool } from '../../src/tools/desktop/cursorPositionTool';
import { DragTool } from '../../src/tools/desktop/dragTool';
import { HoldKeyTool } from '../../src/tools/desktop/holdKeyTool';
import { MouseMoveTool } from '../../src/tools/desktop/mouseMoveTool';
import { WaitTool } from '../../src/tools/desktop/waitTool';
import { ZoomTool } from '../../src/tools/desktop/zoomTool';
import type { AnyTool } from '../../src/tools/toolBase';
import { createFakeDesktop, makeServices, runTool, type FakeDesktop } from '../support/fakeDesktop';

// GAI's own finer pointer and keyboard tools (screen pixels), for models without a native
// computer tool: what reached the input port is the evidence.

describe('pointer and keyboard tools', function () {
  this.timeout(10_000);
  let fake: FakeDesktop;
  beforeEach(() => {
    fake = createFakeDesktop({ width: 800, height: 600 });
  });
  const run = (tool: AnyTool, input: unknown, signal = new AbortController().signal): Promise<ToolResult> =>
    runTool(tool, input, { signal, logger: new NullLogger() });

  it('click: triple click and modifiers held; doubleClick still works; a contradiction is refused', async () => {
    const click = new ClickTool(makeServices(fake));
    assert.equal((await run(click, { x: 10, y: 20, clicks: 3, modifiers: ['shift'] })).success, true);
    assert.equal((await run(click, { x: 10, y: 20, doubleClick: true })).success, true);
    assert.deepEqual(fake.input.calls, [
      { type: 'click', at: { x: 10, y: 20 }, button: 'left', double: false, triple: true, modifiers: ['shift'] },
      { type: 'click', at: { x: 10, y: 20 }, button: 'left', double: true },
    ]);
    const bad = await run(click, { x: 1, y: 1, clicks: 3, doubleClick: true });
    assert.match(bad.error ?? '', /clicks: 3 contradicts doubleClick: true/);
  });

  it('drag: from/to or a path; off-screen points and half inputs are refused naming the field', async () => {
    const drag = new DragTool(makeServices(fake));
    assert.equal((await run(drag, { from: { x: 10, y: 10 }, to: { x: 100, y: 10 } })).success, true);
    assert.equal((await run(drag, { path: [{ x: 1, y: 1 }, { x: 5, y: 5 }, { x: 9, y: 1 }], button: 'right' })).success, true);
    assert.deepEqual(fake.input.calls, [
      { type: 'dragAlong', path: [{ x: 10, y: 10 }, { x: 100, y: 10 }], button: 'left' },
      { type: 'dragAlong', path: [{ x: 1, y: 1 }, { x: 5, y: 5 }, { x: 9, y: 1 }], button: 'right' },
    ]);
    assert.match((await run(drag, { from: { x: 1, y: 1 } })).error ?? '', /to: required with from/);
    assert.match((await run(drag, { path: [{ x: 1, y: 1 }, { x: 2, y: 2 }], to: { x: 1, y: 1 } })).error ?? '', /to: give either path or from and to/);
    assert.match((await run(drag, { from: { x: 1, y: 1 }, to: { x: 900, y: 1 } })).error ?? '', /to: \(900, 1\) is outside the 800x600 screen/);
    assert.equal(fake.input.calls.length, 2);
  });

  it('mouse_move then cursor_position', async () => {
    assert.equal((await run(new MouseMoveTool(makeServices(fake)), { to: { x: 321, y: 123 } })).success, true);
    const where = await run(new CursorPositionTool(makeServices(fake)), {});
    assert.deepEqual((where.data as { point: unknown }).point, { x: 321, y: 123 });
    assert.match((await run(new MouseMoveTool(makeServices(fake)), { to: { x: 1, y: 600 } })).error ?? '', /to: \(1, 600\) is outside/);
  });

  it('hold_key holds a combo for the seconds given; a cancel releases it at once', async () => {
    const hold = new HoldKeyTool(makeServices(fake));
    assert.equal((await run(hold, { key: 'shift+right', seconds: 0.03 })).success, true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    const cut = await run(hold, { key: 'space', seconds: 20 }, controller.signal);
    assert.ok(performance.now() - started < 1000);
    assert.equal(cut.code, 'CANCELLED');
    assert.deepEqual(fake.input.calls, [
      { type: 'hold', combo: { modifiers: ['shift'], key: 'right' }, ms: 30, released: 'after' },
      { type: 'hold', combo: { modifiers: [], key: 'space' }, ms: 20_000, released: 'early' },
    ]);
    assert.match((await run(hold, { key: 'hyper+a', seconds: 1 })).error ?? '', /key: "hyper" in "hyper\+a" is not a modifier/);
    assert.match((await run(hold, { key: 'a', seconds: 31 })).error ?? '', /seconds/);
  });

  it('wait waits, is bounded, and returns quickly on cancel', async () => {
    const wait = new WaitTool();
    const started = performance.now();
    assert.equal((await run(wait, { seconds: 0.04 })).success, true);
    assert.ok(performance.now() - started >= 35);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const cut = await run(wait, { seconds: 50 }, controller.signal);
    assert.equal(cut.code, 'CANCELLED');
    assert.ok(performance.now() - started < 1000);
    assert.equal((await run(wait, { seconds: 61 })).code, 'INVALID_INPUT');
  });

  it('zoom returns the pixels of the region at full resolution; a region off the screen is refused', async () => {
    fake.screen.paint({ x: 100, y: 100, width: 50, height: 50 }, [255, 0, 0, 255]);
    const result = await run(new ZoomTool(makeServices(fake)), { region: { x: 90, y: 90, width: 70, height: 40 } });
    assert.equal(result.success, true, result.error);
    const image = await new SharpImages().decode(Buffer.from(result.images![0]!.source.data, 'base64'));
    assert.deepEqual([image.width, image.height], [70, 40]);
    const at = (x: number, y: number): number[] => [...image.data.subarray((y * 70 + x) * 4, (y * 70 + x) * 4 + 3)];
    assert.deepEqual(at(5, 5), [240, 240, 240]);
    assert.deepEqual(at(20, 20), [255, 0, 0]);
    assert.match((await run(new ZoomTool(makeServices(fake)), { region: { x: 790, y: 0, width: 20, height: 10 } })).error ?? '', /region: extends beyond the 800x600 screen/);
  });
});
