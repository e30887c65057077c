import { strict as assert } from 'node:assert';
import type { Static } from '@sinclair/typebox';
import type { ToolCall } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults } from '../../src/tools/toolResult';
import { ToolRuntime, type ActionGuard, type ApprovalRequest, type ToolRuntimeOptions } from '../../src/runtime/toolRuntime';
import type { ToolContext } from '../../src/tools/toolBase';
import { ProbeTool } from '../support/probeTools';

// The runtime's safety contract: guards before every action, approval modes for replays,
// derived runtimes that share the host's rules, and the public (masked) form of each call.

let nextId = 0;
const call = (name: string, input: Record<string, unknown> = {}): ToolCall => ({ id: `c${++nextId}`, name, input });

/** A probe whose `tag` is a secret: people and logs see it masked. */
class SecretProbe extends ProbeTool {
  override publicInput(input: Static<ProbeTool['inputSchema']>, _context: ToolContext): Promise<unknown> {
    return Promise.resolve({ ...input, tag: input.tag ? `••••• (${input.tag.length} characters)` : undefined });
  }
}

function runtime(tools: ProbeTool[], options: ToolRuntimeOptions = {}): ToolRuntime {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return new ToolRuntime(registry, options);
}

class RecordingGuard implements ActionGuard {
  readonly name = 'recording';
  readonly before: string[] = [];
  readonly after: Array<{ name: string; success: boolean }> = [];
  constructor(private readonly verdict: (call: ToolCall) => ToolResult | undefined = () => undefined) {}
  async beforeAction(c: ToolCall): Promise<ToolResult | undefined> {
    this.before.push(c.name);
    return this.verdict(c);
  }
  afterAction(c: ToolCall, _tool: unknown, result: ToolResult): void {
    this.after.push({ name: c.name, success: result.success });
  }
}

describe('tool runtime: guards, approval modes, derived runtimes, public calls', () => {
  it('runs guards before actions only, after approval, and a guard can stop the call', async () => {
    const act = new ProbeTool('act', { risk: 'action' });
    const look = new ProbeTool('look');
    const guard = new RecordingGuard((c) => ((c.input as { tag?: string }).tag === 'stop' ? ToolResults.cancelled('act', 'stopped by the person') : undefined));
    const rt = runtime([act, look], { autoApprove: ['read', 'action'], guards: [guard] });
    const signal = new AbortController().signal;
    assert.equal((await rt.execute(call('look'), signal)).success, true);
    assert.equal((await rt.execute(call('act', { tag: 'go' }), signal)).success, true);
    const stopped = await rt.execute(call('act', { tag: 'stop' }), signal);
    assert.equal(stopped.code, 'CANCELLED');
    assert.deepEqual(act.inputs.map((i) => i.tag), ['go'], 'the stopped call never ran');
    assert.deepEqual(guard.before, ['act', 'act'], 'read tools pass no guard');
    assert.deepEqual(guard.after, [{ name: 'act', success: true }]);
  });

  it('asks for approval before the guards, so a denied call never reaches them', async () => {
    const act = new ProbeTool('act', { risk: 'action' });
    const guard = new RecordingGuard();
    const rt = runtime([act], { requestApproval: async () => 'deny', guards: [guard] });
    const result = await rt.execute(call('act'), new AbortController().signal);
    assert.equal(result.code, 'DENIED');
    assert.deepEqual(guard.before, []);
  });

  it('addGuard applies to derived runtimes too, and its removal ends that', async () => {
    const rt = runtime([], { autoApprove: ['read', 'action'] });
    const act = new ProbeTool('act', { risk: 'action' });
    const child = new ToolRegistry();
    child.register(act);
    const derived = rt.derive(child);
    const guard = new RecordingGuard(() => ToolResults.denied('act', 'act', 'not in this app'));
    const remove = rt.addGuard(guard);
    assert.equal((await derived.execute(call('act'), new AbortController().signal)).code, 'DENIED');
    remove();
    assert.equal((await derived.execute(call('act'), new AbortController().signal)).success, true);
    assert.equal(act.inputs.length, 1);
  });

  it('a derived runtime keeps the host policy, deny list and approval handler', async () => {
    const asked: ApprovalRequest[] = [];
    const host = runtime([], {
      policy: new ToolPolicy({ profile: 'standard', deny: ['launch_*'] }),
      requestApproval: async (request) => {
        asked.push(request);
        return 'deny';
      },
    });
    const registry = new ToolRegistry();
    const launch = new ProbeTool('launch_app', { risk: 'action' });
    const system = new ProbeTool('sys', { risk: 'system' });
    const click = new ProbeTool('click', { risk: 'action' });
    for (const tool of [launch, system, click]) registry.register(tool);
    const derived = host.derive(registry);
    const signal = new AbortController().signal;
    assert.equal((await derived.execute(call('launch_app'), signal)).code, 'DENIED', 'deny list');
    assert.equal((await derived.execute(call('sys'), signal)).code, 'DENIED', 'profile standard hides system tools');
    assert.equal((await derived.execute(call('click'), signal)).code, 'DENIED', 'the person was asked and said no');
    assert.deepEqual(asked.map((r) => r.call.name), ['click']);
    assert.equal(launch.inputs.length + system.inputs.length + click.inputs.length, 0);
    assert.deepEqual(derived.getDefinitions().map((d) => d.name), ['click']);
  });

  it('an "always" grant in the host holds in a derived runtime (and the other way round)', async () => {
    let asks = 0;
    const act = new ProbeTool('act', { risk: 'action' });
    const host = runtime([act], {
      requestApproval: async () => {
        asks++;
        return 'always';
      },
    });
    const registry = new ToolRegistry();
    registry.register(act);
    const derived = host.derive(registry);
    await derived.execute(call('act'), new AbortController().signal);
    await host.execute(call('act'), new AbortController().signal);
    assert.equal(asks, 1);
    host.resetApprovals();
    await derived.execute(call('act'), new AbortController().signal);
    assert.equal(asks, 2, 'a reset in the host resets the derived runtime');
  });

  it('approval "skip" runs without a prompt, "required" asks even when auto-approved or always allowed', async () => {
    const asked: ApprovalRequest[] = [];
    const act = new ProbeTool('act', { risk: 'action' });
    const rt = runtime([act], {
      autoApprove: ['read', 'action'],
      requestApproval: async (request) => {
        asked.push(request);
        return 'approve';
      },
    });
    const signal = new AbortController().signal;
    await rt.execute(call('act'), signal, {}, { approval: 'skip' });
    await rt.execute(call('act'), signal);
    assert.equal(asked.length, 0);
    await rt.execute(call('act', { tag: 'x' }), signal, {}, { approval: 'required', approvalNote: 'step 2 clicks "Delete"' });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.note, 'step 2 clicks "Delete"');
    assert.equal(act.inputs.length, 3);
  });

  it('"always" on a required step approves that step only, and grants the tool nothing more', async () => {
    let asks = 0;
    const act = new ProbeTool('act', { risk: 'action' });
    const rt = runtime([act], {
      requestApproval: async () => {
        asks++;
        return 'always';
      },
    });
    const signal = new AbortController().signal;
    await rt.execute(call('act'), signal, {}, { approval: 'required', approvalNote: 'consequential' });
    await rt.execute(call('act'), signal);
    assert.equal(asks, 2, 'the next ordinary call still asks');
    assert.equal(act.inputs.length, 2);
  });

  it('"required" with no one to ask denies and says why', async () => {
    const act = new ProbeTool('act', { risk: 'action' });
    const rt = runtime([act], { autoApprove: ['read', 'action', 'system'] });
    const result = await rt.execute(call('act'), new AbortController().signal, {}, { approval: 'required', approvalNote: 'an imported path types text' });
    assert.equal(result.code, 'DENIED');
    assert.match(result.observation, /an imported path types text/);
    assert.equal(act.inputs.length, 0);
  });

  it('hooks, approvals and the turn outcome carry the public call; the tool gets the real input', async () => {
    const secret = new SecretProbe('type', { risk: 'action' });
    const asked: ApprovalRequest[] = [];
    const seen: unknown[] = [];
    const rt = runtime([secret], {
      requestApproval: async (request) => {
        asked.push(request);
        return 'approve';
      },
    });
    const outcome = await rt.executeTurn([call('type', { tag: 'hunter2-secret' })], new AbortController().signal, {
      onToolStarted: (c) => seen.push(c.input),
      onToolFinished: (c) => seen.push(c.input),
    });
    assert.equal(secret.inputs[0]?.tag, 'hunter2-secret');
    const everything = JSON.stringify({ asked, seen, publicCalls: outcome.publicCalls });
    assert.doesNotMatch(everything, /hunter2/);
    assert.match(asked[0]!.summary, /••••• \(14 characters\)/);
  });

  it('calls whose masked forms are alike are still told apart: different secrets are not "the same failing input"', async () => {
    const secret = new SecretProbe('type', { risk: 'action' });
    const rt = runtime([secret], { autoApprove: ['read', 'action'] });
    const signal = new AbortController().signal;
    let aborted: string | undefined;
    for (const tag of ['aaaa1', 'bbbb2', 'cccc3']) {
      const outcome = await rt.executeWithRecovery(call('type', { tag, fail: 'wrong password' }), signal);
      aborted ??= outcome.abort;
    }
    assert.equal(aborted, undefined, 'three different inputs with the same length are not a loop');
    const again = await rt.executeWithRecovery(call('type', { tag: 'aaaa1', fail: 'wrong password' }), signal);
    const last = await rt.executeWithRecovery(call('type', { tag: 'aaaa1', fail: 'wrong password' }), signal);
    assert.equal(again.abort, undefined);
    assert.match(last.abort ?? '', /failed 3 times with the same input/);
  });

  it('a huge or deeply nested input is shown as a bounded preview, never in full', async () => {
    const act = new ProbeTool('act', { risk: 'action' });
    const rt = runtime([act], { autoApprove: ['read', 'action'] });
    const shown: ToolCall[] = [];
    let deep: unknown = 'x';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const outcome = await rt.executeTurn([call('act', { tag: 'y'.repeat(1_000_000) }), call('act', { tag: deep as string })], new AbortController().signal, {
      onToolFinished: (c) => shown.push(c),
    });
    // Whatever the input limits make of the 1 MB string, the nesting never reaches the tool.
    assert.ok(act.inputs.every((input) => typeof input.tag === 'string'));
    assert.equal(outcome.results[1]?.success, false);
    for (const c of [...shown, ...outcome.publicCalls]) assert.ok(JSON.stringify(c).length < 3_000, 'bounded');
  });

  it('a tool that throws in an unexpected place still answers every call of the turn', async () => {
    const act = new ProbeTool('act', { risk: 'action' });
    const rt = runtime([act], { autoApprove: ['read', 'action'] });
    const broken: ActionGuard = {
      name: 'broken',
      beforeAction: () => Promise.reject(new Error('guard exploded')),
    };
    rt.addGuard(broken);
    const outcome = await rt.executeTurn([call('act'), call('act')], new AbortController().signal);
    assert.equal(outcome.results.length, 2);
    assert.equal(outcome.results[0]?.code, 'FAILED');
    assert.match(outcome.results[0]?.error ?? '', /guard exploded/);
    assert.equal(outcome.results[1]?.code, 'CANCELLED');
  });
});
