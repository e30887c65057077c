// The replay's rules on a desktop whose windows and tree the test sets: found by the element,
// then the text; never an input where the anchor is not, or when another window covers it, or
// when the keys would go to another app.
import * as assert from 'node:assert/strict';
import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import type { ToolInvocation } from '../../src/navigation/routes/pathActions';
import { RoutinePlayer } from '../../src/navigation/routines/routinePlayer';
import type { Routine, RoutineStep } from '../../src/navigation/store/routineTypes';
import { ToolResults } from '../../src/tools/toolResult';
import type { ModelAccess } from '../../src/model/modelAccess';
import { LlmManager } from '../../src/model/llmManager';
import { resolveLlmConfig } from '../../src/model/llmConfig';
import { createModeProviders } from '../../src/model/providers/providerFactory';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply } from '../support/scriptedSteps';
import { createFakeDesktop, FakeWindows, makeServices, ocrWords } from '../support/fakeDesktop';

const editor: WindowInfo = { title: 'notes.txt - Mousepad', appName: 'Mousepad', bounds: { x: 100, y: 100, width: 600, height: 400 }, id: '0x1' };
const other: WindowInfo = { title: 'Terminal', appName: 'XTerm', bounds: { x: 500, y: 100, width: 300, height: 200 }, id: '0x2' };

class StackedWindows extends FakeWindows {
  /** Open override-redirect windows (menus, completion lists); Escape closes the first, as in GTK. */
  popups: WindowInfo[] = [];

  constructor(public stack: WindowInfo[]) {
    super(stack[0]);
  }

  async listWindows(): Promise<WindowInfo[]> {
    return this.stack;
  }

  async listPopups(): Promise<WindowInfo[]> {
    return this.popups;
  }
}

function tree(elements: Array<Partial<AccessibleElement> & Pick<AccessibleElement, 'name' | 'role' | 'bbox'>>): AccessibilityPort {
  return {
    name: 'test tree',
    available: () => Promise.resolve(true),
    elements: () => Promise.resolve(elements.map((e) => ({ states: [], ...e }))),
  };
}

function routine(steps: RoutineStep[], extra: Partial<Routine> = {}): Routine {
  const at = '2026-11-28T10:00:00.000Z';
  return { id: 'r', name: 'R', parameters: [], steps, origin: 'recorded', runs: { successes: 0, failures: 0 }, proposals: [], createdAt: at, updatedAt: at, revision: 1, ...extra };
}

const clickStep = (name: string, label = name): RoutineStep => ({
  id: `s-${name}`,
  kind: 'click',
  button: 'left',
  anchors: { window: { app: 'Mousepad', title: 'notes.txt - Mousepad' }, element: { role: 'push button', name, ancestors: [] }, label, landmarks: [], offset: { x: 0.5, y: 0.5 } },
});

function setUp(stack: WindowInfo[], elements: Parameters<typeof tree>[0], words: Parameters<typeof ocrWords>[0] = [], models?: ModelAccess) {
  const fake = createFakeDesktop({ width: 1000, height: 700, analysis: ocrWords(words) });
  const windows = new StackedWindows(stack);
  const desktop = { ...fake, windows, accessibility: tree(elements) };
  const services = makeServices(desktop as typeof fake);
  const calls: ToolInvocation[] = [];
  const approvals: string[] = [];
  const player = new RoutinePlayer({
    services,
    settleTimeoutMs: 50,
    ...(models ? { models } : {}),
    windowWaitMs: 300,
    callTool: (call, _signal, options) => {
      calls.push(call);
      if (call.name === 'press_key' && call.input.key === 'Escape') windows.popups.shift();
      approvals.push(options?.approval ?? 'default');
      return Promise.resolve(ToolResults.success(`${call.name} done`));
    },
  });
  return { player, calls, windows, approvals };
}

describe('routine player', function () {
  this.timeout(20_000);

  it('clicks the element by its role and name where it is now, with no model', async function () {
    const { player, calls } = setUp([editor], [{ name: 'Replace All', role: 'push button', bbox: { x: 300, y: 400, width: 80, height: 24 }, app: 'mousepad' }]);
    const report = await player.run(routine([clickStep('Replace All')]), {});
    assert.equal(report.ok, true, report.reason);
    assert.equal(report.modelCalls, 0);
    assert.deepEqual(calls, [{ name: 'click', input: { x: 340, y: 412 } }]);
    assert.equal(report.steps[0]!.via, 'element');
  });

  it('falls back to the visible text when the tree has no such element', async function () {
    const { player, calls } = setUp([editor], [], [{ text: 'Replace', x: 300, y: 300, w: 60, h: 14 }]);
    const report = await player.run(routine([clickStep('Replace')]), {});
    assert.equal(report.ok, true, report.reason);
    assert.equal(report.steps[0]!.via, 'text');
    assert.equal(calls[0]?.name, 'click');
  });

  it('stops without any input when the anchor is nowhere, and skips an optional step instead', async function () {
    const { player, calls } = setUp([editor], [], []);
    const report = await player.run(routine([clickStep('Gone')]), {});
    assert.equal(report.ok, false);
    assert.match(report.reason ?? '', /step 1 \(click "Gone".*\): Not done: no push button "Gone" in the tree of "Mousepad"; the text "Gone" is not on the screen\./);
    assert.deepEqual(calls, []);
    const optional = await player.run(routine([{ ...clickStep('Gone'), optional: true }]), {});
    assert.equal(optional.ok, true);
    assert.equal(optional.steps[0]!.skipped, true);
  });

  it('asks a configured vision model (real SDK over HTTP) when no anchor finds it: its click asks first and its way is only proposed', async function () {
    const server = await ScriptedMessagesServer.start([textReply('{"found": true, "x": 340, "y": 412}'), textReply('{"found": true, "x": 650, "y": 150}')]);
    try {
      const models = new LlmManager(createModeProviders(resolveLlmConfig({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'test' }, {})), { system: 'test' });
      const { player, calls, approvals } = setUp([other, editor], [], [], models);
      const proposals: Array<{ stepId: string; by: string }> = [];
      const report = await player.run(routine([clickStep('Replace All')]), {}, { onProposal: (stepId, _step, _reason, by) => proposals.push({ stepId, by }) });
      assert.equal(report.ok, true, report.reason);
      assert.equal(report.modelCalls, 1);
      assert.deepEqual([calls, approvals, report.steps[0]!.via], [[{ name: 'click', input: { x: 340, y: 412 } }], ['required'], 'model']);
      assert.deepEqual(proposals, [{ stepId: 's-Replace All', by: 'model' }]);
      // The model's second answer points into the terminal over the editor: nothing is clicked.
      const covered = await player.run(routine([clickStep('Replace All')]), {});
      assert.equal(covered.ok, false);
      assert.match(covered.reason ?? '', /covered by "Terminal" \(found by the model in "Mousepad"\)/);
      assert.equal(calls.length, 1);
      const prompt = JSON.stringify(server.requests[0]?.body);
      assert.match(prompt, /push button named \\"Replace All\\"/);
    } finally {
      await server.close();
    }
  });

  it('does not take a check box labelled "Replace all in:" for the button "Replace All", and leaves a check box already as the recording left it', async function () {
    const box = { name: 'Replace all in:', role: 'check box', bbox: { x: 300, y: 300, width: 120, height: 20 }, app: 'mousepad', states: ['checked'] };
    const { player, calls } = setUp([editor], [box], [{ text: 'Replace', x: 320, y: 303, w: 60, h: 14 }, { text: 'all', x: 384, y: 303, w: 20, h: 14 }, { text: 'in:', x: 408, y: 303, w: 20, h: 14 }]);
    const button = await player.run(routine([clickStep('Replace All')]), {});
    assert.equal(button.ok, false);
    assert.deepEqual(calls, []);
    const toggled: RoutineStep = { ...clickStep('Replace all in:'), anchors: { ...clickStep('Replace all in:').anchors, element: { role: 'check box', name: 'Replace all in:', ancestors: [], checked: false } } };
    const left = await player.run(routine([toggled]), {});
    assert.equal(left.ok, true, left.reason);
    assert.match(left.steps[0]!.observation, /already checked, as the recorded click left it; not clicked/);
    assert.deepEqual(calls, []);
    const again = await player.run(routine([{ ...toggled, anchors: { ...toggled.anchors, element: { ...toggled.anchors.element!, checked: true } } }]), {});
    assert.equal(again.ok, true, again.reason);
    assert.deepEqual(calls, [{ name: 'click', input: { x: 360, y: 310 } }]);
  });

  it('does not click a target another window covers', async function () {
    const { player, calls } = setUp([other, editor], [{ name: 'Save', role: 'push button', bbox: { x: 600, y: 150, width: 60, height: 24 }, app: 'mousepad' }]);
    const report = await player.run(routine([clickStep('Save')]), {});
    assert.equal(report.ok, false);
    assert.match(report.reason ?? '', /covered by "Terminal"/);
    assert.deepEqual(calls, []);
  });

  it('stops when no window of the app is open, and types parameters only into the recorded app', async function () {
    const { player, calls, windows } = setUp([other], []);
    const noApp = await player.run(routine([clickStep('Save')]), {});
    assert.match(noApp.reason ?? '', /no window of "Mousepad" is open/);
    const typing = routine([{ id: 't', kind: 'type', text: 'Hello {who}', anchors: { window: { app: 'Mousepad', title: '' }, landmarks: [] } }], { parameters: [{ name: 'who', default: 'Ada' }] });
    windows.stack = [other, editor];
    windows.active = other;
    const wrongFocus = await player.run(typing, { who: 'Zoë' });
    assert.match(wrongFocus.reason ?? '', /the keys would go to "Terminal", not to "Mousepad"/);
    assert.deepEqual(calls, []);
    windows.active = editor;
    const typed = await player.run(typing, { who: 'Zoë' });
    assert.equal(typed.ok, true, typed.reason);
    assert.deepEqual(calls, [{ name: 'type_text', input: { text: 'Hello Zoë' } }]);
    // Typed into a dialog when recorded: not into the app's main window when the dialog did not open.
    const intoDialog = routine([{ id: 't', kind: 'type', text: 'fish', anchors: { window: { app: 'Mousepad', title: 'Find and Replace', dialog: true }, landmarks: [] } }]);
    const noDialog = await player.run(intoDialog, {});
    assert.match(noDialog.reason ?? '', /the keys would go to "notes.txt - Mousepad", not to the dialog "Find and Replace" of "Mousepad"/);
    assert.equal(calls.length, 1);
    windows.active = { ...editor, title: 'Find and Replace', id: '0x3' };
    assert.equal((await player.run(intoDialog, {})).ok, true);
    assert.deepEqual(calls[1], { name: 'type_text', input: { text: 'fish' } });
  });

  it("closes a popup of the app left open with Escape before a click it would take, clicks in a popup only a step recorded in one, and leaves another app's popup alone", async function () {
    const save = { name: 'Save', role: 'push button', bbox: { x: 600, y: 450, width: 60, height: 24 }, app: 'mousepad' };
    const completion: WindowInfo = { title: '', appName: 'Mousepad', type: 'combo', bounds: { x: 150, y: 200, width: 500, height: 50 }, id: '0x9' };
    const { player, calls, windows } = setUp([editor], [save]);
    // GTK's completion list under the name field: a click on Save would only close it.
    windows.popups = [completion];
    const elsewhere = await player.run(routine([clickStep('Save')]), {});
    assert.equal(elsewhere.ok, true, elsewhere.reason);
    assert.deepEqual(calls, [{ name: 'press_key', input: { key: 'Escape' } }, { name: 'click', input: { x: 630, y: 462 } }]);
    assert.match(elsewhere.steps[0]!.observation, /popup of the app closed with Escape first/);
    // A menu over the target (the step was not in one) is closed too.
    calls.length = 0;
    windows.popups = [{ ...completion, type: 'popup_menu', bounds: { x: 580, y: 400, width: 200, height: 120 } }];
    assert.equal((await player.run(routine([clickStep('Save')]), {})).ok, true);
    assert.deepEqual(calls.map((c) => c.name), ['press_key', 'click']);
    // A step recorded in a menu is clicked there; a tooltip takes no click and stays.
    calls.length = 0;
    const inMenu = clickStep('Save');
    windows.popups = [{ ...completion, type: 'popup_menu', bounds: { x: 580, y: 400, width: 200, height: 120 } }, { ...completion, type: 'tooltip', id: '0x10' }];
    const menuStep = { ...inMenu, anchors: { ...inMenu.anchors, window: { app: 'Mousepad', title: '', popup: true as const } } };
    assert.equal((await player.run(routine([menuStep]), {})).ok, true);
    assert.deepEqual(calls, [{ name: 'click', input: { x: 630, y: 462 } }]);
    // Another app's menu open elsewhere: no Escape into it, no click, the reason.
    calls.length = 0;
    windows.popups = [{ ...completion, appName: 'XTerm', type: 'popup_menu' }];
    const foreign = await player.run(routine([clickStep('Save')]), {});
    assert.equal(foreign.ok, false);
    assert.match(foreign.reason ?? '', /an open popup of "XTerm" \(popup menu\) would take the click.*belongs to "XTerm", not to "Mousepad", so it is left alone/);
    assert.deepEqual(calls, []);
  });

  it('places an unnamed field by its two landmarks under a 1.25 larger font, scaled by the words\' width (an OCR box\'s height is noisy), the nearer one deciding', async function () {
    const field = (y: number) => ({ name: '', role: 'text', bbox: { x: 360, y, width: 300, height: 30 }, app: 'mousepad' });
    const words = [
      // "Replace with:" read 25 px high (it was 14): its height would scale 1.8 times.
      { text: 'Replace', x: 230, y: 280, w: 65, h: 25 },
      { text: 'with:', x: 300, y: 280, w: 42, h: 25 },
      { text: 'Wrap', x: 400, y: 340, w: 42, h: 17 },
      { text: 'around', x: 447, y: 340, w: 63, h: 17 },
    ];
    const { player, calls } = setUp([editor], [field(230), field(285)], words);
    const step: RoutineStep = {
      id: 'f',
      kind: 'click',
      button: 'left',
      anchors: {
        window: { app: 'Mousepad', title: 'Find and Replace' },
        element: { role: 'text', name: '', ancestors: [] },
        landmarks: [
          { text: 'Replace with:', dx: 175, dy: 0, height: 14, width: 90 },
          { text: 'Wrap around', dx: 34, dy: -40, height: 14, width: 88 },
        ],
      },
    };
    const report = await player.run(routine([step]), {});
    assert.equal(report.ok, true, report.reason);
    assert.equal(report.steps[0]!.via, 'landmarks');
    assert.deepEqual(calls, [{ name: 'click', input: { x: 498, y: 299 } }]);
  });
});
