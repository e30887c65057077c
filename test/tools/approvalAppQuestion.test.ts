// One question for an action and the app it lands in (issue 21): the approval names the app under
// the target and carries the person's answer about it to the app guard, which then asks nothing
// more; "this app for the conversation" also approves that conversation's later actions there.
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { terminalApproval } from '../../src/cli/terminalApproval';
import { Type, type Static } from '@sinclair/typebox';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import { AppPermissionGuard, type AppPermissionRequest } from '../../src/safety/appPermissions';
import { MemoryAppPermissionStore } from '../../src/safety/appPermissionStore';
import { pointerTarget, type Located, type TargetingTool } from '../../src/tools/actionTarget';
import { toolInput } from '../../src/common/schema';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import type { RiskLevel, ToolResult } from '../../src/tools/toolTypes';
import { ToolRuntime, type ApprovalDecision, type ApprovalRequest } from '../../src/runtime/toolRuntime';

const CALC: WindowInfo = { id: '0x1', appName: 'galculator', title: 'Calculator', bounds: { x: 0, y: 0, width: 400, height: 400 } };
const EDIT: WindowInfo = { id: '0x2', appName: 'Mousepad', title: 'notes', bounds: { x: 500, y: 0, width: 400, height: 400 } };
const TERM: WindowInfo = { id: '0x3', appName: 'XTerm', title: 'bash', bounds: { x: 0, y: 500, width: 400, height: 400 } };

class Windows implements WindowPort {
  activeWindow(): Promise<WindowInfo | undefined> {
    return Promise.resolve(CALC);
  }
  listWindows(): Promise<WindowInfo[]> {
    return Promise.resolve([CALC, EDIT, TERM]);
  }
}

const pointSchema = toolInput({ x: Type.Number(), y: Type.Number() });

/** A tool at a point that says where it lands first, as the desktop tools do. */
class PointTool extends ToolBase<typeof pointSchema> implements TargetingTool {
  readonly description = 'Acts at a point.';
  readonly inputSchema = pointSchema;
  ran = 0;
  constructor(
    readonly name: string,
    readonly risk: RiskLevel,
  ) {
    super();
  }
  locateTarget(input: Static<typeof pointSchema>): Promise<Located> {
    return pointerTarget(new Windows(), [input]);
  }
  execute(): Promise<ToolResult> {
    this.ran++;
    return Promise.resolve(ToolResults.success('done'));
  }
}

describe('the approval asks about the app it lands in (one question)', () => {
  let approvals: ApprovalRequest[];
  let answers: ApprovalDecision[];
  let asked: AppPermissionRequest[];
  let store: MemoryAppPermissionStore;
  let guard: AppPermissionGuard;
  let runtime: ToolRuntime;
  let click: PointTool;
  let close: PointTool;
  let counter = 0;

  beforeEach(() => {
    approvals = [];
    answers = [];
    asked = [];
    store = new MemoryAppPermissionStore();
    click = new PointTool('click', 'action');
    close = new PointTool('close_window', 'system');
    const registry = new ToolRegistry();
    registry.register(click);
    registry.register(close);
    guard = new AppPermissionGuard({
      windows: new Windows(),
      store,
      settingNames: { allow: 'apps.allow', deny: 'apps.deny' },
      prompt: (request) => {
        asked.push(request);
        return Promise.resolve('once');
      },
    });
    runtime = new ToolRuntime(registry, {
      autoApprove: ['read'],
      guards: [guard],
      requestApproval: (request) => {
        approvals.push(request);
        return Promise.resolve(answers.shift() ?? 'deny');
      },
    });
  });

  const run = (name: string, x: number, y: number): Promise<ToolResult> => runtime.execute({ id: `c${++counter}`, name, input: { x, y } }, new AbortController().signal);

  it('"Allow once": the approval names the app under the point, undecided; the guard asks nothing; the next action asks again', async () => {
    answers = ['approve', 'deny'];
    assert.equal((await run('click', 600, 50)).success, true);
    assert.deepEqual(approvals[0]?.app, { name: 'Mousepad', key: 'mousepad', undecided: true });
    assert.equal(asked.length, 0, 'a second question about the app followed the approval');
    const second = await run('click', 600, 50);
    assert.equal(second.code, 'DENIED');
    assert.deepEqual(approvals[1]?.app, { name: 'Mousepad', key: 'mousepad', undecided: true });
    assert.equal(click.ran, 1);
  });

  it('"Allow in the app for this conversation": later actions there ask nobody; elsewhere, system calls and after revoking they ask', async () => {
    answers = ['app-conversation'];
    assert.equal((await run('click', 50, 50)).success, true);
    assert.deepEqual(runtime.conversationApps(), [{ key: 'galculator', name: 'galculator', undecided: false }]);
    assert.equal((await run('click', 60, 60)).success, true);
    assert.equal(approvals.length, 1, 'the second click in galculator asked again');
    assert.equal(asked.length, 0);
    // Another app, and a system call in galculator, are still asked about.
    answers = ['deny', 'approve'];
    assert.equal((await run('click', 600, 50)).code, 'DENIED');
    assert.equal(approvals[1]?.app?.name, 'Mousepad');
    assert.equal((await run('close_window', 50, 50)).success, true);
    assert.deepEqual(approvals[2]?.app, { name: 'galculator', key: 'galculator', undecided: false });
    assert.equal(approvals.length, 3);
    // Revoked: asked again, and the app is undecided again.
    assert.equal(runtime.revokeApp('galculator'), true);
    answers = ['approve'];
    await run('click', 50, 50);
    assert.deepEqual(approvals[3]?.app, { name: 'galculator', key: 'galculator', undecided: true });
    assert.deepEqual(runtime.conversationApps(), []);
  });

  it('"Always allow in the app" is kept in the store; a new conversation asks about the action only', async () => {
    answers = ['app-always'];
    assert.equal((await run('click', 50, 50)).success, true);
    assert.equal(await store.get('galculator'), 'always');
    guard.reset();
    answers = ['approve'];
    assert.equal((await run('click', 50, 50)).success, true);
    assert.deepEqual(approvals[1]?.app, { name: 'galculator', key: 'galculator', undecided: false });
    assert.equal(asked.length, 0);
  });

  it('an app refused anyway is not offered (a terminal); an app answer on a card that named none grants nothing', async () => {
    answers = ['approve'];
    const terminal = await run('click', 50, 600);
    assert.equal(approvals[0]?.app, undefined);
    assert.equal(terminal.code, 'DENIED');
    assert.match(terminal.observation, /terminals/i);
    // A handler answering about an app the request did not name (a stale or forged answer).
    const bare = new ToolRuntime(new ToolRegistry(), { autoApprove: ['read'] });
    bare.registry.register(new PointTool('click', 'action'));
    bare.requestApproval = () => Promise.resolve('app-always');
    assert.equal((await bare.execute({ id: 'x1', name: 'click', input: { x: 50, y: 50 } }, new AbortController().signal)).success, true);
    assert.equal(await store.get('galculator'), undefined);
  });

  it("the CLI's terminal asks the same one question: y once, s the app for this session, p permanently (only while undecided)", async () => {
    const ask = async (undecided: boolean, typed: string): Promise<{ decision: ApprovalDecision; printed: string }> => {
      const input = new PassThrough();
      const output = new PassThrough();
      let printed = '';
      output.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
      const request: ApprovalRequest = { call: { id: 't1', name: 'click', input: { text: '7' } }, risk: 'action', summary: 'click {"text":"7"} in galculator (window "Calculator")', app: { name: 'galculator', key: 'galculator', undecided } };
      const answer = terminalApproval(input, output)(request, new AbortController().signal);
      setImmediate(() => input.write(`${typed}\n`));
      return { decision: await answer, printed };
    };
    const first = await ask(true, 's');
    assert.equal(first.decision, 'app-conversation');
    assert.match(first.printed, /\[y\]es \/ \[N\]o \/ \[a\]lways \/ \[s\] galculator for this session \/ \[p\]ermanently in galculator: $/);
    assert.equal((await ask(true, 'p')).decision, 'app-always');
    assert.equal((await ask(true, 'y')).decision, 'approve');
    const decided = await ask(false, 'p');
    assert.equal(decided.decision, 'deny', 'not offered once the app is decided');
    assert.doesNotMatch(decided.printed, /permanently/);
  });
});

