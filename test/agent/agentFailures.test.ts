import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { GaiError, isGaiError } from '../../src/common/errors';
import { PROVIDER_KINDS, startHarness, toolResultsSent, type Harness } from '../support/agentHarness';
import { textReply, toolReply } from '../support/scriptedSteps';
import { CrashTool, PressTool, WaitTool, type ToolEvent } from '../support/testTools';

const LONG_TEXT = 'This reply is long enough to arrive in many small pieces over the stream. '.repeat(4);

for (const kind of PROVIDER_KINDS) {
  describe(`agent cancel and failures (${kind} provider)`, function () {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('cancels during the stream and keeps a valid history', async () => {
      h = await startHarness(kind, [{ kind: 'reply', blocks: [{ type: 'text', text: LONG_TEXT }], chunkDelayMs: 50 }, textReply('fresh start')]);
      const events: AgentEvent[] = [];
      for await (const event of h.agent.streamRequest('talk')) {
        events.push(event);
        if (event.type === 'text_delta') h.agent.cancel();
      }
      const done = events.at(-1);
      assert.equal(done?.type, 'done');
      if (done?.type === 'done') assert.equal(done.response.stopReason, 'cancelled');
      await h.server.settled();
      assert.equal(h.server.requests[0]?.aborted, true, 'the HTTP request was aborted');
      assert.deepEqual(h.agent.conversation.problems(), []);
      // The agent keeps the text that arrived, marked as cut off, and no partial call.
      const kept = h.agent.conversation.messages[1];
      assert.equal(kept?.role, 'assistant');
      assert.match(kept?.content[0]?.type === 'text' ? kept.content[0].text : '', /^This reply.* \[interrupted\]$/s);
      const next = await h.agent.processRequest('again');
      assert.equal(next.message, 'fresh start');
      assert.deepEqual(h.agent.conversation.problems(), []);
    });

    it('two agents on one model manager keep their own conversations; the manager counts both', async () => {
      h = await startHarness(kind, [textReply('first'), textReply('second')]);
      const other = new Agent(h.llm, h.runtime, { logger: h.logger });
      await h.agent.processRequest('one');
      await other.processRequest('two');
      const second = h.server.requests[1]!.body.messages as unknown[];
      assert.equal(second.filter((m) => (m as { role?: string }).role !== 'system').length, 1, 'the second agent sends only its own request');
      assert.equal(h.agent.conversation.length, 2);
      assert.equal(other.conversation.length, 2);
      assert.equal(h.llm.usage.requests, 2);
      other.startSession();
      assert.equal(other.conversation.length, 0);
      assert.equal(h.agent.conversation.length, 2, 'a new session of one agent leaves the other history alone');
    });

    it('cancels during a tool: the tool stops and its call is answered', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'wait', input: { ms: 10_000 } }, { name: 'echo', input: { message: 'later' } }]), textReply('next')], {
        tools: [new WaitTool(log)],
      });
      h.agent.onEvent((e) => {
        if (e.type === 'tool_started' && e.call.name === 'wait') setTimeout(() => h?.agent.cancel(), 20);
      });
      const started = performance.now();
      const response = await h.agent.processRequest('wait long');
      assert.ok(performance.now() - started < 2_000, 'cancel is prompt');
      assert.equal(response.stopReason, 'cancelled');
      assert.deepEqual(log.map((e) => e.phase), ['start', 'aborted']);
      assert.equal(response.toolCalls[0]?.result.code, 'CANCELLED');
      assert.deepEqual(h.agent.conversation.problems(), []);
      await h.agent.processRequest('go on');
      const answered = toolResultsSent(kind, h.server.requests[1]!.body);
      assert.equal(answered.length, 2, 'both calls of the cancelled turn are answered in the next request');
      // echo is a read tool and ran beside wait; only wait was cut short.
      assert.deepEqual(answered.map((a) => JSON.parse(a.text).code ?? 'ok'), ['CANCELLED', 'ok']);
    });

    it('cancels while an approval is pending without running the action', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'press', input: { label: 'Go' } }])], {
        tools: [new PressTool(log)],
        autoApprove: ['read'],
        requestApproval: () => new Promise(() => {}),
      });
      h.agent.onEvent((e) => {
        if (e.type === 'approval_requested') h?.agent.cancel();
      });
      const response = await h.agent.processRequest('press');
      assert.equal(response.stopReason, 'cancelled');
      assert.equal(log.length, 0);
      assert.equal(response.toolCalls[0]?.result.code, 'CANCELLED');
    });

    it('cancels through the caller\'s AbortSignal', async () => {
      h = await startHarness(kind, [{ kind: 'hang' }]);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const response = await h.agent.processRequest('hang', { signal: controller.signal });
      assert.equal(response.stopReason, 'cancelled');
      assert.equal(response.message, '[Cancelled]');
    });

    it('reports a connection dropped mid-stream clearly and stays usable', async () => {
      h = await startHarness(kind, [{ kind: 'drop', afterEvents: 5 }, textReply('recovered')]);
      const events: AgentEvent[] = [];
      await assert.rejects(
        async () => {
          for await (const event of h!.agent.streamRequest('talk')) events.push(event);
        },
        (error: unknown) => isGaiError(error, 'LLM_STREAM_INTERRUPTED') && /connection was lost mid-response/.test(error.message),
      );
      assert.ok(events.some((e) => e.type === 'error'));
      assert.equal(h.agent.running, false);
      assert.deepEqual(h.agent.conversation.problems(), []);
      assert.equal((await h.agent.processRequest('again')).message, 'recovered');
    });

    it('names the endpoint when authentication fails', async () => {
      h = await startHarness(kind, [{ kind: 'error', status: 401, body: kind === 'anthropic' ? { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } : { error: { message: 'Incorrect API key', type: 'invalid_request_error', code: 'invalid_api_key' } } }]);
      await assert.rejects(h.agent.processRequest('hi'), (error: unknown) => {
        assert.ok(error instanceof GaiError);
        assert.equal(error.code, 'LLM_AUTH');
        assert.ok(error.message.includes('127.0.0.1'), error.message);
        return true;
      });
      assert.deepEqual(h.agent.conversation.problems(), []);
    });

    it('leaves no trace of a request the model never answered: sent again, the model sees it once', async () => {
      const refused = kind === 'anthropic' ? { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } : { error: { message: 'Incorrect API key', type: 'invalid_request_error', code: 'invalid_api_key' } };
      h = await startHarness(kind, [textReply('first done'), { kind: 'error', status: 401, body: refused }, textReply('sent once')]);
      await h.agent.processRequest('an earlier request');
      await assert.rejects(h.agent.processRequest('press 7'));
      assert.equal(h.agent.conversation.messages.length, 2, 'the failed request is taken back');
      assert.equal((await h.agent.processRequest('press 7')).message, 'sent once');
      const sent = JSON.stringify(h.server.requests[2]?.body);
      assert.equal(sent.split('press 7').length - 1, 1, 'the request is in the history once');
      assert.ok(sent.includes('an earlier request'), 'the earlier turn stays');
      assert.deepEqual(h.agent.conversation.problems(), []);
    });

    it('refuses a second request while one runs', async () => {
      h = await startHarness(kind, [{ kind: 'hang' }]);
      const first = h.agent.processRequest('one');
      await assert.rejects(h.agent.processRequest('two'), (error: unknown) => isGaiError(error, 'BUSY'));
      h.agent.cancel();
      assert.equal((await first).stopReason, 'cancelled');
    });

    it('turns a crashing tool into a FAILED result and goes on', async () => {
      h = await startHarness(kind, [toolReply([{ name: 'crash', input: {} }]), textReply('it crashed')], { tools: [new CrashTool()] });
      const response = await h.agent.processRequest('crash');
      assert.equal(response.message, 'it crashed');
      const sent = JSON.parse(toolResultsSent(kind, h.server.requests[1]!.body)[0]!.text);
      assert.equal(sent.code, 'FAILED');
      assert.match(sent.error, /Tool execution failed: boom/);
    });
  });
}
