import { strict as assert } from 'node:assert';
import type { Message, TokenUsage } from '../../src/model/messages';
import { LlmManager } from '../../src/model/llmManager';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply } from '../support/scriptedSteps';

const ask = (text: string): Message[] => [{ role: 'user', content: [{ type: 'text', text }] }];

describe('LlmManager onUsage: every model call is counted in one place', () => {
  let server: ScriptedMessagesServer;
  afterEach(async () => server?.close());

  it('reports conversation turns (sent and streamed) and stateless calls, each with its own tokens', async () => {
    server = await ScriptedMessagesServer.start([
      textReply('one', { inputTokens: 11, outputTokens: 1 }),
      textReply('two', { inputTokens: 22, outputTokens: 2 }),
      textReply('three', { inputTokens: 33, outputTokens: 3 }),
    ]);
    const seen: TokenUsage[] = [];
    const provider = new AnthropicProvider({ provider: 'anthropic', model: 'test-model', apiKey: 'test', baseUrl: server.baseUrl, maxRetries: 0 });
    const llm = new LlmManager({ default: provider }, { onUsage: (usage) => seen.push(usage) });
    await llm.send({ messages: ask('hi'), tools: [] });
    for await (const _chunk of llm.stream({ messages: ask('again'), tools: [] })) {
      // drained
    }
    // The conversation is the caller's: the manager sends what it is given and adds nothing.
    assert.deepEqual(
      server.requests.map((request) => (request.body.messages as unknown[]).length),
      [1, 1],
    );
    // A screen reader's call: outside the history, still counted.
    await llm.sendWithMode('fast', [{ role: 'user', content: [{ type: 'text', text: 'what is on screen?' }] }]);
    assert.deepEqual(
      seen.map((usage) => [usage.inputTokens, usage.outputTokens]),
      [
        [11, 1],
        [22, 2],
        [33, 3],
      ],
    );
    assert.equal(llm.usage.session.inputTokens, 66);
  });

  it('a stream cancelled mid-answer counts the prompt it was billed for', async () => {
    server = await ScriptedMessagesServer.start([{ ...textReply('a long answer that is cut short', { inputTokens: 1_234, outputTokens: 50 }), chunkDelayMs: 50 }]);
    const seen: TokenUsage[] = [];
    const provider = new AnthropicProvider({ provider: 'anthropic', model: 'test-model', apiKey: 'test', baseUrl: server.baseUrl, maxRetries: 0 });
    const llm = new LlmManager({ default: provider }, { onUsage: (usage) => seen.push(usage) });
    const abort = new AbortController();
    await assert.rejects(async () => {
      for await (const chunk of llm.stream({ messages: ask('hi'), tools: [], signal: abort.signal })) {
        if (chunk.type === 'text') abort.abort();
      }
    });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.inputTokens, 1_234);
    assert.equal(llm.usage.session.inputTokens, 1_234);
  });
});
