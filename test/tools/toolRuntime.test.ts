import { strict as assert } from 'node:assert';
import type { RiskLevel, ToolResult } from '../../src/tools/toolTypes';
import type { ToolCall } from '../../src/model/messages';
import { MemoryLogger } from '../../src/common/logger';
import { EchoTool } from '../../src/tools/echoTool';
import { Replanner } from '../../src/runtime/replanner';
import { ToolPolicy, type ToolPolicyConfig } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import {
  ToolRuntime,
  type ApprovalDecision,
  type ApprovalRequest,
  type ToolRuntimeOptions,
} from '../../src/runtime/toolRuntime';
import { ProbeTool, timeOf, type ProbeEvent, type ProbeInput } from '../support/probeTools';

let nextId = 0;
function call(name: string, input: ProbeInput | Record<string, unknown> = {}): ToolCall {
  return { id: `call_${++nextId}`, name, input };
}

function runtimeWith(tools: ProbeTool[], options: ToolRuntimeOptions = {}): ToolRuntime {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return new ToolRuntime(registry, options);
}

function policy(config: ToolPolicyConfig): ToolPolicy {
  return new ToolPolicy(config);
}

/** An approval handler that records every request and answers from a list (default approve). */
function recordingApproval(answers: ApprovalDecision[] = []): {
  requests: ApprovalRequest[];
  handler: (request: ApprovalRequest) => Promise<ApprovalDecision>;
} {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    handler: async (request) => {
      requests.push(request);
      return answers[requests.length - 1] ?? 'approve';
    },
  };
}

const never = new AbortController().signal;

describe('ToolRuntime', () => {
  describe('policy profiles', () => {
    const tools = (): ProbeTool[] => [
      new ProbeTool('look', { risk: 'read' }),
      new ProbeTool('click', { risk: 'action' }),
      new ProbeTool('launch', { risk: 'system' }),
    ];
    const visible = (config: ToolPolicyConfig): string[] =>
      runtimeWith(tools(), { policy: policy(config) })
        .getDefinitions()
        .map((d) => d.name);

    it('read-only shows only read tools', () => {
      assert.deepEqual(visible({ profile: 'read-only' }), ['look']);
    });

    it('standard shows read and action tools', () => {
      assert.deepEqual(visible({ profile: 'standard' }), ['look', 'click']);
    });

    it('full shows every tool, and is the default', () => {
      assert.deepEqual(visible({ profile: 'full' }), ['look', 'click', 'launch']);
      assert.deepEqual(
        runtimeWith(tools())
          .getDefinitions()
          .map((d) => d.name),
        ['look', 'click', 'launch'],
      );
    });

    it('allow adds tools to a profile, deny removes them', () => {
      assert.deepEqual(visible({ profile: 'read-only', allow: ['launch'] }), ['look', 'launch']);
      assert.deepEqual(visible({ profile: 'full', deny: ['click'] }), ['look', 'launch']);
    });

    it('deny wins over allow', () => {
      assert.deepEqual(visible({ profile: 'read-only', allow: ['click'], deny: ['click'] }), ['look']);
    });

    it('matches * globs, and nothing more than the glob', () => {
      const names = ['mouse_click', 'mouse_move', 'key_press', 'keyboard.type'];
      const many = (config: ToolPolicyConfig): string[] =>
        runtimeWith(
          names.map((n) => new ProbeTool(n, { risk: 'action' })),
          { policy: policy(config) },
        )
          .getDefinitions()
          .map((d) => d.name);
      assert.deepEqual(many({ profile: 'full', deny: ['mouse_*'] }), ['key_press', 'keyboard.type']);
      assert.deepEqual(many({ profile: 'read-only', allow: ['key*'] }), ['key_press', 'keyboard.type']);
      // `.` is literal, not "any character".
      assert.deepEqual(many({ profile: 'read-only', allow: ['keyboard.type'] }), ['keyboard.type']);
      assert.deepEqual(many({ profile: 'read-only', allow: ['key_'] }), []);
    });

    it('filters the OpenAI definitions the same way', () => {
      const rt = runtimeWith(tools(), { policy: policy({ profile: 'standard' }) });
      assert.deepEqual(
        rt.getOpenAiDefinitions().map((d) => [d.type, d.function.name]),
        [
          ['function', 'look'],
          ['function', 'click'],
        ],
      );
    });

    it('denies a hidden tool that is called anyway, without running it', async () => {
      const [look, click, launch] = tools();
      assert.ok(look && click && launch);
      const rt = runtimeWith([look, click, launch], { policy: policy({ profile: 'standard' }), autoApprove: ['read', 'action', 'system'] });
      const result = await rt.execute(call('launch'), never);
      assert.equal(result.success, false);
      assert.equal(result.code, 'DENIED');
      assert.equal(result.error, 'Tool not allowed: launch (risk "system") is not allowed by the "standard" tool profile');
      assert.match(result.observation, /^launch did NOT run: /);
      assert.equal(launch.calls, 0);
    });

    it('names the deny list when a denied tool is called', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const rt = runtimeWith([click], { policy: policy({ profile: 'full', deny: ['cl*'] }), autoApprove: ['action'] });
      const result = await rt.execute(call('click'), never);
      assert.equal(result.code, 'DENIED');
      assert.equal(result.error, 'Tool not allowed: click is on the deny list');
      assert.equal(click.calls, 0);
    });

    it('lists only visible tools in the NOT_FOUND hint', async () => {
      const rt = runtimeWith(tools(), { policy: policy({ profile: 'read-only' }) });
      const result = await rt.execute(call('type_text'), never);
      assert.equal(result.code, 'NOT_FOUND');
      assert.equal(result.error, 'Tool not found: type_text');
      assert.equal(result.hint, 'Available tools: look.');
    });

    it('validates input after the policy and before approval', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const approval = recordingApproval();
      const rt = runtimeWith([click], { requestApproval: approval.handler });
      const result = await rt.execute(call('click', { ms: -1 }), never);
      assert.equal(result.code, 'INVALID_INPUT');
      assert.match(result.error ?? '', /ms: must be at least 0, got number -1/);
      assert.equal(approval.requests.length, 0, 'nobody is asked to approve an invalid call');
      assert.equal(click.calls, 0);
    });
  });

  describe('approval', () => {
    it('asks the handler for an action tool with a summary, then runs it', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const approval = recordingApproval(['approve']);
      const resolved: Array<[string, ApprovalDecision]> = [];
      const requested: ApprovalRequest[] = [];
      const rt = runtimeWith([click], { requestApproval: approval.handler });
      const theCall = call('click', { tag: 'Save' });
      const result = await rt.execute(theCall, never, {
        onApprovalRequested: (r) => requested.push(r),
        onApprovalResolved: (c, d) => resolved.push([c.id, d]),
      });
      assert.equal(result.success, true);
      assert.equal(click.calls, 1);
      assert.equal(approval.requests.length, 1);
      assert.deepEqual(approval.requests[0], { call: theCall, risk: 'action', summary: 'click {"tag":"Save"}' });
      assert.deepEqual(requested, approval.requests);
      assert.deepEqual(resolved, [[theCall.id, 'approve']]);
    });

    it('shortens a long input in the summary', async () => {
      const approval = recordingApproval();
      const rt = runtimeWith([new ProbeTool('click', { risk: 'action' })], { requestApproval: approval.handler });
      await rt.execute(call('click', { tag: 'a'.repeat(500) }), never);
      const summary = approval.requests[0]?.summary ?? '';
      assert.ok(summary.startsWith('click {"tag":"aaa'));
      assert.ok(summary.endsWith('…'));
      assert.equal(summary.length, 'click '.length + 200 + 1);
    });

    it('does not ask for read tools by default', async () => {
      const approval = recordingApproval(['deny']);
      const look = new ProbeTool('look');
      const rt = runtimeWith([look], { requestApproval: approval.handler });
      const result = await rt.execute(call('look'), never);
      assert.equal(result.success, true);
      assert.equal(approval.requests.length, 0);
    });

    it('deny gives DENIED, says the tool did NOT run, and does not run it', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const approval = recordingApproval(['deny']);
      const rt = runtimeWith([click], { requestApproval: approval.handler });
      const result = await rt.execute(call('click', { tag: 'Delete' }), never);
      assert.equal(result.success, false);
      assert.equal(result.code, 'DENIED');
      assert.equal(result.error, 'Denied: click');
      assert.equal(result.observation, 'click did NOT run (the user denied it): click {"tag":"Delete"} did not happen.');
      assert.equal(click.calls, 0);
    });

    it('always approves and is not asked again for that tool, until approvals are reset', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const type = new ProbeTool('type', { risk: 'action' });
      const approval = recordingApproval(['always', 'approve', 'approve']);
      const rt = runtimeWith([click, type], { requestApproval: approval.handler });
      assert.equal((await rt.execute(call('click'), never)).success, true);
      assert.equal((await rt.execute(call('click', { tag: 'again' }), never)).success, true);
      assert.equal(approval.requests.length, 1, 'not asked again for click');
      assert.equal((await rt.execute(call('type'), never)).success, true);
      assert.equal(approval.requests.length, 2, '`always` is per tool');
      rt.resetApprovals();
      await rt.execute(call('click'), never);
      assert.equal(approval.requests.length, 3, 'asked again after resetApprovals()');
      assert.equal(click.calls, 3);
    });

    it('denies an action when there is no handler to ask', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const rt = runtimeWith([click]);
      const result = await rt.execute(call('click'), never);
      assert.equal(result.code, 'DENIED');
      assert.match(result.observation, /^click did NOT run \(no one could approve it: approvals are needed for action tools\)/);
      assert.equal(click.calls, 0);
    });

    it('runs the risks in autoApprove without asking, and asks for the others', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      const launch = new ProbeTool('launch', { risk: 'system' });
      const approval = recordingApproval(['deny']);
      const rt = runtimeWith([click, launch], { requestApproval: approval.handler, autoApprove: ['read', 'action'] });
      assert.equal((await rt.execute(call('click'), never)).success, true);
      assert.equal(approval.requests.length, 0);
      const launched = await rt.execute(call('launch'), never);
      assert.equal(launched.code, 'DENIED');
      assert.deepEqual(
        approval.requests.map((r) => [r.call.name, r.risk]),
        [['launch', 'system']],
      );
      assert.equal(launch.calls, 0);
    });

    it('an empty autoApprove asks even for read tools', async () => {
      const look = new ProbeTool('look');
      const approval = recordingApproval(['deny']);
      const rt = runtimeWith([look], { requestApproval: approval.handler, autoApprove: [] });
      assert.equal((await rt.execute(call('look'), never)).code, 'DENIED');
      assert.equal(approval.requests[0]?.risk, 'read');
    });

    it('gives CANCELLED, promptly, when the request is cancelled while waiting for approval', async () => {
      const click = new ProbeTool('click', { risk: 'action' });
      let handlerSignal: AbortSignal | undefined;
      // A person who never answers.
      const rt = runtimeWith([click], {
        requestApproval: (_request, signal) => {
          handlerSignal = signal;
          return new Promise<ApprovalDecision>(() => {});
        },
      });
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 30);
      const result = await rt.execute(call('click'), controller.signal);
      assert.ok(performance.now() - started < 1_000);
      assert.equal(result.code, 'CANCELLED');
      assert.equal(result.error, 'Tool execution cancelled: click');
      assert.equal(result.observation, 'click did not complete: the request was cancelled while waiting for approval.');
      assert.equal(handlerSignal?.aborted, true, 'the handler got the request signal');
      assert.equal(click.calls, 0);
    });
  });

  describe('timeouts', () => {
    it('stops a tool after its own timeoutMs, with TIMEOUT, and aborts its signal', async () => {
      const slow = new ProbeTool('slow', { timeoutMs: 40 });
      const rt = runtimeWith([slow], { defaultTimeoutMs: 10_000 });
      const started = performance.now();
      const result = await rt.execute(call('slow', { ms: 5_000 }), never);
      assert.ok(performance.now() - started < 1_000);
      assert.equal(result.code, 'TIMEOUT');
      assert.equal(result.error, 'Tool execution timeout: slow took longer than 40 ms');
      assert.equal(result.observation, 'slow was stopped after 40 ms; it may have partly happened.');
      assert.equal(slow.signals[0]?.aborted, true, "the tool's signal is aborted");
    });

    it('lets the runtime `timeouts` entry win over the tool\'s own timeout, both ways', async () => {
      const shorter = new ProbeTool('slow', { timeoutMs: 10_000 });
      const rt = runtimeWith([shorter], { timeouts: { slow: 40 } });
      const result = await rt.execute(call('slow', { ms: 5_000 }), never);
      assert.equal(result.code, 'TIMEOUT');
      assert.equal(result.error, 'Tool execution timeout: slow took longer than 40 ms');

      const longer = new ProbeTool('slow', { timeoutMs: 20 });
      const rt2 = runtimeWith([longer], { timeouts: { slow: 2_000 } });
      const ok = await rt2.execute(call('slow', { ms: 60 }), never);
      assert.equal(ok.success, true, 'the 20 ms of the tool do not apply');
      assert.equal(longer.signals[0]?.aborted, false);
    });

    it('uses defaultTimeoutMs for a tool without its own', async () => {
      const slow = new ProbeTool('slow');
      const rt = runtimeWith([slow], { defaultTimeoutMs: 40 });
      const result = await rt.execute(call('slow', { ms: 5_000 }), never);
      assert.equal(result.code, 'TIMEOUT');
      assert.equal(result.error, 'Tool execution timeout: slow took longer than 40 ms');
      assert.equal(slow.signals[0]?.aborted, true);
    });

    it('times out a tool that ignores its signal too', async () => {
      const stubborn = new ProbeTool('stubborn', { timeoutMs: 30, ignoreAbort: true });
      const rt = runtimeWith([stubborn]);
      const started = performance.now();
      const result = await rt.execute(call('stubborn', { ms: 300 }), never);
      assert.ok(performance.now() - started < 250);
      assert.equal(result.code, 'TIMEOUT');
    });

    it('leaves the signal alone when the tool finishes in time, and records the duration', async () => {
      const slow = new ProbeTool('slow', { timeoutMs: 2_000 });
      const rt = runtimeWith([slow]);
      const result = await rt.execute(call('slow', { ms: 40 }), never);
      assert.equal(result.success, true);
      assert.equal(slow.signals[0]?.aborted, false);
      assert.ok(result.durationMs >= 35, `durationMs ${result.durationMs}`);
    });
  });

  describe('cancellation', () => {
    it('gives CANCELLED promptly and aborts the tool\'s signal', async () => {
      const slow = new ProbeTool('slow', { ignoreAbort: true });
      const rt = runtimeWith([slow]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const started = performance.now();
      const result = await rt.execute(call('slow', { ms: 400 }), controller.signal);
      assert.ok(performance.now() - started < 300, 'does not wait for a tool that ignores the signal');
      assert.equal(result.code, 'CANCELLED');
      assert.equal(result.observation, 'slow did not complete: the request was cancelled.');
      assert.equal(slow.signals[0]?.aborted, true);
    });

    it('does not start a tool when the signal is already aborted', async () => {
      const look = new ProbeTool('look');
      const rt = runtimeWith([look]);
      const controller = new AbortController();
      controller.abort();
      const result = await rt.execute(call('look'), controller.signal);
      assert.equal(result.code, 'CANCELLED');
      assert.equal(look.calls, 0);
    });

    it('leaves no abort listener on a long-lived request signal', async () => {
      const look = new ProbeTool('look');
      const rt = runtimeWith([look]);
      const controller = new AbortController();
      for (let i = 0; i < 20; i++) await rt.execute(call('look'), controller.signal);
      controller.abort();
      // Had the listeners stayed, every old tool signal would be aborted now.
      assert.equal(
        look.signals.some((s) => s.aborted),
        false,
      );
    });
  });

  describe('executeTurn()', () => {
    let log: ProbeEvent[];
    const read = (name: string): ProbeTool => new ProbeTool(name, { risk: 'read', log });
    const action = (name: string): ProbeTool => new ProbeTool(name, { risk: 'action', log });

    beforeEach(() => {
      log = [];
    });

    it('runs read tools in parallel', async () => {
      const rt = runtimeWith([read('r1'), read('r2'), read('r3')]);
      const started = performance.now();
      const { results } = await rt.executeTurn([call('r1', { ms: 80 }), call('r2', { ms: 80 }), call('r3', { ms: 80 })], never);
      const elapsed = performance.now() - started;
      assert.ok(results.every((r) => r.success));
      const lastStart = Math.max(...['r1', 'r2', 'r3'].map((n) => timeOf(log, n, 'start')));
      const firstEnd = Math.min(...['r1', 'r2', 'r3'].map((n) => timeOf(log, n, 'end')));
      assert.ok(lastStart < firstEnd, 'all three started before any finished');
      assert.ok(elapsed < 200, `took ${elapsed.toFixed(0)} ms, not about 3 × 80`);
    });

    it('runs action tools one at a time, in order, each after all earlier calls finished', async () => {
      const rt = runtimeWith([read('r1'), read('r2'), action('a1'), action('a2'), action('a3')], { autoApprove: ['read', 'action'] });
      const calls = [
        call('r1', { ms: 60 }),
        call('a1', { ms: 30 }),
        call('r2', { ms: 30 }),
        call('a2', { ms: 5 }),
        call('a3', { ms: 5 }),
      ];
      const { results } = await rt.executeTurn(calls, never);
      assert.ok(results.every((r) => r.success));
      assert.deepEqual(
        log.filter((e) => e.phase === 'start').map((e) => e.tool),
        ['r1', 'a1', 'r2', 'a2', 'a3'],
      );
      assert.ok(timeOf(log, 'a1', 'start') >= timeOf(log, 'r1', 'end'), 'a1 waits for the read before it');
      assert.ok(timeOf(log, 'r2', 'start') >= timeOf(log, 'a1', 'end'), 'a read after an action starts after it');
      assert.ok(timeOf(log, 'a2', 'start') >= timeOf(log, 'r2', 'end'), 'a2 waits for r2');
      assert.ok(timeOf(log, 'a3', 'start') >= timeOf(log, 'a2', 'end'), 'a3 waits for a2');
    });

    it('returns the results in call order, whatever order they finished in', async () => {
      const rt = runtimeWith([read('r1'), read('r2'), read('r3')]);
      const { results, abort } = await rt.executeTurn(
        [call('r1', { ms: 60, tag: 'first' }), call('r2', { ms: 5, tag: 'second' }), call('r3', { ms: 30, tag: 'third' })],
        never,
      );
      assert.equal(abort, undefined);
      assert.deepEqual(
        results.map((r) => r.observation),
        ['r1 done (first).', 'r2 done (second).', 'r3 done (third).'],
      );
      assert.deepEqual(
        log.filter((e) => e.phase === 'end').map((e) => e.tool),
        ['r2', 'r3', 'r1'],
      );
    });

    it('cancels the later actions after a failed action, naming it', async () => {
      const a2 = action('a2');
      const a3 = action('a3');
      const rt = runtimeWith([action('a1'), a2, a3, read('r1')], { autoApprove: ['read', 'action'] });
      const { results } = await rt.executeTurn([call('a1', { fail: 'button jammed' }), call('a2'), call('r1'), call('a3')], never);
      assert.deepEqual(
        results.map((r) => r.code ?? 'OK'),
        ['FAILED', 'CANCELLED', 'OK', 'CANCELLED'],
      );
      assert.equal(results[1]?.observation, 'a2 did not complete: not run because the earlier action a1 did not succeed.');
      assert.equal(results[3]?.observation, 'a3 did not complete: not run because the earlier action a1 did not succeed.');
      assert.equal(a2.calls + a3.calls, 0);
    });

    it('cancels the later actions after a denied action, without asking for them', async () => {
      const approval = recordingApproval(['deny', 'approve']);
      const a2 = action('a2');
      const rt = runtimeWith([action('a1'), a2], { requestApproval: approval.handler });
      const { results } = await rt.executeTurn([call('a1'), call('a2')], never);
      assert.deepEqual(
        results.map((r) => r.code),
        ['DENIED', 'CANCELLED'],
      );
      assert.match(results[1]?.observation ?? '', /the earlier action a1 did not succeed/);
      assert.deepEqual(
        approval.requests.map((r) => r.call.name),
        ['a1'],
      );
      assert.equal(a2.calls, 0);
    });

    it('reports every call finished through the hooks, skipped ones included', async () => {
      const rt = runtimeWith([action('a1'), action('a2')], { autoApprove: ['read', 'action'] });
      const started: string[] = [];
      const finished: Array<[string, string]> = [];
      await rt.executeTurn([call('a1', { fail: 'no' }), call('a2')], never, {
        onToolStarted: (c) => started.push(c.name),
        onToolFinished: (c, r) => finished.push([c.name, r.code ?? 'OK']),
      });
      assert.deepEqual(started, ['a1']);
      assert.deepEqual(finished, [
        ['a1', 'FAILED'],
        ['a2', 'CANCELLED'],
      ]);
    });

    it('stops the turn when the replanner aborts, and says why for the skipped calls', async () => {
      const a2 = action('a2');
      const rt = runtimeWith([action('a1'), a2], {
        autoApprove: ['read', 'action'],
        replanner: new Replanner({ maxRepeatedFailures: 1 }),
      });
      const { results, abort } = await rt.executeTurn([call('a1', { fail: 'broken' }), call('a2')], never);
      assert.equal(abort, 'a1 failed 1 times with the same input; stopping instead of looping');
      assert.equal(results[1]?.code, 'CANCELLED');
      assert.equal(results[1]?.observation, `a2 did not complete: the request was stopped: ${abort}.`);
      assert.equal(a2.calls, 0);
    });

    it('cancels the rest of the turn when the signal fires mid-turn', async () => {
      const a2 = action('a2');
      const rt = runtimeWith([action('a1'), a2], { autoApprove: ['read', 'action'] });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const { results, abort } = await rt.executeTurn([call('a1', { ms: 2_000 }), call('a2')], controller.signal);
      assert.deepEqual(
        results.map((r) => r.code),
        ['CANCELLED', 'CANCELLED'],
      );
      // The replanner turns the CANCELLED result into an abort of the request.
      assert.equal(abort, 'the request was cancelled');
      assert.match(results[1]?.observation ?? '', /^a2 did not complete: .*the request was cancelled\.$/);
      assert.equal(a2.calls, 0);
    });

    it('gives a slow tool a durationMs above zero, and logs it', async () => {
      const logger = new MemoryLogger();
      const rt = runtimeWith([read('slow')], { logger });
      const { results } = await rt.executeTurn([call('slow', { ms: 30 })], never);
      const result = results[0] as ToolResult;
      assert.ok(result.durationMs > 0);
      assert.ok(result.durationMs >= 25, `durationMs ${result.durationMs}`);
      assert.ok(logger.lines.some((l) => /^\[debug\] tool slow ok \(\d+\.\d ms\)$/.test(l)), logger.lines.join('\n'));
    });
  });

  it('knows the risk of each registered tool', () => {
    const registry = new ToolRegistry();
    registry.register(new EchoTool());
    registry.register(new ProbeTool('launch', { risk: 'system' }));
    const rt = new ToolRuntime(registry);
    const risks: Array<RiskLevel | undefined> = ['echo', 'launch', 'nope'].map((n) => rt.riskOf(n));
    assert.deepEqual(risks, ['read', 'system', undefined]);
  });
});
