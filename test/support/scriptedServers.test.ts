/**
 * Proves the scripted servers against the real SDKs, over real HTTP on 127.0.0.1,
 * so tests built on them exercise the same parsing, streaming and retry code as production.
 */
import { strict as assert } from 'node:assert';
import * as anthropic from '@anthropic-ai/sdk';
import * as openai from 'openai';
import { ScriptedMessagesServer } from './scriptedMessagesServer';
import { ScriptedChatServer } from './scriptedChatServer';
import { textReply, toolReply } from './scriptedSteps';

const model = 'scripted-test-model';
const tool = { name: 'click', description: 'Click at a point', input_schema: { type: 'object' as const, properties: { x: { type: 'number' }, y: { type: 'number' } } } };
const userTurn = [{ role: 'user' as const, content: 'hello' }];

describe('ScriptedMessagesServer with @anthropic-ai/sdk', () => {
  let server: ScriptedMessagesServer;
  afterEach(async () => server.close());

  const client = (options: { maxRetries?: number } = {}): anthropic.Anthropic =>
    new anthropic.Anthropic({ apiKey: 'test', baseURL: server.baseUrl, ...options });
  const create = (c: anthropic.Anthropic, signal?: AbortSignal) =>
    c.messages.create({ model, max_tokens: 1024, messages: userTurn, tools: [tool] }, signal ? { signal } : {});

  it('answers a non-streaming text reply', async () => {
    server = await ScriptedMessagesServer.start([textReply('Hello there', { inputTokens: 12, outputTokens: 3 })]);
    const message = await create(client());
    assert.equal(message.type, 'message');
    assert.equal(message.model, model);
    assert.deepEqual(message.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['Hello there']);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.input_tokens, 12);
    assert.equal(message.usage.output_tokens, 3);
    const [request] = server.requests;
    assert.equal(request?.path, '/v1/messages');
    assert.equal(request?.streamed, false);
    // SDK 1.x sends the API key as a bearer token, not x-api-key.
    assert.equal(request?.headers.authorization, 'Bearer test');
    assert.ok(request?.headers['anthropic-version']);
    assert.equal(request?.body.model, model);
  });

  it('answers a non-streaming tool_use reply with generated, unique ids', async () => {
    server = await ScriptedMessagesServer.start([
      toolReply([{ name: 'click', input: { x: 1, y: 2 } }, { name: 'click', input: { x: 3, y: 4 } }], 'Clicking'),
    ]);
    const message = await create(client());
    assert.equal(message.stop_reason, 'tool_use');
    const [text, first, second] = message.content;
    assert.equal(text?.type === 'text' && text.text, 'Clicking');
    assert.ok(first?.type === 'tool_use' && second?.type === 'tool_use');
    assert.deepEqual(first.input, { x: 1, y: 2 });
    assert.equal(first.name, 'click');
    assert.match(first.id, /^toolu_/);
    assert.notEqual(first.id, second.id);
  });

  it('streams text in several deltas and tool input as partial JSON', async () => {
    server = await ScriptedMessagesServer.start([
      toolReply([{ id: 'toolu_fixed', name: 'click', input: { x: 10, y: 20, label: 'a longer label to split' } }], 'Let me click that button for you.'),
    ]);
    const stream = client().messages.stream({ model, max_tokens: 1024, messages: userTurn, tools: [tool] });
    const deltas: string[] = [];
    const jsonDeltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const message = await stream.finalMessage();
    assert.ok(deltas.length >= 2, `expected several text deltas, got ${deltas.length}`);
    assert.ok(jsonDeltas.length >= 2, `expected several json deltas, got ${jsonDeltas.length}`);
    assert.equal(deltas.join(''), 'Let me click that button for you.');
    const [text, call] = message.content;
    assert.equal(text?.type === 'text' && text.text, 'Let me click that button for you.');
    assert.ok(call?.type === 'tool_use');
    assert.equal(call.id, 'toolu_fixed');
    assert.deepEqual(call.input, { x: 10, y: 20, label: 'a longer label to split' });
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.usage.output_tokens, 5);
    assert.equal(server.requests[0]?.streamed, true);
  });

  it('retries a 429 through the SDK (retry-after-ms: 0 falls back to ~0.5 s backoff)', async () => {
    server = await ScriptedMessagesServer.start([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '0' } },
      textReply('after retry'),
    ]);
    const message = await create(client());
    assert.equal(message.content[0]?.type === 'text' && message.content[0].text, 'after retry');
    assert.equal(server.requestCount, 2);
  });

  it('retries a 529 at once with retry-after-ms: 1', async () => {
    server = await ScriptedMessagesServer.start([
      { kind: 'error', status: 529, headers: { 'retry-after-ms': '1' } },
      textReply('after overload'),
    ]);
    const started = Date.now();
    await create(client());
    assert.ok(Date.now() - started < 250, 'a positive retry-after-ms should skip the default backoff');
    assert.equal(server.requestCount, 2);
  });

  it('surfaces error bodies in Anthropic shape and makes an exhausted script visible', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'error', status: 400 }]);
    await assert.rejects(create(client()), (err: unknown) => {
      assert.ok(err instanceof anthropic.BadRequestError);
      assert.equal((err.error as { error?: { type?: string } }).error?.type, 'invalid_request_error');
      return true;
    });
    // The exhausted answer says x-should-retry: false, so a default client does not retry it.
    await assert.rejects(create(client()), (err: unknown) => {
      assert.ok(err instanceof anthropic.InternalServerError);
      assert.match(err.message, /script exhausted/);
      return true;
    });
    assert.equal(server.requestCount, 2);
  });

  it('drops a non-streaming request as a connection error', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'drop' }]);
    await assert.rejects(create(client({ maxRetries: 0 })), anthropic.APIConnectionError);
  });

  it('drops a stream after some events and the SDK throws', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'drop', afterEvents: 4 }]);
    const stream = client().messages.stream({ model, max_tokens: 1024, messages: userTurn });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    await assert.rejects(stream.finalMessage());
    assert.equal(deltas.length, 1, 'message_start, ping, content_block_start and one delta arrived');
    assert.equal(server.requests[0]?.aborted, false);
  });

  it('hangs until the client aborts, and records the abort', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = create(client(), controller.signal);
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, anthropic.APIUserAbortError);
    await server.settled();
    assert.equal(server.requests[0]?.aborted, true);
  });

  it('lets a client cancel mid-stream with chunkDelayMs', async () => {
    server = await ScriptedMessagesServer.start([{ ...textReply('one two three four five six seven eight nine ten'), chunkDelayMs: 50 }]);
    const stream = client().messages.stream({ model, max_tokens: 1024, messages: userTurn });
    stream.on('text', () => stream.abort());
    await assert.rejects(stream.finalMessage(), anthropic.APIUserAbortError);
    await server.settled();
    assert.equal(server.requests[0]?.aborted, true);
  });

  it('takes steps from a function and from push()', async () => {
    server = await ScriptedMessagesServer.start((request, index) => textReply(`#${index} for ${String(request.body.model)}`));
    server.push(textReply('pushed first'));
    const c = client();
    const texts = [];
    for (let i = 0; i < 2; i++) {
      const message = await create(c);
      texts.push(message.content[0]?.type === 'text' ? message.content[0].text : '');
    }
    assert.deepEqual(texts, ['pushed first', `#1 for ${model}`]);
    assert.ok(server.serverTimeMs > 0);
  });
});

describe('ScriptedChatServer with openai', () => {
  let server: ScriptedChatServer;
  afterEach(async () => server.close());

  const client = (options: { maxRetries?: number } = {}): openai.OpenAI =>
    new openai.OpenAI({ apiKey: 'test', baseURL: `${server.baseUrl}/v1`, ...options });
  const tools = [{ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.input_schema } }];
  const create = (c: openai.OpenAI, signal?: AbortSignal) =>
    c.chat.completions.create({ model, messages: userTurn, tools }, signal ? { signal } : {});

  it('answers a non-streaming text reply', async () => {
    server = await ScriptedChatServer.start([textReply('Hello there', { inputTokens: 12, outputTokens: 3 })]);
    const completion = await create(client());
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, model);
    assert.equal(completion.choices[0]?.message.content, 'Hello there');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(completion.usage, { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    const [request] = server.requests;
    assert.equal(request?.path, '/v1/chat/completions');
    assert.equal(request?.headers.authorization, 'Bearer test');
    assert.equal(request?.streamed, false);
  });

  it('answers a non-streaming tool call reply', async () => {
    server = await ScriptedChatServer.start([toolReply([{ name: 'click', input: { x: 1, y: 2 } }, { name: 'click', input: { x: 3, y: 4 } }])]);
    const completion = await create(client());
    const choice = completion.choices[0];
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.equal(choice?.message.content, null);
    const [first, second] = choice?.message.tool_calls ?? [];
    assert.ok(first?.type === 'function' && second?.type === 'function');
    assert.match(first.id, /^call_/);
    assert.notEqual(first.id, second.id);
    assert.equal(first.function.name, 'click');
    assert.deepEqual(JSON.parse(first.function.arguments), { x: 1, y: 2 });
  });

  it('streams text and incremental tool call deltas, with a usage chunk on request', async () => {
    const step = toolReply([{ name: 'click', input: { x: 10, y: 20, label: 'a longer label to split' } }], 'Let me click that button for you.');
    server = await ScriptedChatServer.start([step, step]);
    const stream = await client().chat.completions.create({
      model, messages: userTurn, tools, stream: true, stream_options: { include_usage: true },
    });
    let content = '';
    let contentChunks = 0;
    const calls: Array<{ id?: string; name?: string; arguments: string }> = [];
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.delta.content) { content += choice.delta.content; contentChunks++; }
      for (const call of choice.delta.tool_calls ?? []) {
        const slot = (calls[call.index] ??= { arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.arguments += call.function?.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
    assert.equal(content, 'Let me click that button for you.');
    assert.ok(contentChunks >= 2);
    assert.equal(calls.length, 1);
    assert.match(calls[0]?.id ?? '', /^call_/);
    assert.equal(calls[0]?.name, 'click');
    assert.deepEqual(JSON.parse(calls[0]?.arguments ?? ''), { x: 10, y: 20, label: 'a longer label to split' });
    assert.equal(finish, 'tool_calls');
    assert.deepEqual(usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });

    // The SDK's own accumulator is stricter (role, finish_reason, tool call type); it must agree.
    const final = await client().chat.completions.stream({ model, messages: userTurn, tools }).finalChatCompletion();
    assert.equal(final.choices[0]?.message.content, 'Let me click that button for you.');
    assert.equal(final.choices[0]?.message.tool_calls?.[0]?.type === 'function' && final.choices[0].message.tool_calls[0].function.arguments,
      JSON.stringify({ x: 10, y: 20, label: 'a longer label to split' }));
    assert.equal(final.choices[0]?.finish_reason, 'tool_calls');
  });

  it('retries a 429 with retry-after-ms: 0 through the SDK', async () => {
    server = await ScriptedChatServer.start([
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '0' } },
      textReply('after retry'),
    ]);
    const completion = await create(client());
    assert.equal(completion.choices[0]?.message.content, 'after retry');
    assert.equal(server.requestCount, 2);
  });

  it('surfaces error bodies in OpenAI shape and makes an exhausted script visible', async () => {
    server = await ScriptedChatServer.start([{ kind: 'error', status: 401 }]);
    await assert.rejects(create(client()), (err: unknown) => {
      assert.ok(err instanceof openai.AuthenticationError);
      assert.equal(err.code, 'invalid_api_key');
      return true;
    });
    await assert.rejects(create(client()), (err: unknown) => {
      assert.ok(err instanceof openai.InternalServerError);
      assert.match(err.message, /script exhausted/);
      return true;
    });
    assert.equal(server.requestCount, 2);
  });

  it('drops a non-streaming request as a connection error', async () => {
    server = await ScriptedChatServer.start([{ kind: 'drop' }]);
    await assert.rejects(create(client({ maxRetries: 0 })), openai.APIConnectionError);
  });

  it('drops a stream after some events and the SDK throws', async () => {
    server = await ScriptedChatServer.start([{ kind: 'drop', afterEvents: 2 }]);
    const stream = await client().chat.completions.create({ model, messages: userTurn, stream: true });
    let chunks = 0;
    await assert.rejects(async () => {
      for await (const _chunk of stream) chunks++;
    });
    assert.equal(chunks, 2);
  });

  it('hangs until the client aborts, and records the abort', async () => {
    server = await ScriptedChatServer.start([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = create(client(), controller.signal);
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, openai.APIUserAbortError);
    await server.settled();
    assert.equal(server.requests[0]?.aborted, true);
  });

  it('also serves /chat/completions', async () => {
    server = await ScriptedChatServer.start([textReply('no v1')]);
    const completion = await new openai.OpenAI({ apiKey: 'test', baseURL: server.baseUrl }).chat.completions.create({ model, messages: userTurn });
    assert.equal(completion.choices[0]?.message.content, 'no v1');
    assert.equal(server.requests[0]?.path, '/chat/completions');
  });
});
