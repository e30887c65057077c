import { strict as assert } from 'node:assert';
import { DesktopUnavailableError } from '../../src/common/errors';
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

describe('click through an element\'s accessibility action (via: "accessibility")', () => {
  /** A tree whose elements carry handles, recording the presses it was asked for (a dry run, asking only which action would press, apart). */
  function actingTree(elements: AccessibleElement[], refuse?: string): AccessibilityPort & { performed: Array<[string, unknown]>; checked: string[] } {
    return {
      ...tree(elements),
      performed: [],
      checked: [],
      perform(ref, action) {
        if (action.dryRun) this.checked.push(ref);
        else this.performed.push([ref, action]);
        return refuse ? Promise.reject(new Error(refuse)) : Promise.resolve('click');
      },
    };
  }
  const handled = (name: string, x: number, y: number): AccessibleElement => ({ ...button(name, x, y), ref: `:1.9 ${name}` });

  it('presses the tree\'s element without moving the pointer, and says so', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 40, h: 20 }]) });
    const port = actingTree([handled('Save', 90, 35)]);
    fake.accessibility = port;
    const result = await runTool(new ClickTool(makeServices(fake)), { text: 'Save', via: 'accessibility' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(port.performed, [[':1.9 Save', { kind: 'press' }]]);
    assert.deepEqual(fake.input.calls, [], 'no pointer input');
    assert.match(result.observation, /Pressed "Save" through its accessibility action "click" \(the pointer did not move\)/);
    assert.deepEqual((result.data as { via?: string; action?: string }).via, 'accessibility');
  });

  it('refuses what only OCR found, or what the toolkit will not press, and clicks nothing', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: 'Quit', x: 100, y: 40, w: 40, h: 20 }]) });
    const port = actingTree([handled('Save', 300, 200)], 'the element is disabled');
    fake.accessibility = port;
    const ocrOnly = await runTool(new ClickTool(makeServices(fake)), { text: 'Quit', via: 'accessibility' });
    assert.equal(ocrOnly.code, 'FAILED');
    assert.match(ocrOnly.error ?? '', /Cannot press "Quit" without the pointer: it was found by OCR, not in the accessibility tree; nothing was clicked/);
    fake.screen.paint({ x: 310, y: 205, width: 30, height: 10 });
    const disabled = await runTool(new ClickTool(makeServices(fake)), { text: 'Save', via: 'accessibility' });
    assert.equal(disabled.code, 'FAILED');
    assert.match(disabled.error ?? '', /Could not press "Save" through the accessibility tree \(the element is disabled\); nothing was clicked/);
    assert.deepEqual(fake.input.calls, []);
  });

  it('where the desktop takes no pointer input, a plain click presses the tree\'s element instead; anything else says the desktop cannot be driven', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 40, h: 20 }]) });
    const port = actingTree([handled('Save', 90, 35)]);
    fake.accessibility = port;
    fake.input.click = () => Promise.reject(new DesktopUnavailableError('KDE Plasma on Wayland takes no synthetic input here', 'log into an X11 session'));
    const pressed = await runTool(new ClickTool(makeServices(fake)), { text: 'Save' });
    assert.equal(pressed.success, true, pressed.error);
    assert.deepEqual(port.performed, [[':1.9 Save', { kind: 'press' }]]);
    // The registry turns this error into UNSUPPORTED_PLATFORM with its hint.
    await assert.rejects(runTool(new ClickTool(makeServices(fake)), { text: 'Save', button: 'right' }), DesktopUnavailableError);
    assert.equal(port.performed.length, 1, 'a right click has no action to stand in for it');
  });

  it('presses the element under a label OCR found, when the tree names it there', async () => {
    const fake = createFakeDesktop({ analysis: ocrWords([{ text: 'Apply', x: 100, y: 40, w: 40, h: 20 }]) });
    const port = actingTree([handled('Apply', 90, 35), handled('Apply', 400, 300)]);
    fake.accessibility = port;
    const result = await runTool(new ClickTool(makeServices(fake)), { text: 'Apply', via: 'accessibility' });
    assert.equal(result.success, true, result.error);
    assert.equal(port.performed.length, 1);
  });

  it('names the field and the problem when via does not fit the rest', async () => {
    const fake = createFakeDesktop({});
    for (const [input, why] of [
      [{ x: 5, y: 5, via: 'accessibility' }, /via: "accessibility" presses a control found by its text/],
      [{ text: 'Save', via: 'accessibility', clicks: 2 }, /via: "accessibility" presses once with the left button/],
      [{ text: 'Save', via: 'mouse' }, /via/],
    ] as const) {
      const result = await runTool(new ClickTool(makeServices(fake)), input);
      assert.equal(result.code, 'INVALID_INPUT', JSON.stringify(input));
      assert.match(result.error ?? '', why);
    }
  });
});
