import { strict as assert } from 'node:assert';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalDecision, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { ProbeTool } from '../support/probeTools';

function runtime(options: { alwaysAllow?: string[]; answer: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision> }): { runtime: ToolRuntime; asked: string[]; tool: ProbeTool } {
  const registry = new ToolRegistry();
  const tool = new ProbeTool('click', { risk: 'action' });
  registry.register(tool);
  registry.register(new ProbeTool('scroll', { risk: 'action' }));
  const asked: string[] = [];
  const built = new ToolRuntime(registry, {
    ...(options.alwaysAllow ? { alwaysAllow: options.alwaysAllow } : {}),
    requestApproval: (request, signal) => {
      asked.push(request.call.name);
      return options.answer(request, signal);
    },
  });
  return { runtime: built, asked, tool };
}

let id = 0;
const call = (name: string): { id: string; name: string; input: unknown } => ({ id: `g${++id}`, name, input: {} });
const never = new AbortController().signal;

describe('ToolRuntime grants: for this conversation, always, revoked, stopped', () => {
  it('"always" is a conversation grant: listed, revoked on request, cleared by resetApprovals', async () => {
    const { runtime: rt, asked } = runtime({ answer: async () => 'always' });
    await rt.execute(call('click'), never);
    await rt.execute(call('click'), never);
    assert.deepEqual(asked, ['click']);
    assert.deepEqual(rt.conversationGrants(), ['click']);
    assert.equal(rt.revokeGrant('click'), true);
    assert.equal(rt.revokeGrant('click'), false);
    assert.deepEqual(rt.conversationGrants(), []);
    await rt.execute(call('click'), never);
    assert.deepEqual(asked, ['click', 'click']);
  });

  it('tools of the alwaysAllow setting never ask, and survive a new conversation', async () => {
    const { runtime: rt, asked } = runtime({ alwaysAllow: ['scroll'], answer: async () => 'approve' });
    rt.resetApprovals();
    const result = await rt.execute(call('scroll'), never);
    assert.equal(result.success, true);
    await rt.execute(call('click'), never);
    assert.deepEqual(asked, ['click']);
    assert.deepEqual(rt.conversationGrants(), []);
  });

  it('a stop while the approval is open is a cancel, not a denial, and the tool does not run', async () => {
    const stop = new AbortController();
    // The host denies what is pending when the person stops (ChatSession.denyPending).
    const { runtime: rt, tool } = runtime({
      answer: () => new Promise<ApprovalDecision>((resolve) => stop.signal.addEventListener('abort', () => resolve('deny'), { once: true })),
    });
    const pending = rt.execute(call('click'), stop.signal);
    setTimeout(() => stop.abort(), 5);
    const result = await pending;
    assert.equal(result.success, false);
    assert.equal(result.code, 'CANCELLED');
    assert.doesNotMatch(result.observation, /denied/i);
    assert.equal(tool.calls, 0);
  });
});
