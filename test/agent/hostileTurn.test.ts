import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import type { AgentEvent } from '../../src/agent/agentEvents';
import type { ToolCall } from '../../src/model/messages';
import { ToolRuntime, type ExecutionHooks, type TurnOutcome } from '../../src/runtime/toolRuntime';
import { MAX_RESULT_TEXT_CHARS } from '../../src/tools/toolResult';
import { PROVIDER_KINDS, startHarness, toolResultsSent, type Harness } from '../support/agentHarness';
import { RawJsonInput, textReply, toolReply } from '../support/scriptedSteps';
import { PressTool, type ToolEvent } from '../support/testTools';

// A model turn full of hostile calls, through the real SDKs over HTTP: every call gets one
// coded result, the action that ran is reported as run, and the session goes on.

const DEEP = new RawJsonInput(`{"message":${'['.repeat(5_000)}1${']'.repeat(5_000)}}`);
const MEGABYTE = 'M'.repeat(1_000_000);

function hostileTurn() {
  return toolReply([
    { name: 'press', input: { label: 'OK' } },
    { name: 'echo', input: DEEP },
    { name: `huge${'n'.repeat(100_000)}`, input: {} },
    { name: 'echo', input: { message: MEGABYTE } },
    { name: 'echo', input: { message: '\u202e\ud800\u0000 odd' } },
  ]);
}

/** Runs the first call of a turn, then fails the way a stack overflow would. */
class BrokenRuntime extends ToolRuntime {
  override async executeTurn(calls: ToolCall[], signal: AbortSignal, hooks: ExecutionHooks = {}): Promise<TurnOutcome> {
    await super.executeTurn(calls.slice(0, 1), signal, hooks);
    throw new RangeError('Maximum call stack size exceeded');
  }
}

for (const kind of PROVIDER_KINDS) {
  describe(`hostile tool calls in one turn (${kind} provider)`, function () {
    this.timeout(30_000);
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    async function run(agentInput: string, onEvent?: (event: AgentEvent) => void): Promise<AgentEvent[]> {
      const events: AgentEvent[] = [];
      for await (const event of h!.agent.streamRequest(agentInput)) {
        events.push(event);
        onEvent?.(event);
      }
      return events;
    }

    it('answers every call with one bounded, coded result; the action that ran is reported; history stays small and valid', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [hostileTurn(), textReply('done'), textReply('still here')], { tools: [new PressTool(log)] });
      const events = await run('go');
      const done = events.at(-1);
      assert.equal(done?.type === 'done' && done.response.stopReason, 'end_turn', JSON.stringify(events.filter((e) => e.type === 'error')));
      assert.deepEqual(log.map((e) => e.phase), ['start', 'end'], 'the press ran once');

      const sent = toolResultsSent(kind, h.server.requests[1]!.body);
      assert.equal(sent.length, 5, 'one result per call');
      const parsed = sent.map((r) => JSON.parse(r.text) as { success: boolean; code?: string; error?: string });
      assert.equal(parsed[0]?.success, true, 'the press is reported as done');
      assert.equal(parsed[1]?.code, 'INVALID_INPUT');
      assert.match(parsed[1]?.error ?? '', /input\.message\[0\]\[0\].*: nested deeper than 32 levels/);
      assert.equal(parsed[2]?.code, 'NOT_FOUND');
      assert.equal(parsed[3]?.code, 'INVALID_INPUT');
      assert.match(parsed[3]?.error ?? '', /input\.message: text of 1000000 characters is longer than the limit of 20000/);
      assert.equal(parsed[4]?.success, true);
      for (const r of sent) assert.ok(r.text.length <= MAX_RESULT_TEXT_CHARS);
      assert.ok(h.server.requests[1]!.rawBody.length < 60_000, `the next request is small: ${h.server.requests[1]!.rawBody.length}`);
      assert.deepEqual(h.agent.conversation.problems(), []);

      const next = await h.agent.processRequest('and now?');
      assert.equal(next.message, 'still here', 'the session goes on');
    });

    it('a listener that throws on every event neither ends the turn nor loses a result', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'press', input: { label: 'A' } }, { name: 'echo', input: { message: 'hi' } }]), textReply('ok')], {
        tools: [new PressTool(log)],
      });
      h.agent.onEvent(() => {
        throw new RangeError('Maximum call stack size exceeded');
      });
      const response = await h.agent.processRequest('go');
      assert.equal(response.stopReason, 'end_turn');
      assert.deepEqual(response.toolCalls.map((c) => c.result.success), [true, true]);
      const sent = toolResultsSent(kind, h.server.requests[1]!.body).map((r) => JSON.parse(r.text) as { success: boolean });
      assert.deepEqual(sent.map((r) => r.success), [true, true], 'the model hears that both ran');
      assert.ok(h.logger.lines.some((l) => l.includes('an event listener failed on tool_started')));
    });

    it('should the runtime itself fail mid-turn, the action that ran is still reported and every other call gets a coded FAILED', async () => {
      const log: ToolEvent[] = [];
      h = await startHarness(kind, [toolReply([{ name: 'press', input: { label: 'A' } }, { name: 'echo', input: { message: 'hi' } }]), textReply('ok')], {
        tools: [new PressTool(log)],
      });
      const agent = new Agent(h.llm, new BrokenRuntime(h.runtime.registry, { autoApprove: ['read', 'action'] }), { logger: h.logger });
      const response = await agent.processRequest('go');
      assert.equal(response.stopReason, 'end_turn');
      assert.deepEqual(log.map((e) => e.phase), ['start', 'end']);
      const sent = toolResultsSent(kind, h.server.requests[1]!.body).map((r) => JSON.parse(r.text) as { success: boolean; code?: string; error?: string });
      assert.equal(sent[0]?.success, true, 'the press that ran is reported as done, not "not run"');
      assert.equal(sent[1]?.code, 'FAILED');
      assert.match(sent[1]?.error ?? '', /echo gave no result: Maximum call stack size exceeded/);
      assert.deepEqual(agent.conversation.problems(), []);
    });
  });
}
