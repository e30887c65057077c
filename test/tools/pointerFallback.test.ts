// The approval of "accessibility first" (gai.input): the question says which way GAI will act,
// and a pointer click after a press that showed no effect is approved under the pointer's own
// rules: never under an answer to a question that said the pointer stays.
import { strict as assert } from 'node:assert';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { ToolRuntime, type ApprovalDecision, type ApprovalRequest, type ToolRuntimeOptions } from '../../src/runtime/toolRuntime';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import type { InputChoice } from '../../src/tools/inputChoice';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import type { ToolResult } from '../../src/tools/toolTypes';
import { createFakeDesktop, makeServices, ocrWords, window, type FakeDesktop } from '../support/fakeDesktop';

/** A desktop whose "OK" button is in the tree with a handle; `reacts`: a press shows on the screen. */
function okDesktop(reacts: boolean): FakeDesktop & { presses: number } {
  const fake = Object.assign(createFakeDesktop({ window: window('Calculator'), analysis: ocrWords([{ text: 'OK', x: 100, y: 40, w: 30, h: 20 }]) }), { presses: 0 });
  fake.screen.paint({ x: 100, y: 40, width: 30, height: 20 });
  const ok: AccessibleElement = { name: 'OK', role: 'push button', bbox: { x: 95, y: 35, width: 40, height: 30 }, states: ['enabled'], ref: ':1.2 /ok' };
  fake.accessibility = {
    name: 'fake-tree',
    available: () => Promise.resolve(true),
    elements: () => Promise.resolve([ok]),
    perform: (_ref, action) => {
      if (!action.dryRun) {
        fake.presses++;
        if (reacts) fake.screen.paint({ x: 10, y: 500, width: 80, height: 20 }, [0, 0, 200, 255]);
      }
      return Promise.resolve('click');
    },
  };
  return fake;
}

function runtimeOver(fake: FakeDesktop, input: InputChoice, options: ToolRuntimeOptions = {}): ToolRuntime {
  const registry = new ToolRegistry();
  registry.register(new ClickTool(makeServices(fake), input));
  return new ToolRuntime(registry, options);
}

/** An approver that answers in turn and keeps what it was asked. */
function answering(...answers: ApprovalDecision[]): { asked: ApprovalRequest[]; handler: (request: ApprovalRequest) => Promise<ApprovalDecision> } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    handler: (request) => {
      asked.push(request);
      return Promise.resolve(answers[asked.length - 1] ?? 'deny');
    },
  };
}

const click = (id = 'c1'): { id: string; name: string; input: unknown } => ({ id, name: 'click', input: { text: 'OK' } });
const signal = (): AbortSignal => new AbortController().signal;

describe('accessibility first: what the approval says, and the pointer after a press', function () {
  this.timeout(20_000);

  it('the question says the click goes through accessibility and the pointer stays; with the pointer when that is the way', async () => {
    const pressing = answering('approve');
    const fake = okDesktop(true);
    const result = await runtimeOver(fake, 'accessibility', { requestApproval: pressing.handler }).execute(click(), signal());
    assert.equal(result.success, true, result.error);
    assert.match(pressing.asked[0]!.summary, /^click \{"text":"OK"[^}]*\} in calculator \(window "Calculator"\) through accessibility \(the pointer stays\)$/);
    assert.equal(pressing.asked[0]!.target?.way, 'accessibility');
    assert.deepEqual(fake.input.calls, []);

    const pointing = answering('approve');
    const other = okDesktop(true);
    await runtimeOver(other, 'pointer', { requestApproval: pointing.handler }).execute(click(), signal());
    assert.match(pointing.asked[0]!.summary, /^click \{"text":"OK"[^}]*\} in calculator \(window "Calculator"\) with the pointer$/);
    assert.equal(other.presses, 0);
    assert.equal(other.input.calls.length, 1);
  });

  it('a person who approved the press is asked again before the pointer clicks; a no leaves the pointer alone', async () => {
    const fake = okDesktop(false);
    const approver = answering('approve', 'deny');
    const result = await runtimeOver(fake, 'accessibility', { requestApproval: approver.handler }).execute(click(), signal());
    assert.equal(approver.asked.length, 2);
    assert.match(approver.asked[1]!.summary, /^click \{"text":"OK"[^}]*\} in calculator \(window "Calculator"\) with the pointer \(pressing it through accessibility changed nothing\)$/);
    assert.equal(approver.asked[1]!.target?.way, 'pointer-after-press');
    assert.equal(result.code, 'DENIED');
    assert.match(result.observation, /Did NOT take: pressing "OK" through its accessibility action "click" changed nothing; the pointer was not used/);
    assert.equal(fake.presses, 1);
    assert.deepEqual(fake.input.calls, [], 'never clicked with the pointer under an approval that said it stays');
  });

  it('"always" on the press is not a yes to the pointer: the pointer is asked about, and clicks once approved', async () => {
    const fake = okDesktop(false);
    const approver = answering('always', 'approve');
    const runtime = runtimeOver(fake, 'accessibility', { requestApproval: approver.handler });
    const result = await runtime.execute(click(), signal());
    assert.equal(result.success, true, result.error);
    assert.equal(approver.asked.length, 2);
    assert.deepEqual(fake.input.calls, [{ type: 'click', at: { x: 115, y: 50 }, button: 'left', double: false }]);
    assert.match(result.observation, /with the pointer, after its accessibility press changed nothing/);
  });

  it('where the rules let the press run unasked (auto-approved actions, a person\'s own command), the pointer follows them: nobody is asked', async () => {
    const fake = okDesktop(false);
    const approver = answering();
    const result = await runtimeOver(fake, 'accessibility', { requestApproval: approver.handler, autoApprove: ['read', 'action'] }).execute(click(), signal());
    assert.equal(result.success, true, result.error);
    assert.equal(approver.asked.length, 0);
    assert.equal(fake.input.calls.length, 1);
  });

  it('a replayed step the person trusts runs unasked, and so does its pointer', async () => {
    const fake = okDesktop(false);
    const runtime = runtimeOver(fake, 'accessibility', { autoApprove: ['read'] });
    const result = await runtime.execute(click(), signal(), {}, { approval: 'skip' });
    assert.equal(result.success, true, result.error);
    assert.equal(fake.input.calls.length, 1);
  });

  it('the time a person takes to answer about the pointer does not count against the click\'s timeout', async () => {
    const fake = okDesktop(false);
    let asked = 0;
    const slow = (): Promise<ApprovalDecision> => new Promise((resolve) => setTimeout(() => resolve('approve'), asked++ === 0 ? 0 : 1_200));
    const runtime = runtimeOver(fake, 'accessibility', { requestApproval: slow, timeouts: { click: 1_000 } });
    const result: ToolResult = await runtime.execute(click(), signal());
    assert.equal(result.success, true, result.error);
    assert.equal(asked, 2);
    assert.equal(fake.input.calls.length, 1);
  });

  it('a press that took asks nothing more', async () => {
    const fake = okDesktop(true);
    const approver = answering('approve');
    const result = await runtimeOver(fake, 'accessibility', { requestApproval: approver.handler }).execute(click(), signal());
    assert.equal(result.success, true, result.error);
    assert.equal(approver.asked.length, 1);
    assert.deepEqual(fake.input.calls, []);
  });
});
