import { strict as assert } from 'node:assert';
import type { RiskLevel } from '../../src/tools/toolTypes';
import type { ToolCall } from '../../src/model/messages';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalRequest, type ToolRuntimeOptions } from '../../src/runtime/toolRuntime';
import { ProbeTool, type ProbeEvent, type ProbeInput } from '../support/probeTools';

/** A probe whose risk depends on its input (tag "look" only looks), optionally a batch member. */
class ModalProbe extends ProbeTool {
  override readonly ordered: boolean;

  constructor(name: string, options: { ordered: boolean; log: ProbeEvent[] }) {
    super(name, { risk: 'action', log: options.log });
    this.ordered = options.ordered;
  }

  override riskFor(input: ProbeInput): RiskLevel {
    return input.tag === 'look' ? 'read' : 'action';
  }
}

let nextId = 0;
const call = (name: string, input: ProbeInput = {}): ToolCall => ({ id: `c${++nextId}`, name, input });
const never = new AbortController().signal;

function runtime(tools: ProbeTool[], options: ToolRuntimeOptions = {}): ToolRuntime {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return new ToolRuntime(registry, options);
}

function span(log: ProbeEvent[], tag: string): { start: number; end: number } {
  const of = (phase: string): number => log.find((e) => (e.input as ProbeInput).tag === tag && e.phase === phase)!.at;
  return { start: of('start'), end: of('end') };
}

describe('ToolRuntime: per-call risk (riskFor)', () => {
  it('approves and guards each call by its own risk: a look runs unasked, an action of the same tool asks', async () => {
    const log: ProbeEvent[] = [];
    const tool = new ModalProbe('modal', { ordered: false, log });
    const requests: ApprovalRequest[] = [];
    const started: RiskLevel[] = [];
    const rt = runtime([tool], { requestApproval: async (r) => (requests.push(r), 'approve') });
    const outcome = await rt.executeTurn([call('modal', { tag: 'look' }), call('modal', { tag: 'act' })], never, {
      onToolStarted: (_c, risk) => started.push(risk),
    });
    assert.ok(outcome.results.every((r) => r.success));
    assert.deepEqual(requests.map((r) => [r.risk, (r.call.input as ProbeInput).tag]), [['action', 'act']]);
    assert.deepEqual(started, ['read', 'action']);
    assert.equal(rt.riskOfCall(call('modal', { tag: 'look' })), 'read');
    assert.equal(rt.riskOfCall(call('modal', { tag: 'x' })), 'action');
    assert.equal(rt.riskOfCall(call('modal', { bogus: 1 } as ProbeInput)), 'action', 'invalid input: the static risk');
  });

  it('runs read-risk calls of an unordered tool in parallel', async () => {
    const log: ProbeEvent[] = [];
    const tool = new ModalProbe('modal', { ordered: false, log });
    await runtime([tool]).executeTurn([call('modal', { tag: 'look', ms: 60 }), call('modal', { tag: 'look', ms: 60 })], never);
    const [a, b] = [log.filter((e) => e.phase === 'start'), log.filter((e) => e.phase === 'end')];
    assert.equal(a.length, 2);
    assert.ok(a[1]!.at < b[0]!.at, 'the second started before the first ended');
  });
});

describe('ToolRuntime: ordered tools (a batch stops at its first failure)', () => {
  it('never overlaps an ordered call with the calls around it, even when all are reads', async () => {
    const log: ProbeEvent[] = [];
    const batch = new ModalProbe('batch', { ordered: true, log });
    const look = new ProbeTool('look', { risk: 'read', log });
    const rt = runtime([batch, look]);
    const calls = [call('look', { tag: 'r1', ms: 40 }), call('batch', { tag: 'look', ms: 40 }), call('look', { tag: 'r2', ms: 40 })];
    const outcome = await rt.executeTurn(calls, never);
    assert.ok(outcome.results.every((r) => r.success));
    const r1 = span(log, 'r1');
    const b = log.filter((e) => e.tool === 'batch');
    const r2 = span(log, 'r2');
    assert.ok(r1.end <= b[0]!.at, 'the ordered call waited for the read before it');
    assert.ok(b[1]!.at <= r2.start, 'the read after it waited for it');
  });

  it('after an ordered call fails (even a read), every later call is answered as not run, naming it', async () => {
    const log: ProbeEvent[] = [];
    const batch = new ModalProbe('batch', { ordered: true, log });
    const look = new ProbeTool('look', { risk: 'read', log });
    const act = new ProbeTool('act', { risk: 'action', log });
    const rt = runtime([batch, look, act], { autoApprove: ['read', 'action'] });
    const outcome = await rt.executeTurn(
      [call('batch', { tag: 'look' }), call('batch', { tag: 'look', fail: 'no screen' }), call('look', { tag: 'after' }), call('act'), call('batch', { tag: 'look' })],
      never,
    );
    assert.deepEqual(outcome.results.map((r) => r.success), [true, false, false, false, false]);
    for (const result of outcome.results.slice(2)) {
      assert.equal(result.code, 'CANCELLED');
      assert.match(result.observation ?? '', /not run because the earlier call batch \{"tag":"look","fail":"no screen"\} failed/);
    }
    assert.equal(look.calls + act.calls, 0);
    assert.equal(batch.calls, 2);
  });

  it('an unordered read failing stops nothing', async () => {
    const log: ProbeEvent[] = [];
    const look = new ProbeTool('look', { risk: 'read', log });
    const batch = new ModalProbe('batch', { ordered: true, log });
    const outcome = await runtime([look, batch]).executeTurn([call('look', { fail: 'x' }), call('batch', { tag: 'look' })], never);
    assert.deepEqual(outcome.results.map((r) => r.success), [false, true]);
  });
});
