import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import { GaiError } from '../../src/common/errors';
import { LlmManager } from '../../src/model/llmManager';
import { EchoTool } from '../../src/tools/echoTool';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { wordError } from '../../src/vscode/setup/errorWording';
import { NO_CHAT_MODEL } from '../../src/vscode/lm/lmErrors';
import { VscodeLmProvider } from '../../src/vscode/lm/vscodeLmProvider';
import { ChatMessage, FakeChatModel, FakeLanguageModelError, fakeHost, TextPart, ToolCallPart, ToolResultPart } from './lmFakes';

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }], tools: [] });

async function failure(promise: Promise<unknown>): Promise<GaiError> {
  return promise.then(
    () => assert.fail('expected a failure'),
    (error: unknown) => {
      assert.ok(error instanceof GaiError, `a GaiError, got ${String(error)}`);
      return error;
    },
  );
}

describe('vscode-lm provider (VS Code chat models as GAI\'s LLM provider)', () => {
  it('runs the agent: a streamed tool call is executed and its result goes back as a ToolResultPart, tokens counted by the model', async () => {
    const model = new FakeChatModel('copilot-gpt', 'gpt-test', [
      [new TextPart('Echoing. '), new ToolCallPart('call_A', 'echo', { message: 'seven' })],
      [new TextPart('Done: the echo said seven.')],
    ]);
    const host = fakeHost([model]);
    const registry = new ToolRegistry();
    registry.register(new EchoTool());
    const agent = new Agent(new LlmManager({ default: new VscodeLmProvider(host) }, { system: 'Work the desktop.' }), new ToolRuntime(registry));
    const response = await agent.processRequest('echo seven');

    assert.equal(response.message.trim().endsWith('Done: the echo said seven.'), true, response.message);
    assert.equal(response.toolCalls.length, 1);
    assert.equal(response.toolCalls[0]!.result.success, true);
    assert.equal(model.sent.length, 2);
    const first = model.sent[0]!;
    assert.equal(first.options?.toolMode, 1, 'toolMode Auto');
    assert.deepEqual(first.options?.tools?.map((t) => t.name), ['echo']);
    assert.deepEqual((first.messages[0]!.content as TextPart[]).map((p) => p.value), ['Work the desktop.', 'echo seven']);
    const second = model.sent[1]!.messages;
    assert.deepEqual(second.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual(second[1]!.content[1], new ToolCallPart('call_A', 'echo', { message: 'seven' }));
    const result = second[2]!.content[0] as ToolResultPart;
    assert.ok(result instanceof ToolResultPart);
    assert.equal(result.callId, 'call_A');
    assert.match((result.content[0] as TextPart).value, /seven/);
    // Tokens come from model.countTokens (one per word in the fake): 3 words in, "Echoing." + the call out.
    const usage = agent.llm.usage;
    assert.equal(usage.requests, 2);
    assert.equal(usage.session.inputTokens > 3, true);
    assert.equal(usage.lastRequest.outputTokens, 5, 'Done: the echo said seven.');
    assert.equal(host.sources.every((s) => s.disposed), true, 'every token source is disposed');
  });

  it('chooses the model gai.model.default names by id or family, else the chat\'s, else the first', async () => {
    const a = new FakeChatModel('model-a', 'fam-a', [[new TextPart('A')]]);
    const b = new FakeChatModel('model-b', 'fam-b', [[new TextPart('B')], [new TextPart('B')]]);
    const c = new FakeChatModel('model-c', 'fam-c', [[new TextPart('C')]]);
    const host = fakeHost([a, b]);
    assert.equal((await new VscodeLmProvider(host, { model: 'model-b' }).send(ask('x'))).model, 'model-b');
    assert.equal((await new VscodeLmProvider(host, { model: 'fam-b' }).send(ask('x'))).content, 'B');
    assert.equal((await new VscodeLmProvider(host, { preferred: c as never }).send(ask('x'))).model, 'model-c');
    assert.equal((await new VscodeLmProvider(host).send(ask('x'))).model, 'model-a');
    const unknown = await failure(new VscodeLmProvider(host, { model: 'gpt-9' }).send(ask('x')));
    assert.equal(unknown.code, 'CONFIG');
    assert.match(unknown.message, /gai\.model\.default.*"gpt-9".*model-a \(family fam-a\), model-b \(family fam-b\)/);
  });

  it('fails clearly when VS Code offers no chat model, with a link to gai.provider', async () => {
    const error = await failure(new VscodeLmProvider(fakeHost([])).send(ask('hi')));
    assert.equal(error.code, 'CONFIG');
    assert.equal(error.message, NO_CHAT_MODEL);
    const worded = wordError(error, { provider: 'vscode-lm', attempts: 1 });
    assert.equal(worded.text, NO_CHAT_MODEL);
    assert.deepEqual(worded.actions, [{ kind: 'openSetting', setting: 'gai.provider' }]);
  });

  it('maps LanguageModelError codes to typed errors in plain words', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['NoPermissions', 'LLM_AUTH', /did not let GAI use the model m \(test\): allow GAI/],
      ['Blocked', 'LLM_RATE_LIMITED', /blocked the request.*quota/],
      ['NotFound', 'CONFIG', /not available in VS Code any more/],
      ['Unknown', 'LLM_SERVER', /The VS Code model m \(test\) failed: boom/],
    ];
    for (const [code, gaiCode, words] of cases) {
      const model = new FakeChatModel('m', 'f', [new FakeLanguageModelError('boom', code)]);
      const error = await failure(new VscodeLmProvider(fakeHost([model])).send(ask('hi')));
      assert.equal(error.code, gaiCode, code);
      assert.match(error.message, words);
      // The chat shows the sentence as it is (no "refused the API key": there is none).
      assert.match(wordError(error, { provider: 'vscode-lm', attempts: 1 }).text, words);
    }
  });

  it('cancels the request\'s CancellationToken when GAI\'s AbortSignal fires, and reports a cancel', async () => {
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    const model = new FakeChatModel('m', 'f', [
      (token) =>
        (async function* () {
          yield new TextPart('Working');
          started();
          await new Promise<void>((resolve) => token.onCancellationRequested(resolve));
        })(),
    ]);
    const host = fakeHost([model]);
    const controller = new AbortController();
    const chunks: string[] = [];
    const run = (async () => {
      for await (const chunk of new VscodeLmProvider(host).stream({ ...ask('hi'), signal: controller.signal })) if (chunk.type === 'text') chunks.push(chunk.text);
    })();
    await streaming;
    controller.abort();
    const error = await failure(run);
    assert.equal(error.code, 'LLM_CANCELLED');
    assert.deepEqual(chunks, ['Working']);
    assert.equal(host.sources[0]!.cancelled, true);
    assert.equal(host.sources[0]!.disposed, true);
  });

  it('a message\'s tokens are counted with the model\'s countTokens', async () => {
    const model = new FakeChatModel('m', 'f', [[new TextPart('one two three')]]);
    const response = await new VscodeLmProvider(fakeHost([model])).send({ ...ask('a b c d'), system: 'sys word' });
    assert.deepEqual(response.usage, { inputTokens: 6, outputTokens: 3 });
    assert.ok(model.sent[0]!.messages[0] instanceof ChatMessage);
  });
});
