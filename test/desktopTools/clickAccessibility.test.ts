import { strict as assert } from 'node:assert';
import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { createFakeDesktop, makeServices, ocrWords, runTool } from '../support/fakeDesktop';

// Click by text when OCR cannot tell where a label is: the accessibility tree answers.

function tree(elements: AccessibleElement[], available = true): AccessibilityPort & { calls: number } {
  return {
    name: 'fake-tree',
    calls: 0,
    available: () => Promise.resolve(available),
    elements() {
      this.calls++;
      return Promise.resolve(elements);
    },
  };
}

const button = (name: string, x: number, y: number): AccessibleElement => ({ name, role: 'push button', bbox: { x, y, width: 60, height: 30 }, states: ['enabled', 'showing'] });

describe('click through the accessibility tree', () => {
  it('clicks a label OCR did not read, and says where it was found', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 40, h: 20 }]) });
    fake.accessibility = tree([button('=', 300, 200), button('Save', 90, 35)]);
    fake.screen.paint({ x: 320, y: 210, width: 12, height: 6 }); // the "=" glyph the tree's button shows
    const result = await runTool(new ClickTool(makeServices(fake)), { text: '=' });
    assert.equal(result.success, true, result.error);
    assert.match(result.observation, /accessibility tree/);
    assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 330, y: 215 }, button: 'left', double: false }]);
  });

  it('settles OCR ambiguity only with a single exact element', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: '+', x: 100, y: 40, w: 8, h: 8 }, { text: '+', x: 200, y: 40, w: 8, h: 8 }]) });
    fake.accessibility = tree([button('+/-', 80, 30), button('+', 180, 30)]);
    fake.screen.paint({ x: 200, y: 40, width: 8, height: 8 });
    const result = await runTool(new ClickTool(makeServices(fake)), { text: '+' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 210, y: 45 }, button: 'left', double: false }]);
  });

  it('leaves an exact OCR match alone, and reports not found when neither finds it', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 40, h: 20 }]) });
    const port = tree([button('Save', 500, 500)]);
    fake.accessibility = port;
    await runTool(new ClickTool(makeServices(fake)), { text: 'Save' });
    // The tree's "Save" box shows nothing (a stale tree): the word the pixels show is clicked.
    assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 120, y: 50 }, button: 'left', double: false }]);
    const missing = await runTool(new ClickTool(makeServices(fake)), { text: 'Quit' });
    assert.equal(missing.code, 'NOT_FOUND');
    fake.accessibility = tree([button('=', 300, 200)], false);
    assert.equal((await runTool(new ClickTool(makeServices(fake)), { text: '=' })).code, 'NOT_FOUND');
  });
});
