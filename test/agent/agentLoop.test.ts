import { strict as assert } from 'node:assert';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { SCREENSHOT_STUB } from '../../src/model/conversation';
import { PROVIDER_KINDS, startHarness, toolNamesSent, toolResultsSent, type Harness } from '../support/agentHarness';
import { textReply, toolReply } from '../support/scriptedSteps';
import { FlakyTool, PressTool, SnapTool, WaitTool, type ToolEvent } from '../support/testTools';

for (const kind of PROVIDER_KINDS) {
  describe(`agent loop (${kind} provider, real SDK over HTTP)`, function () {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('round-trips an echo call and answers', async () => {
      h = await startHarness(kind, [toolReply([{ name: 'echo', input: { message: 'hello' } }]), textReply('The echo said hello.')]);
      const response = await h.agent.processRequest('Echo hello');
      assert.equal(response.message, 'The echo said hello.');
      assert.equal(response.stopReason, 'end_turn');
      assert.equal(response.iterations, 2);
      assert.equal(response.toolCalls.length, 1);
      assert.equal(response.toolCalls[0]?.result.success, true);
      assert.deepEqual(response.usage, { inputTokens: 20, outputTokens: 10 });
      const sent = toolResultsSent(kind, h.server.requests[1]!.body);
      assert.equal(sent.length, 1);
      assert.equal(JSON.parse(sent[0]!.text).data.echo, 'hello');
      assert.deepEqual(toolNamesSent(kind, h.server.requests[0]!.body), ['echo']);
      assert.deepEqual(h.agent.conversation.problems(), []);
    });

    it('runs two action calls of one turn in the order the model gave', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(
        kind,
        [toolReply([{ name: 'press', input: { label: 'First' } }, { name: 'press', input: { label: 'Second' } }]), textReply('done')],
        { tools: [new PressTool(log, 30)] },
      );
      await h.agent.processRequest('press two');
      assert.deepEqual(
        log.map((e) => `${e.phase}:${(e.input as { label: string }).label}`),
        ['start:First', 'end:First', 'start:Second', 'end:Second'],
      );
      const sent = toolResultsSent(kind, h.server.requests[1]!.body);
      assert.deepEqual(sent.map((s) => JSON.parse(s.text).data.label), ['First', 'Second']);
    });

    it('answers an unknown tool with NOT_FOUND and goes on', async () => {
      h = await startHarness(kind, [toolReply([{ name: 'teleport', input: {} }]), textReply('I cannot teleport.')]);
      const response = await h.agent.processRequest('teleport');
      assert.equal(response.stopReason, 'end_turn');
      const sent = JSON.parse(toolResultsSent(kind, h.server.requests[1]!.body)[0]!.text);
      assert.equal(sent.code, 'NOT_FOUND');
      assert.match(sent.error, /Tool not found: teleport/);
    });

    it('sends invalid input back to the model as INVALID_INPUT naming the field', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'press', input: { label: 'OK', times: 9 } }]), textReply('fixed')], {
        tools: [new PressTool(log)],
      });
      await h.agent.processRequest('press');
      assert.equal(log.length, 0, 'the tool must not run on invalid input');
      const result = toolResultsSent(kind, h.server.requests[1]!.body)[0]!;
      const sent = JSON.parse(result.text);
      assert.equal(sent.code, 'INVALID_INPUT');
      assert.match(sent.error, /times: must be at most 3/);
      if (kind === 'anthropic') assert.equal(result.isError, true);
    });

    it('stops at max iterations', async () => {
      h = await startHarness(kind, () => toolReply([{ name: 'echo', input: { message: 'again' } }], 'once more'), { maxIterations: 3 });
      const response = await h.agent.processRequest('loop');
      assert.equal(h.server.requestCount, 3);
      assert.equal(response.iterations, 3);
      assert.equal(response.stopReason, 'max_iterations');
      assert.match(response.message, /\[Max iterations reached\]$/);
      assert.deepEqual(h.agent.conversation.problems(), []);
    });

    it('retries a 429 through the SDK and succeeds', async () => {
      h = await startHarness(kind, [
        { kind: 'error', status: 429, headers: { 'retry-after-ms': '1' } },
        textReply('after the rate limit'),
      ]);
      const response = await h.agent.processRequest('hi');
      assert.equal(response.message, 'after the rate limit');
      assert.equal(h.server.requestCount, 2);
    });

    it('times a slow tool out and tells the model', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'slow', input: { ms: 5_000 } }]), textReply('it timed out')], {
        tools: [new WaitTool(log, 'slow', 50)],
      });
      const response = await h.agent.processRequest('wait');
      // A read tool is retried by the replanner (2 retries), then reported.
      assert.equal(log.filter((e) => e.phase === 'aborted').length, 3);
      assert.equal(response.toolCalls[0]?.result.code, 'TIMEOUT');
      const sent = JSON.parse(toolResultsSent(kind, h.server.requests[1]!.body)[0]!.text);
      assert.equal(sent.code, 'TIMEOUT');
      assert.ok(sent.hint, 'a timeout carries a hint for the model');
    });

    it('never runs a denied action and says what did not happen', async () => {
      const log: ToolEvent[] = [];
      const asked: string[] = [];
      h = await startHarness(
        kind,
        [toolReply([{ name: 'press', input: { label: 'Delete' } }, { name: 'press', input: { label: 'Confirm' } }]), textReply('ok, I will not')],
        {
          tools: [new PressTool(log)],
          autoApprove: ['read'],
          requestApproval: async (request) => {
            asked.push(request.summary);
            return 'deny';
          },
        },
      );
      const events: AgentEvent[] = [];
      h.agent.onEvent((e) => events.push(e));
      const response = await h.agent.processRequest('delete it');
      assert.equal(log.length, 0);
      assert.deepEqual(asked, ['press {"label":"Delete","times":1}'], 'the second action is not even asked about (the summary shows the input as it will run, defaults applied)');
      const [first, second] = toolResultsSent(kind, h.server.requests[1]!.body).map((s) => JSON.parse(s.text));
      assert.equal(first.code, 'DENIED');
      assert.match(first.observation, /did NOT run/);
      assert.equal(second.code, 'CANCELLED');
      assert.match(second.observation, /earlier action press/);
      assert.ok(events.some((e) => e.type === 'approval_requested'));
      assert.equal(response.stopReason, 'end_turn');
    });

    it('hides tools outside the profile from the model and refuses them', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'press', input: { label: 'X' } }]), textReply('not allowed')], {
        tools: [new PressTool(log)],
        policy: { profile: 'read-only' },
      });
      await h.agent.processRequest('press');
      assert.deepEqual(toolNamesSent(kind, h.server.requests[0]!.body), ['echo']);
      assert.equal(log.length, 0);
      const sent = JSON.parse(toolResultsSent(kind, h.server.requests[1]!.body)[0]!.text);
      assert.equal(sent.code, 'DENIED');
      assert.match(sent.error, /read-only/);
    });

    it('streams text in pieces and executes tools until the model stops', async () => {
      h = await startHarness(kind, [
        toolReply([{ name: 'echo', input: { message: 'streamed' } }], 'Let me echo that for you right now.'),
        textReply('All done: the echo worked and returned the streamed message.'),
      ]);
      const events: AgentEvent[] = [];
      for await (const event of h.agent.streamRequest('echo')) events.push(event);
      const deltas = events.filter((e) => e.type === 'text_delta');
      assert.ok(deltas.length >= 4, `expected several text deltas, got ${deltas.length}`);
      const types = events.map((e) => e.type);
      assert.ok(types.indexOf('tool_started') < types.indexOf('tool_finished'));
      const done = events.at(-1);
      assert.equal(done?.type, 'done');
      if (done?.type === 'done') {
        assert.equal(done.response.message, 'All done: the echo worked and returned the streamed message.');
        assert.equal(done.response.toolCalls.length, 1);
      }
      assert.equal(h.server.requests.every((r) => r.streamed), true);
    });

    it('runs read tools of one turn in parallel', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(
        kind,
        [toolReply([{ name: 'a', input: { ms: 150 } }, { name: 'b', input: { ms: 150 } }]), textReply('both')],
        { tools: [new WaitTool(log, 'a'), new WaitTool(log, 'b')] },
      );
      await h.agent.processRequest('wait twice');
      const starts = log.filter((e) => e.phase === 'start');
      const firstEnd = log.find((e) => e.phase === 'end');
      assert.equal(starts.length, 2);
      assert.ok(starts.every((s) => s.at < firstEnd!.at), 'both read tools started before either ended');
    });

    it('keeps only the newest screenshots in the history it sends, stubbing older ones a batch at a time', async () => {
      h = await startHarness(
        kind,
        [1, 2, 3, 4, 5, 6].map(() => toolReply([{ name: 'snap', input: {} }])).concat([textReply('seen')]),
        { tools: [new SnapTool()], keepScreenshots: 2 },
      );
      await h.agent.processRequest('look six times');
      const shots = (body: string): number => (body.match(/iVBORw0KGgo/g) ?? []).length;
      // Keep 2 plus a batch of 3: the fifth screenshot is still sent whole, the sixth prunes down to 2.
      assert.equal(shots(h.server.requests[5]!.rawBody), 5);
      const last = h.server.requests.at(-1)!.rawBody;
      assert.equal(shots(last), 2);
      assert.equal(last.split(SCREENSHOT_STUB).length - 1, 4);
    });

    it('retries a transient read failure and reports the recovery', async () => {
      const flaky = new FlakyTool(1);
      h = await startHarness(kind, [toolReply([{ name: 'flaky', input: {} }]), textReply('ok')], { tools: [flaky] });
      const response = await h.agent.processRequest('try');
      assert.equal(flaky.calls, 2);
      assert.equal(response.toolCalls[0]?.result.success, true);
      assert.equal(h.runtime.replanner.stats().recovered, 1);
    });

    it('aborts when the model repeats the same failing call', async () => {
      h = await startHarness(kind, () => toolReply([{ name: 'press', input: { label: 42 } }]), {});
      const response = await h.agent.processRequest('press');
      assert.equal(response.stopReason, 'aborted');
      assert.equal(h.server.requestCount, 3);
      assert.match(response.message, /\[Stopped: press failed 3 times/);
      assert.deepEqual(h.agent.conversation.problems(), []);
    });
  });
}
