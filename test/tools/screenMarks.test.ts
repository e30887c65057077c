// Each tool decodes its own result into the points hosts mark (ToolBase.screenMarks): run the
// real tools on the in-memory desktop and read their results back through their own decoder.
import { strict as assert } from 'node:assert';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { ComputerTool } from '../../src/tools/desktop/computerTool';
import { ComputerDisplay } from '../../src/tools/desktop/computer/computerDisplay';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { DragTool } from '../../src/tools/desktop/dragTool';
import { PressKeyTool } from '../../src/tools/desktop/pressKeyTool';
import { ScrollTool } from '../../src/tools/desktop/scrollTool';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { SettlingTool } from '../../src/tools/settlingTool';
import { createFakeDesktop, makeServices, ocrWords, runTool } from '../support/fakeDesktop';

const TWO_OKS = ocrWords([
  { text: 'OK', x: 100, y: 100, w: 40, h: 20 },
  { text: 'OK', x: 600, y: 400, w: 40, h: 20 },
]);

describe('the points of a result, decoded by its own tool (screenMarks)', () => {
  it('click at a point: where it clicked', async () => {
    const click = new ClickTool(makeServices(createFakeDesktop({ width: 800, height: 600 })));
    const input = { x: 400, y: 300 };
    const result = await runTool(click, input);
    assert.equal(result.success, true, result.observation);
    assert.deepEqual(click.screenMarks(input, result), [{ x: 400, y: 300, label: 'clicked', kind: 'click' }]);
  });

  it('click by text: where it clicked, named by the text asked for', async () => {
    const click = new ClickTool(makeServices(createFakeDesktop({ width: 800, height: 600, analysis: ocrWords([{ text: 'Save', x: 100, y: 100, w: 60, h: 20 }]) })));
    const input = { text: 'Save' };
    const result = await runTool(click, input);
    assert.equal(result.success, true, result.observation);
    const [mark, ...rest] = click.screenMarks(input, result);
    assert.deepEqual(rest, []);
    assert.equal(mark?.label, 'clicked "Save"');
    assert.equal(mark?.kind, 'click');
    assert.ok(mark && mark.x >= 100 && mark.x <= 160 && mark.y >= 100 && mark.y <= 120, `inside the word: ${JSON.stringify(mark)}`);
  });

  it('an ambiguous click: no click, the numbered candidates at their centres', async () => {
    const fake = createFakeDesktop({ width: 800, height: 600, analysis: TWO_OKS });
    const click = new ClickTool(makeServices(fake));
    const input = { text: 'OK' };
    const result = await runTool(click, input);
    assert.equal(result.success, false);
    assert.ok(!fake.input.calls.some((c) => c.type === 'click'));
    assert.deepEqual(click.screenMarks(input, result), [
      { x: 120, y: 110, label: '1: OK', kind: 'candidate' },
      { x: 620, y: 410, label: '2: OK', kind: 'candidate' },
    ]);
  });

  it('drag: where it started and where it was released', async () => {
    const drag = new DragTool(makeServices(createFakeDesktop({ width: 800, height: 600 })));
    const input = { path: [{ x: 1, y: 2 }, { x: 5, y: 5 }, { x: 10, y: 20 }] };
    const result = await runTool(drag, input);
    assert.equal(result.success, true, result.observation);
    assert.deepEqual(drag.screenMarks(input, result), [
      { x: 1, y: 2, label: 'drag started', kind: 'click' },
      { x: 10, y: 20, label: 'drag released', kind: 'click' },
    ]);
  });

  it('scroll at a point: where it scrolled; over a text or where the mouse is: none; a failed scroll: none', async () => {
    const scroll = new ScrollTool(makeServices(createFakeDesktop({ width: 800, height: 600 })));
    const at = { direction: 'down', x: 30, y: 40 };
    assert.deepEqual(scroll.screenMarks(at, await runTool(scroll, at)), [{ x: 30, y: 40, label: 'scrolled', kind: 'click' }]);
    const here = { direction: 'up' };
    assert.deepEqual(scroll.screenMarks(here, await runTool(scroll, here)), []);
    const missing = { direction: 'up', text: 'Nowhere' };
    const failed = await runTool(scroll, missing);
    assert.equal(failed.success, false);
    assert.deepEqual(scroll.screenMarks(missing, failed), []);
  });

  it('a result of another shape (hostile or old) gives no marks rather than throwing', () => {
    const click = new ClickTool(makeServices(createFakeDesktop()));
    const drag = new DragTool(makeServices(createFakeDesktop()));
    const odd = { success: true, durationMs: 0, observation: '', data: { point: { x: 'a', y: 1 }, candidates: [{ foundText: 'x' }, null, 3], path: [null] } };
    assert.deepEqual(click.screenMarks(null, odd), []);
    assert.deepEqual(drag.screenMarks(null, odd), []);
    assert.deepEqual(click.screenMarks(undefined, { success: true, durationMs: 0, observation: '', data: [1, 2] }), []);
  });

  it('the tools that act declare their pictures, the readers theirs, and typing its text', () => {
    const fake = createFakeDesktop();
    const tools = new Map(createDesktopTools(makeServices(fake), { computerDisplay: new ComputerDisplay(fake.screen) }).map((tool) => [tool.name, tool]));
    const declared = (has: (name: string) => boolean): string[] => [...tools.keys()].filter(has).sort();
    assert.deepEqual(declared((name) => tools.get(name)!.showsScreenAfter), ['click', 'drag', 'press_key', 'scroll', 'type_text']);
    assert.deepEqual(declared((name) => tools.get(name)!.showsScreenRead), ['click', 'get_element_tree', 'ocr', 'scroll', 'smart_screen_reader']);
    assert.deepEqual(declared((name) => tools.get(name)!.screenshotCoordinates), ['computer']);
    assert.equal(new TypeTextTool(makeServices(fake)).typesText({ text: 'hi' }), true);
    assert.equal(new PressKeyTool(makeServices(fake)).typesText({ key: 'a' }), false);
    const computer = new ComputerTool(makeServices(fake), new ComputerDisplay(fake.screen));
    assert.equal(computer.typesText({ action: 'type', text: 'hi' }), true);
    assert.equal(computer.typesText({ action: 'left_click', coordinate: [1, 1] }), false);
    assert.equal(computer.asNativeComputer(), computer);
  });

  it('a settling wrapper (navigation learning) declares what its tool declares', async () => {
    const click = new ClickTool(makeServices(createFakeDesktop({ width: 800, height: 600 })));
    const settling = new SettlingTool(click, () => Promise.resolve());
    assert.equal(settling.showsScreenAfter, true);
    assert.equal(settling.showsScreenRead, true);
    const input = { x: 5, y: 6 };
    assert.deepEqual(settling.screenMarks(input, await runTool(settling, input)), [{ x: 5, y: 6, label: 'clicked', kind: 'click' }]);
    const typing = new SettlingTool(new TypeTextTool(makeServices(createFakeDesktop())), () => Promise.resolve());
    assert.equal(typing.typesText({ text: 'x' }), true);
  });
});
