// Where an action lands decides the app permission (issue 18): the runtime locates a
// TargetingTool's target before approval, the approval and the guard name that window's app,
// and GuardedInput refuses input a guarded call sends to a window not allowed.
import { strict as assert } from 'node:assert';
import { Type, type Static } from '@sinclair/typebox';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import type { ClickCount, InputPort, KeyCombo, MouseButton, Point } from '../../src/desktop/ports/inputPort';
import { GuardedInput, InputPermissionScope, type InputPermission } from '../../src/desktop/input/guardedInput';
import { InputRefusedError } from '../../src/desktop/input/watchedInput';
import { AppPermissionGuard, type AppPermissionRequest } from '../../src/safety/appPermissions';
import { MemoryAppPermissionStore } from '../../src/safety/appPermissionStore';
import { pointerTarget, type Located, type TargetingTool } from '../../src/tools/actionTarget';
import { describeAction } from '../../src/tools/actionDescription';
import { toolInput } from '../../src/common/schema';
import { ToolBase, type ToolContext } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import type { ToolResult } from '../../src/tools/toolTypes';
import { ToolRuntime, type ApprovalRequest } from '../../src/runtime/toolRuntime';

const CALC: WindowInfo = { id: '0x1', appName: 'galculator', title: 'Calculator', bounds: { x: 0, y: 0, width: 400, height: 400 } };
const TERM: WindowInfo = { id: '0x2', appName: 'XTerm', title: 'bash', bounds: { x: 500, y: 0, width: 400, height: 400 } };
const PAGE: WindowInfo = { id: '0x3', appName: 'chromium', title: 'Members', bounds: { x: 0, y: 0, width: 1000, height: 800 } };

/** Topmost first: galculator and the terminal over a browser filling the screen. */
class StubWindows implements WindowPort {
  active: WindowInfo | undefined = CALC;
  stack: WindowInfo[] = [CALC, TERM, PAGE];
  lookups = 0;
  activeWindow(): Promise<WindowInfo | undefined> {
    this.lookups++;
    return Promise.resolve(this.active);
  }
  listWindows(): Promise<WindowInfo[]> {
    this.lookups++;
    return Promise.resolve(this.stack);
  }
}

/** Records what reached the "platform". */
class RecordingInput implements InputPort {
  sent: string[] = [];
  pointer: Point = { x: 10, y: 10 };
  move(to: Point): Promise<void> {
    this.pointer = to;
    return this.record(`move ${to.x},${to.y}`);
  }
  position(): Promise<Point> {
    return Promise.resolve(this.pointer);
  }
  click(at: Point, _button: MouseButton, _count: ClickCount): Promise<void> {
    this.pointer = at;
    return this.record(`click ${at.x},${at.y}`);
  }
  drag(from: Point, to: Point): Promise<void> {
    return this.record(`drag ${from.x},${from.y} ${to.x},${to.y}`);
  }
  dragAlong(path: readonly Point[]): Promise<void> {
    return this.record(`drag ${path.map((p) => `${p.x},${p.y}`).join(' ')}`);
  }
  mouseDown(): Promise<void> {
    return this.record('down');
  }
  mouseUp(): Promise<void> {
    return this.record('up');
  }
  scroll(): Promise<void> {
    return this.record('scroll');
  }
  typeText(text: string): Promise<void> {
    return this.record(`type ${text}`);
  }
  pressKey(combo: KeyCombo): Promise<void> {
    return this.record(`key ${combo.key}`);
  }
  holdKey(combo: KeyCombo): Promise<void> {
    return this.record(`hold ${combo.key}`);
  }
  isKnownKey(): boolean {
    return true;
  }
  private record(what: string): Promise<void> {
    this.sent.push(what);
    return Promise.resolve();
  }
}

/** Allows only galculator; says which windows it was asked about. */
function onlyCalculator(judged: string[]): InputPermission {
  return {
    refusal: (window, way) => {
      judged.push(`${way}:${window?.appName ?? 'none'}`);
      return Promise.resolve(window?.appName === 'galculator' ? undefined : `not ${window?.appName ?? 'the desktop'}`);
    },
  };
}

describe('GuardedInput: input judged by the window it reaches', () => {
  let windows: StubWindows;
  let inner: RecordingInput;
  let scope: InputPermissionScope;
  let input: GuardedInput;
  beforeEach(() => {
    windows = new StubWindows();
    inner = new RecordingInput();
    scope = new InputPermissionScope();
    input = new GuardedInput(inner, windows, scope);
  });

  it('outside a guarded call (the person\'s own command) input goes through without a lookup', async () => {
    await input.click({ x: 600, y: 50 }, 'left', 1);
    await input.typeText('ls', 0);
    assert.deepEqual(inner.sent, ['click 600,50', 'type ls']);
    assert.equal(windows.lookups, 0);
  });

  it('a click on the terminal beside the active, allowed galculator is refused; one on galculator goes', async () => {
    const judged: string[] = [];
    await scope.run(onlyCalculator(judged), async () => {
      await assert.rejects(input.click({ x: 600, y: 50 }, 'left', 1), (error: unknown) => error instanceof InputRefusedError && /not XTerm/.test(error.message));
      await assert.rejects(input.click({ x: 700, y: 600 }, 'left', 2), /not chromium/, 'the browser behind both');
      await input.click({ x: 50, y: 50 }, 'left', 1);
    });
    assert.deepEqual(inner.sent, ['click 50,50']);
    assert.deepEqual(judged, ['pointer:XTerm', 'pointer:chromium', 'pointer:galculator']);
  });

  it('a drag is judged at every point, a scroll and a press where the pointer is, keys by the focused window; a release always goes', async () => {
    await scope.run(onlyCalculator([]), async () => {
      await assert.rejects(input.dragAlong([{ x: 50, y: 50 }, { x: 600, y: 50 }], 'left'), /not XTerm/);
      inner.pointer = { x: 600, y: 50 };
      await assert.rejects(input.scroll('down', 3), /not XTerm/);
      await assert.rejects(input.mouseDown('left'), /not XTerm/);
      await input.mouseUp('left');
      windows.active = TERM;
      await assert.rejects(input.typeText('rm -rf ~', 0), /not XTerm/);
      await assert.rejects(input.pressKey({ modifiers: [], key: 'enter' }), /not XTerm/);
      windows.active = CALC;
      await input.typeText('7', 0);
    });
    assert.deepEqual(inner.sent, ['up', 'type 7']);
  });

  it('a window lookup that fails refuses the input', async () => {
    windows.listWindows = () => Promise.reject(new Error('X is gone'));
    await scope.run(onlyCalculator([]), async () => {
      await assert.rejects(input.click({ x: 50, y: 50 }, 'left', 1), /could not tell which window the input reaches \(X is gone\)/);
    });
    assert.deepEqual(inner.sent, []);
  });
});

const pointSchema = toolInput({ x: Type.Number(), y: Type.Number() });

/** A click that says where it lands first (like the desktop tools), and one that does not. */
class PointClick extends ToolBase<typeof pointSchema> implements TargetingTool {
  readonly name: string;
  readonly description = 'Clicks a point.';
  readonly inputSchema = pointSchema;
  readonly risk = 'action' as const;
  contexts: ToolContext[] = [];
  constructor(
    private readonly windows: WindowPort,
    private readonly input: InputPort,
    private readonly targeting: boolean,
    name = targeting ? 'click' : 'blind_click',
  ) {
    super();
    this.name = name;
  }
  async locateTarget(input: Static<typeof pointSchema>): Promise<Located | undefined> {
    if (!this.targeting) return undefined;
    if (input.x < 0) return { failure: ToolResults.notFound('nothing there') };
    return pointerTarget(this.windows, [input]);
  }
  async execute(input: Static<typeof pointSchema>, context: ToolContext): Promise<ToolResult> {
    this.contexts.push(context);
    await this.input.click(input, 'left', 1);
    return ToolResults.success('clicked');
  }
}

describe('the runtime locates before approval; the app guard judges where it lands', () => {
  let windows: StubWindows;
  let inner: RecordingInput;
  let scope: InputPermissionScope;
  let click: PointClick;
  let blind: PointClick;
  let counter = 0;

  function runtime(options: { approvals?: ApprovalRequest[]; asked?: AppPermissionRequest[]; allow?: string[] } = {}): ToolRuntime {
    const registry = new ToolRegistry();
    registry.register(click);
    registry.register(blind);
    const guard = new AppPermissionGuard({
      windows,
      store: new MemoryAppPermissionStore(),
      allow: options.allow ?? ['galculator'],
      settingNames: { allow: 'apps.allow', deny: 'apps.deny' },
      inputScope: scope,
      ...(options.asked ? { prompt: (request: AppPermissionRequest) => (options.asked!.push(request), Promise.resolve(undefined)) } : {}),
    });
    const approvals = options.approvals;
    return new ToolRuntime(registry, {
      autoApprove: approvals ? ['read'] : ['read', 'action'],
      ...(approvals ? { requestApproval: (request: ApprovalRequest) => (approvals.push(request), Promise.resolve('approve' as const)) } : {}),
      guards: [guard],
    });
  }

  async function run(on: ToolRuntime, name: string, input: unknown): Promise<ToolResult> {
    return (await on.executeWithRecovery({ id: `t${++counter}`, name, input }, new AbortController().signal)).result;
  }

  beforeEach(() => {
    windows = new StubWindows();
    inner = new RecordingInput();
    scope = new InputPermissionScope();
    const input = new GuardedInput(inner, windows, scope);
    click = new PointClick(windows, input, true);
    blind = new PointClick(windows, input, false);
  });

  it('a click on the terminal while galculator (allowed) is active is DENIED naming the terminal; nothing is sent', async () => {
    const result = await run(runtime(), 'click', { x: 600, y: 50 });
    assert.equal(result.code, 'DENIED');
    assert.match(result.observation, /click did NOT run: GAI may not act in XTerm: terminals are denied by default/);
    assert.equal(click.contexts.length, 0, 'the tool never ran');
    assert.deepEqual(inner.sent, []);
    const inCalculator = await run(runtime(), 'click', { x: 50, y: 50 });
    assert.equal(inCalculator.success, true, JSON.stringify(inCalculator));
    assert.deepEqual(inner.sent, ['click 50,50']);
    assert.deepEqual(click.contexts[0]?.target?.points, [{ x: 50, y: 50 }], 'the tool acts on the located target');
  });

  it('the approval names the app under the point and asks about it in the same question; after a person answered, the tool looks again', async () => {
    const approvals: ApprovalRequest[] = [];
    const asked: AppPermissionRequest[] = [];
    const result = await run(runtime({ approvals, asked, allow: [] }), 'click', { x: 700, y: 600 });
    assert.equal(result.success, true, JSON.stringify(result));
    assert.equal(approvals[0]?.summary, 'click {"x":700,"y":600} in chromium (window "Members")');
    assert.equal(approvals[0]?.target?.windows[0]?.appName, 'chromium');
    assert.deepEqual(approvals[0]?.app, { name: 'chromium', key: 'chromium', undecided: true });
    // "Approve" answered for the app too (this action only): no second question.
    assert.deepEqual(asked, []);
    const approved = await run(runtime({ approvals }), 'click', { x: 50, y: 50 });
    assert.equal(approved.success, true);
    assert.equal(click.contexts.at(-1)?.target, undefined, 'approved after a wait: no stale target');
  });

  it('nothing to act on: the locate failure is the answer, and no one is asked', async () => {
    const approvals: ApprovalRequest[] = [];
    const result = await run(runtime({ approvals }), 'click', { x: -1, y: 0 });
    assert.equal(result.code, 'NOT_FOUND');
    assert.deepEqual(approvals, []);
  });

  it('a tool that cannot say where it acts is judged by the active window, then stopped at the input port (DENIED naming where it reached)', async () => {
    const result = await run(runtime(), 'blind_click', { x: 600, y: 50 });
    assert.equal(result.code, 'DENIED', JSON.stringify(result));
    assert.match(result.observation, /blind_click did NOT run: GAI may not act in XTerm/);
    assert.deepEqual(inner.sent, []);
    const allowed = await run(runtime({ allow: ['galculator', 'chromium'] }), 'blind_click', { x: 700, y: 600 });
    assert.equal(allowed.success, true, 'an app allowed by the settings is allowed at the port too');
    assert.deepEqual(inner.sent, ['click 700,600']);
  });
});

describe('describeAction names the app of the target window', () => {
  it('app first, then the window title', () => {
    assert.equal(describeAction({ name: 'click', input: { text: '7' } }, { appName: 'galculator', windowTitle: 'Calculator' }).text, 'Click **7** in *galculator* window *Calculator*');
    assert.equal(describeAction({ name: 'type_text', input: { text: 'hi' } }, { appName: 'mousepad', windowTitle: 'mousepad', focusedName: 'Editor' }).text, 'Type `hi` into *Editor* of *mousepad*');
  });
});
