import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import type { ActionTarget } from '../../src/tools/toolTypes';
import { ToolResults } from '../../src/tools/toolResult';
import { createFakeDesktop, makeServices, ocrWords, runTool, toolContext, window, type FakeDesktop } from '../support/fakeDesktop';

// The person's "accessibility first" (gai.input): a plain left click by text presses the control
// through its accessibility action when the tree offers one, and the pointer otherwise; the
// press is checked for an effect, and when there is none the pointer is used only if approved
// for it (ToolContext.pointerFallback).

const SAVE_BOX: BBox = { x: 90, y: 35, width: 60, height: 30 };

interface ActingTree extends AccessibilityPort {
  presses: string[];
  checks: string[];
  /** The element's states, changed by a test to show a press took without a pixel changing. */
  states: string[];
}

/** The window's "Save" (with a handle) and "Open" (without); a press runs `onPress` (the app's reaction). */
function actingTree(options: { refuseCheck?: string; onPress?: () => void } = {}): ActingTree {
  const tree: ActingTree = {
    name: 'fake-tree',
    presses: [],
    checks: [],
    states: ['enabled', 'showing'],
    available: () => Promise.resolve(true),
    elements: () =>
      Promise.resolve<AccessibleElement[]>([
        { name: 'Save', role: 'push button', bbox: SAVE_BOX, states: [...tree.states], ref: ':1.9 /save' },
        { name: 'Open', role: 'push button', bbox: { x: 300, y: 35, width: 60, height: 30 }, states: ['enabled', 'showing'] },
      ]),
    perform(ref, action) {
      if (action.dryRun) {
        tree.checks.push(ref);
        return options.refuseCheck ? Promise.reject(new Error(options.refuseCheck)) : Promise.resolve('click');
      }
      tree.presses.push(ref);
      options.onPress?.();
      return Promise.resolve('click');
    },
  };
  return tree;
}

function desk(tree: ActingTree): FakeDesktop {
  const fake = createFakeDesktop({ window: window('Editor'), analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 40, h: 20 }, { text: 'Open', x: 310, y: 40, w: 40, h: 20 }]) });
  fake.accessibility = tree;
  // The glyphs the tree's boxes show (a tree box over blank pixels is not trusted).
  fake.screen.paint({ x: 100, y: 40, width: 40, height: 20 });
  fake.screen.paint({ x: 310, y: 40, width: 40, height: 20 });
  fake.input.pointer = { x: 5, y: 590 };
  return fake;
}

/** The app's reaction to a press: its status line changes. */
const reacts = (fake: () => FakeDesktop) => () => fake().screen.paint({ x: 10, y: 500, width: 100, height: 20 }, [200, 30, 30, 255]);

describe('click by text, the person choosing accessibility first (gai.input)', () => {
  it('presses a control the tree can press, before anyone approves saying so: no pointer input, the pointer where it was', async () => {
    const holder: { fake?: FakeDesktop } = {};
    const tree = actingTree({ onPress: reacts(() => holder.fake!) });
    const fake = (holder.fake = desk(tree));
    const click = new ClickTool(makeServices(fake), 'accessibility');
    const located = await click.locateTarget({ text: 'Save' }, toolContext());
    assert.ok('target' in located!);
    assert.equal(located.target.way, 'accessibility', 'the approval will say the pointer stays');
    assert.deepEqual(tree.checks, [':1.9 /save'], 'asked the toolkit which action would press it, pressing nothing');
    assert.deepEqual(tree.presses, []);
    const result = await runTool(click, { text: 'Save' }, { ...toolContext(), target: located.target, way: 'accessibility' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(tree.presses, [':1.9 /save']);
    assert.deepEqual(fake.input.calls, [], 'no pointer input');
    assert.deepEqual(await fake.input.position(), { x: 5, y: 590 });
    assert.match(result.observation, /^Pressed "Save" through its accessibility action "click" \(the pointer did not move\), found through/);
    assert.deepEqual((result.data as { via?: string; changed?: boolean; seen?: string }).changed, true);
    assert.equal((result.data as { seen?: string }).seen, 'screen');
  });

  it('uses the pointer where the tree cannot press: a label with no handle, an action the toolkit does not offer, a click that is not a plain left click', async () => {
    const fake = desk(actingTree());
    const click = new ClickTool(makeServices(fake), 'accessibility');
    const open = await click.locateTarget({ text: 'Open' }, toolContext());
    assert.equal('target' in open! && open.target.way, 'pointer');
    const right = await click.locateTarget({ text: 'Save', button: 'right' }, toolContext());
    assert.equal('target' in right! && right.target.way, 'pointer');
    const double = await click.locateTarget({ text: 'Save', clicks: 2 }, toolContext());
    assert.equal('target' in double! && double.target.way, 'pointer');

    const refusing = desk(actingTree({ refuseCheck: 'none of its actions presses it (focus)' }));
    const located = await new ClickTool(makeServices(refusing), 'accessibility').locateTarget({ text: 'Save' }, toolContext());
    assert.equal('target' in located! && located.target.way, 'pointer');
    const result = await runTool(new ClickTool(makeServices(refusing), 'accessibility'), { text: 'Save' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(refusing.input.calls, [{ type: 'click', at: { x: 120, y: 50 }, button: 'left', double: false }]);
  });

  it('the pointer by default and with via: "pointer"; via: "accessibility" presses whatever the choice', async () => {
    const fake = desk(actingTree());
    const byDefault = await new ClickTool(makeServices(fake)).locateTarget({ text: 'Save' }, toolContext());
    assert.equal('target' in byDefault! && byDefault.target.way, 'pointer');
    const asked = await new ClickTool(makeServices(fake), 'accessibility').locateTarget({ text: 'Save', via: 'pointer' }, toolContext());
    assert.equal('target' in asked! && asked.target.way, 'pointer');
    const pressed = await new ClickTool(makeServices(fake), 'pointer').locateTarget({ text: 'Save', via: 'accessibility' }, toolContext());
    assert.equal('target' in pressed! && pressed.target.way, 'accessibility');
    // What the tree gives no handle: with via, refused before any approval.
    const refused = await new ClickTool(makeServices(fake)).locateTarget({ text: 'Open', via: 'accessibility' }, toolContext());
    assert.ok(refused && 'failure' in refused);
    assert.match(refused.failure.error ?? '', /Cannot press "Open" without the pointer: its accessibility element gives no handle to act on; nothing was clicked/);
  });

  it('acts the way the approval named, even when the choice would now say otherwise', async () => {
    const fake = desk(actingTree());
    const result = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, { ...toolContext(), way: 'pointer' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 120, y: 50 }, button: 'left', double: false }]);
  });

  describe('a press that shows no effect', () => {
    it('falls back to the pointer once the pointer is approved, and says so', async () => {
      const tree = actingTree();
      const fake = desk(tree);
      const asked: ActionTarget[] = [];
      const started = performance.now();
      const result = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, {
        ...toolContext(),
        way: 'accessibility',
        pointerFallback: (target) => {
          asked.push(target);
          return Promise.resolve(undefined);
        },
      });
      assert.equal(result.success, true, result.error);
      assert.ok(performance.now() - started >= 550, 'the app had its time to react first');
      assert.deepEqual(tree.presses, [':1.9 /save'], 'pressed once through the tree');
      assert.equal(asked.length, 1);
      assert.deepEqual(asked[0]!.points, [{ x: 120, y: 50 }]);
      assert.deepEqual(asked[0]!.element, { box: SAVE_BOX, text: 'Save' });
      assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 120, y: 50 }, button: 'left', double: false }]);
      assert.match(result.observation, /^Clicked "Save" at \(120, 50\) with the pointer, after its accessibility press changed nothing/);
      assert.deepEqual((result.data as { pressAction?: string; changed?: boolean }).pressAction, 'click');
    });

    it('does not use the pointer when it is refused, or when nothing can approve it', async () => {
      const tree = actingTree();
      const fake = desk(tree);
      const denied = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, {
        ...toolContext(),
        way: 'accessibility',
        pointerFallback: () => Promise.resolve(ToolResults.denied('click', 'click {"text":"Save"}')),
      });
      assert.equal(denied.code, 'DENIED');
      assert.match(denied.error ?? '', /The click on "Save" did not take: pressing "Save" through its accessibility action "click" changed nothing, and the pointer was not used \(the pointer was not approved\)/);
      assert.equal((denied.data as { pointerUsed?: boolean }).pointerUsed, false);
      const alone = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, { ...toolContext(), way: 'accessibility' });
      assert.equal(alone.code, 'FAILED');
      assert.match(alone.error ?? '', /did not take.*the pointer was not used \(nothing here can approve a pointer click\)/);
      assert.deepEqual(fake.input.calls, [], 'the pointer never moved');
      assert.equal(tree.presses.length, 2);
    });

    it('a press the toolkit refuses falls back the same way', async () => {
      const fake = desk(actingTree());
      fake.accessibility!.perform = (_ref, action) => (action.dryRun ? Promise.resolve('click') : Promise.reject(new Error('the element is disabled')));
      let asked = 0;
      const result = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, {
        ...toolContext(),
        pointerFallback: () => Promise.resolve(asked++ === 0 ? undefined : ToolResults.failure('FAILED', 'no')),
      });
      assert.equal(result.success, true, result.error);
      assert.match(result.observation, /with the pointer, after pressing it through accessibility failed/);
      assert.equal((result.data as { pressError?: string }).pressError, 'the element is disabled');
      assert.equal(fake.input.calls.length, 1);
    });

    it('with via: "accessibility" never uses the pointer: the answer says nothing visibly changed', async () => {
      const fake = desk(actingTree());
      let asked = 0;
      const result = await runTool(new ClickTool(makeServices(fake)), { text: 'Save', via: 'accessibility' }, {
        ...toolContext(),
        pointerFallback: () => Promise.resolve(void asked++),
      });
      assert.equal(result.success, true, result.error);
      assert.match(result.observation, /\(the pointer did not move\); nothing visibly changed/);
      assert.equal((result.data as { changed?: boolean }).changed, false);
      assert.equal(asked, 0);
      assert.deepEqual(fake.input.calls, []);
    });

    it('a change of the element\'s state, or of the windows, is an effect too', async () => {
      let fake!: FakeDesktop;
      const tree = actingTree({ onPress: () => (tree.states = [...tree.states, 'checked']) });
      fake = desk(tree);
      const context = { ...toolContext(), way: 'accessibility' as const, pointerFallback: () => Promise.resolve(ToolResults.failure('FAILED', 'not asked for')) };
      const byState = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, context);
      assert.equal(byState.success, true, byState.error);
      assert.equal((byState.data as { seen?: string }).seen, 'element');

      const windowed = actingTree({ onPress: () => (fake.windows.active = window('Save As')) });
      fake = desk(windowed);
      const byWindow = await runTool(new ClickTool(makeServices(fake), 'accessibility'), { text: 'Save' }, context);
      assert.equal(byWindow.success, true, byWindow.error);
      assert.equal((byWindow.data as { seen?: string }).seen, 'windows');
      assert.deepEqual(fake.input.calls, []);
    });
  });
});
