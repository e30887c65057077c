import { strict as assert } from 'node:assert';
import { isGaiError } from '../../src/common/errors';
import type { LlmStreamChunk, Message } from '../../src/model/messages';
import { toAnthropicMessages, toAnthropicTools } from '../../src/model/providers/anthropicMessages';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply } from '../support/scriptedSteps';
import { TINY_PNG } from '../support/testTools';

const tools = [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'object' as const, properties: { message: { type: 'string' } } } }];

describe('Anthropic provider', function () {
  let server: ScriptedMessagesServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const provider = (extra: { maxRetries?: number; timeoutMs?: number } = {}): AnthropicProvider =>
    new AnthropicProvider({ provider: 'anthropic', model: 'claude-test', apiKey: 'test', baseUrl: server!.baseUrl, ...extra });

  it('converts tool results with images to image blocks, not base64 text', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'look' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'snap', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 't1',
            isError: false,
            content: [
              { type: 'text', text: '{"success":true}' },
              { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: TINY_PNG } },
            ],
          },
        ],
      },
    ];
    const wire = toAnthropicMessages(messages);
    const result = wire[2]!.content[0] as unknown as { type: string; tool_use_id: string; content: Array<{ type: string; source?: { media_type: string } }> };
    assert.equal(result.type, 'tool_result');
    assert.equal(result.tool_use_id, 't1');
    assert.deepEqual(result.content.map((c) => c.type), ['text', 'image']);
    assert.equal(result.content[1]?.source?.media_type, 'image/png');
  });

  it('marks the stable prefix and the newest block for prompt caching', () => {
    const wire = toAnthropicMessages([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
    const blocks = wire[0]!.content as Array<{ cache_control?: unknown }>;
    assert.equal(blocks[0]?.cache_control, undefined);
    assert.deepEqual(blocks[1]?.cache_control, { type: 'ephemeral' });
    const wireTools = toAnthropicTools([...tools, { ...tools[0]!, name: 'other' }]);
    assert.equal(wireTools[0]?.cache_control, undefined);
    assert.deepEqual(wireTools[1]?.cache_control, { type: 'ephemeral' });
  });

  it('sends and parses a tool call with usage', async () => {
    server = await ScriptedMessagesServer.start([toolReply([{ name: 'echo', input: { message: 'x' } }], 'calling', { inputTokens: 7, outputTokens: 3 })]);
    const response = await provider().send({ system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools });
    assert.equal(response.content, 'calling');
    assert.equal(response.stopReason, 'tool_use');
    assert.deepEqual(response.toolCalls[0]?.input, { message: 'x' });
    assert.deepEqual(response.usage, { inputTokens: 7, outputTokens: 3 });
    const body = server.requests[0]!.body;
    assert.equal((body.system as Array<{ text: string }>)[0]?.text, 'sys');
    assert.equal(body.max_tokens, 4096);
  });

  it('streams text deltas and a complete tool call', async () => {
    server = await ScriptedMessagesServer.start([toolReply([{ name: 'echo', input: { message: 'a longer message to split' } }], 'I will call the echo tool for you now.')]);
    const chunks: LlmStreamChunk[] = [];
    for await (const chunk of provider().stream({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools })) chunks.push(chunk);
    const text = chunks.filter((c) => c.type === 'text');
    assert.ok(text.length > 1);
    const call = chunks.find((c) => c.type === 'tool_use');
    assert.deepEqual(call?.type === 'tool_use' && call.toolCall.input, { message: 'a longer message to split' });
    const end = chunks.at(-1);
    assert.equal(end?.type, 'end');
    if (end?.type === 'end') assert.equal(end.response.content, 'I will call the echo tool for you now.');
  });

  it('gives up on a persistent overload after the SDK retries, as LLM_OVERLOADED', async () => {
    const overloaded = { kind: 'error' as const, status: 529, headers: { 'retry-after-ms': '1' } };
    server = await ScriptedMessagesServer.start([overloaded, overloaded, overloaded]);
    await assert.rejects(provider().send({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }), (e: unknown) =>
      isGaiError(e, 'LLM_OVERLOADED'),
    );
    assert.equal(server.requestCount, 3);
  });

  it('times out a hanging request as LLM_TIMEOUT', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'hang' }]);
    await assert.rejects(
      provider({ timeoutMs: 100, maxRetries: 0 }).send({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }),
      (e: unknown) => isGaiError(e, 'LLM_TIMEOUT'),
    );
  });

  it('refuses to start without an API key, naming the variable', () => {
    assert.throws(() => new AnthropicProvider({ provider: 'anthropic', model: 'm' }), /ANTHROPIC_API_KEY/);
  });

  it('sends plain text replies through the retry of a dropped connection', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'drop' }, textReply('second try')]);
    const response = await provider().send({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] });
    assert.equal(response.content, 'second try');
  });
});
