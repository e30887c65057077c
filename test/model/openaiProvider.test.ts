import { strict as assert } from 'node:assert';
import { GaiError, type GaiErrorCode } from '../../src/common/errors';
import type { ImageBlock, LlmStreamChunk, Message, ToolDefinition } from '../../src/model/messages';
import type { ProviderConfig } from '../../src/model/modelConfig';
import type { LlmRequest } from '../../src/model/llmProvider';
import {
  ToolCallAccumulator,
  fromChatCompletion,
  mapFinishReason,
  parseToolArguments,
  toChatMessages,
  toChatTools,
} from '../../src/model/providers/openaiMessages';
import { OLLAMA_BASE_URL, OpenAiCompatibleProvider } from '../../src/model/providers/openaiProvider';
import { ScriptedChatServer } from '../support/scriptedChatServer';
import { textReply, toolReply } from '../support/scriptedSteps';

const image: ImageBlock = { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } };

const clickTool: ToolDefinition = {
  name: 'click',
  description: 'Click at a point',
  inputSchema: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
};

/** An assistant turn with two calls, then the user turn with both results (one with a screenshot). */
const toolTurns: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Open the menu' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Looking first.' },
      { type: 'tool_use', id: 'call_a', name: 'screenshot', input: {} },
      { type: 'tool_use', id: 'call_b', name: 'click', input: { x: 1, y: 2 } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Also: hurry.' },
      { type: 'tool_result', toolUseId: 'call_a', content: [{ type: 'text', text: 'Captured.' }, image], isError: false },
      { type: 'tool_result', toolUseId: 'call_b', content: [{ type: 'text', text: 'Clicked' }, { type: 'text', text: 'at 1,2' }], isError: false },
    ],
  },
];

describe('openaiMessages', () => {
  it('puts the system prompt first and sends text-only user turns as a string', () => {
    const out = toChatMessages('Be brief.', [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
    assert.deepEqual(out, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'a\nb' },
    ]);
  });

  it('sends user images as data-URL image_url parts', () => {
    const out = toChatMessages(undefined, [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }]);
    assert.deepEqual(out, [{
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    }]);
  });

  it('converts assistant tool calls and keeps every tool message right after them, images in a user message after', () => {
    const out = toChatMessages(undefined, toolTurns);
    assert.deepEqual(out.map((m) => m.role), ['user', 'assistant', 'tool', 'tool', 'user']);
    assert.deepEqual(out[1], {
      role: 'assistant',
      content: 'Looking first.',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
        { id: 'call_b', type: 'function', function: { name: 'click', arguments: '{"x":1,"y":2}' } },
      ],
    });
    assert.deepEqual(out[2], { role: 'tool', tool_call_id: 'call_a', content: 'Captured.' });
    assert.deepEqual(out[3], { role: 'tool', tool_call_id: 'call_b', content: 'Clicked\nat 1,2' });
    assert.deepEqual(out[4], {
      role: 'user',
      content: [
        { type: 'text', text: 'Image(s) returned by tool call call_a:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'text', text: 'Also: hurry.' },
      ],
    });
  });

  it('adds no user message when tool results carry only text', () => {
    const out = toChatMessages(undefined, [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'click', input: { x: 0, y: 0 } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false }] },
    ]);
    assert.deepEqual(out, [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: '{"x":0,"y":0}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
  });

  it('sends raw arguments back as the model wrote them', () => {
    const out = toChatMessages(undefined, [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'click', input: { _raw: '{"x":1,' } }] },
    ]);
    assert.deepEqual(out[0], {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: '{"x":1,' } }],
    });
  });

  it('converts tools to function form and omits an empty list', () => {
    assert.equal(toChatTools([]), undefined);
    assert.deepEqual(toChatTools([clickTool]), [
      { type: 'function', function: { name: 'click', description: 'Click at a point', parameters: clickTool.inputSchema } },
    ]);
  });

  it('keeps invalid JSON arguments as { _raw } instead of throwing', () => {
    assert.deepEqual(parseToolArguments('{"x": 1'), { _raw: '{"x": 1' });
    assert.deepEqual(parseToolArguments(''), {});
    assert.deepEqual(parseToolArguments('{"x":1}'), { x: 1 });
  });

  it('converts a completion, including invalid arguments, null content and missing usage', () => {
    const completion = {
      id: 'x', object: 'chat.completion', created: 0, model: 'm1',
      choices: [{
        index: 0, logprobs: null, finish_reason: 'tool_calls',
        message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: 'not json' } }] },
      }],
    } as Parameters<typeof fromChatCompletion>[0];
    assert.deepEqual(fromChatCompletion(completion, 'fallback'), {
      content: '',
      toolCalls: [{ id: 'c1', name: 'click', input: { _raw: 'not json' } }],
      stopReason: 'tool_use',
      usage: { inputTokens: 0, outputTokens: 0 },
      model: 'm1',
    });
  });

  it('maps finish reasons', () => {
    assert.equal(mapFinishReason('tool_calls', true), 'tool_use');
    assert.equal(mapFinishReason('stop', false), 'end_turn');
    assert.equal(mapFinishReason('stop', true), 'tool_use'); // Gemini
    assert.equal(mapFinishReason('length', false), 'max_tokens');
    assert.equal(mapFinishReason('content_filter', false), 'refusal');
    assert.equal(mapFinishReason('weird', false), 'other');
    assert.equal(mapFinishReason(null, false), 'other');
  });

  it('assembles streamed tool calls by index, and by id when a server reuses or omits the index', () => {
    const acc = new ToolCallAccumulator();
    assert.deepEqual(acc.add({ index: 0, id: 'c1', type: 'function', function: { name: 'click', arguments: '' } }), []);
    assert.deepEqual(acc.add({ index: 0, function: { arguments: '{"x":' } }), []);
    assert.deepEqual(acc.add({ index: 0, function: { arguments: '1}' } }), []);
    // A later index completes the earlier call.
    assert.deepEqual(acc.add({ index: 1, id: 'c2', function: { name: 'type', arguments: '{}' } }), [{ id: 'c1', name: 'click', input: { x: 1 } }]);
    // Gemini style: index 0 again with a new id is a new call.
    assert.deepEqual(acc.add({ index: 0, id: 'c3', function: { name: 'scroll', arguments: '{"dy":3}' } }), [{ id: 'c2', name: 'type', input: {} }]);
    assert.deepEqual(acc.finish(), [{ id: 'c3', name: 'scroll', input: { dy: 3 } }]);
    assert.deepEqual(acc.all().map((c) => c.id), ['c1', 'c2', 'c3']);

    const noIndex = new ToolCallAccumulator();
    noIndex.add({ id: 'g1', function: { name: 'a', arguments: '{"p":' } } as never);
    noIndex.add({ function: { arguments: '2}' } } as never);
    assert.deepEqual(noIndex.finish(), [{ id: 'g1', name: 'a', input: { p: 2 } }]);
  });
});

describe('OpenAiCompatibleProvider', function () {
  this.timeout(10_000);
  let server: ScriptedChatServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(steps: Parameters<typeof ScriptedChatServer.start>[0], config: Partial<ProviderConfig> = {}): Promise<{ s: ScriptedChatServer; provider: OpenAiCompatibleProvider }> {
    server = await ScriptedChatServer.start(steps);
    const provider = new OpenAiCompatibleProvider({ provider: 'openai', model: 'test-model', baseUrl: `${server.baseUrl}/v1`, ...config });
    return { s: server, provider };
  }

  function ask(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
    return { messages: [{ role: 'user', content: [{ type: 'text', text }] }], tools: [], ...extra };
  }

  async function collect(iterable: AsyncIterable<LlmStreamChunk>): Promise<LlmStreamChunk[]> {
    const out: LlmStreamChunk[] = [];
    for await (const chunk of iterable) out.push(chunk);
    return out;
  }

  async function rejectsWith(promise: Promise<unknown>, code: GaiErrorCode, pattern?: RegExp): Promise<GaiError> {
    let caught: unknown;
    try {
      await promise;
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof GaiError, `expected GaiError ${code}, got ${String(caught)}`);
    assert.equal(caught.code, code, caught.message);
    if (pattern) assert.match(caught.message, pattern);
    return caught;
  }

  it('sends a text request', async () => {
    const { s, provider } = await start([textReply('Hello there', { inputTokens: 12, outputTokens: 3 })]);
    const response = await provider.send(ask('Hi', { system: 'Be brief.', maxTokens: 100, temperature: 0.2 }));
    assert.deepEqual(response, {
      content: 'Hello there',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { inputTokens: 12, outputTokens: 3 },
      model: 'test-model',
    });
    const body = s.requests[0]?.body;
    assert.deepEqual(body?.messages, [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
    assert.equal(body?.max_tokens, 100);
    assert.equal(body?.temperature, 0.2);
    assert.equal('tools' in (body ?? {}), false, 'an empty tool list is omitted');
    assert.equal(provider.providerName, 'openai');
  });

  it('sends a request that gets a tool call back', async () => {
    const { s, provider } = await start([toolReply([{ name: 'click', input: { x: 5, y: 6 } }])]);
    const response = await provider.send(ask('Click it', { tools: [clickTool] }));
    assert.equal(response.stopReason, 'tool_use');
    assert.equal(response.content, '');
    assert.equal(response.toolCalls.length, 1);
    assert.equal(response.toolCalls[0]?.name, 'click');
    assert.deepEqual(response.toolCalls[0]?.input, { x: 5, y: 6 });
    assert.match(response.toolCalls[0]?.id ?? '', /^call_/);
    assert.deepEqual(s.requests[0]?.body.tools, toChatTools([clickTool]));
  });

  it('streams text in pieces and a tool call, then the complete response', async () => {
    const text = 'I will click the menu button in the top left corner.';
    const { s, provider } = await start([toolReply([{ id: 'call_menu', name: 'click', input: { x: 10, y: 20 } }], text, { inputTokens: 40, outputTokens: 17 })]);
    const chunks = await collect(provider.stream(ask('Open the menu', { tools: [clickTool] })));

    const deltas = chunks.flatMap((c) => (c.type === 'text' ? [c.text] : []));
    assert.ok(deltas.length > 1, 'text arrives in more than one delta');
    assert.equal(deltas.join(''), text);
    const toolChunks = chunks.filter((c) => c.type === 'tool_use');
    assert.deepEqual(toolChunks, [{ type: 'tool_use', toolCall: { id: 'call_menu', name: 'click', input: { x: 10, y: 20 } } }]);
    assert.equal(chunks.filter((c) => c.type === 'end').length, 1);
    const last = chunks.at(-1);
    assert.equal(last?.type, 'end');
    if (last?.type !== 'end') return;
    assert.deepEqual(last.response, {
      content: text,
      toolCalls: [{ id: 'call_menu', name: 'click', input: { x: 10, y: 20 } }],
      stopReason: 'tool_use',
      usage: { inputTokens: 40, outputTokens: 17 },
      model: 'test-model',
    });
    assert.equal(s.requests[0]?.body.stream, true);
    assert.deepEqual(s.requests[0]?.body.stream_options, { include_usage: true });
  });

  it('sends tool definitions in function form and tool messages right after the assistant turn', async () => {
    const { s, provider } = await start([textReply('Done.')]);
    await collect(provider.stream({ system: 'sys', messages: toolTurns, tools: [clickTool] }));
    const body = s.requests[0]?.body;
    assert.deepEqual(body?.tools, [{
      type: 'function',
      function: { name: 'click', description: 'Click at a point', parameters: clickTool.inputSchema },
    }]);
    const messages = body?.messages as Array<{ role: string; tool_call_id?: string }>;
    assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    assert.deepEqual(messages.slice(3, 5).map((m) => m.tool_call_id), ['call_a', 'call_b']);
  });

  it('retries a 429 with retry-after-ms: 0 and then succeeds', async () => {
    const { s, provider } = await start([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '0' } },
      textReply('after the retry'),
    ]);
    const response = await provider.send(ask('Hi'));
    assert.equal(response.content, 'after the retry');
    assert.equal(s.requests.length, 2);
  });

  it('maps 429 after the retries run out to LLM_RATE_LIMITED', async () => {
    const { provider } = await start([{ kind: 'error', status: 429, headers: { 'retry-after-ms': '0' } }], { maxRetries: 0 });
    await rejectsWith(provider.send(ask('Hi')), 'LLM_RATE_LIMITED', /429/);
  });

  it('maps 401 to LLM_AUTH, naming provider, base URL and status', async () => {
    const { s, provider } = await start([{ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key', type: 'invalid_request_error' } } }]);
    const err = await rejectsWith(provider.send(ask('Hi')), 'LLM_AUTH');
    assert.equal(err.message, `openai at ${s.baseUrl}/v1: 401 Incorrect API key`);
    assert.ok(err.cause instanceof Error);
  });

  it('maps other statuses: 503 overloaded, 400 bad request, 500 server', async () => {
    const { provider } = await start([
      { kind: 'error', status: 503 },
      { kind: 'error', status: 400 },
      { kind: 'error', status: 500 },
    ], { maxRetries: 0 });
    await rejectsWith(provider.send(ask('Hi')), 'LLM_OVERLOADED', /503/);
    await rejectsWith(provider.send(ask('Hi')), 'LLM_BAD_REQUEST', /400/);
    await rejectsWith(provider.send(ask('Hi')), 'LLM_SERVER', /500/);
  });

  it('maps a connection dropped mid-stream to LLM_STREAM_INTERRUPTED after the text so far', async () => {
    const { provider } = await start([{ kind: 'drop', afterEvents: 3 }]);
    const seen: LlmStreamChunk[] = [];
    const run = async (): Promise<void> => {
      for await (const chunk of provider.stream(ask('Hi'))) seen.push(chunk);
    };
    await rejectsWith(run(), 'LLM_STREAM_INTERRUPTED', /connection was lost mid-response/);
    assert.ok(seen.some((c) => c.type === 'text'), 'text before the drop was yielded');
    assert.ok(!seen.some((c) => c.type === 'end'));
  });

  it('maps a connection dropped before any byte to LLM_CONNECTION', async () => {
    const { provider } = await start([{ kind: 'drop' }], { maxRetries: 0 });
    await rejectsWith(provider.send(ask('Hi')), 'LLM_CONNECTION', /cannot connect/);
  });

  it('maps an abort during a hang to LLM_CANCELLED (send and stream)', async () => {
    const { s, provider } = await start([{ kind: 'hang' }, { kind: 'hang' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await rejectsWith(provider.send(ask('Hi', { signal: controller.signal })), 'LLM_CANCELLED');

    const second = new AbortController();
    setTimeout(() => second.abort(), 100);
    await rejectsWith(collect(provider.stream(ask('Hi', { signal: second.signal }))), 'LLM_CANCELLED');
    await s.settled();
    assert.equal(s.requests.length, 2, 'a cancel is not retried');
    assert.ok(s.requests.every((r) => r.aborted));
  });

  it('maps an abort mid-stream to LLM_CANCELLED', async () => {
    const { provider } = await start([{ ...textReply('one two three four five six seven eight nine ten eleven twelve'), chunkDelayMs: 50 }]);
    const controller = new AbortController();
    const run = async (): Promise<void> => {
      for await (const chunk of provider.stream(ask('Hi', { signal: controller.signal }))) {
        if (chunk.type === 'text') controller.abort();
      }
    };
    await rejectsWith(run(), 'LLM_CANCELLED');
  });

  it('maps a request timeout to LLM_TIMEOUT', async () => {
    const { provider } = await start([{ kind: 'hang' }], { timeoutMs: 150, maxRetries: 0 });
    await rejectsWith(provider.send(ask('Hi')), 'LLM_TIMEOUT');
  });

  it('applies presets and requires keys where the service does', () => {
    const ollama = new OpenAiCompatibleProvider({ provider: 'ollama', model: 'llava' });
    assert.equal(ollama.baseUrl, OLLAMA_BASE_URL);
    assert.equal(ollama.providerName, 'ollama');
    const google = new OpenAiCompatibleProvider({ provider: 'google', model: 'gemini-2.5-flash', apiKey: 'k' });
    assert.equal(google.baseUrl, 'https://generativelanguage.googleapis.com/v1beta/openai/');
    assert.throws(() => new OpenAiCompatibleProvider({ provider: 'openai', model: 'gpt-4o' }), (err: unknown) =>
      err instanceof GaiError && err.code === 'CONFIG' && /OPENAI_API_KEY/.test(err.message) && /--api-key/.test(err.message));
    assert.throws(() => new OpenAiCompatibleProvider({ provider: 'google', model: 'g' }), (err: unknown) => err instanceof GaiError && err.code === 'CONFIG');
    // A local server behind a base URL needs no key.
    assert.doesNotThrow(() => new OpenAiCompatibleProvider({ provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:1234/v1' }));
  });

  it('uses the injected fetch', async () => {
    const { s } = await start([textReply('via custom fetch')]);
    let calls = 0;
    const countingFetch: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const provider = new OpenAiCompatibleProvider({ provider: 'openai', model: 'm', baseUrl: `${s.baseUrl}/v1` }, { fetch: countingFetch });
    assert.equal((await provider.send(ask('Hi'))).content, 'via custom fetch');
    assert.equal(calls, 1);
  });
});
