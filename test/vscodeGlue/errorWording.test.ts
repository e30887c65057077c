import { strict as assert } from 'node:assert';
import { GaiError } from '../../src/common/errors';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { OpenAiCompatibleProvider } from '../../src/model/providers/openaiProvider';
import { missingKeyError, wordError } from '../../src/vscode/setup/errorWording';
import { parseSettings } from '../../src/vscode/settings';
import { ScriptedChatServer } from '../support/scriptedChatServer';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';

const fail500 = { kind: 'error' as const, status: 500, headers: { 'retry-after-ms': '1' } };
const ask = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];

describe('Error wording (chat errors with a way out)', function () {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('says a 500 from the real Anthropic SDK in plain words: status once, retries counted, no JSON', async () => {
    const server = await ScriptedMessagesServer.start([fail500, fail500, fail500]);
    servers.push(server);
    const provider = new AnthropicProvider({ provider: 'anthropic', model: 'claude-test', apiKey: 'sk-test', baseUrl: server.baseUrl, maxRetries: 2 });
    const error = await provider.send({ messages: ask, tools: [], maxTokens: 10 }).then(
      () => assert.fail('the server only fails'),
      (e: unknown) => e,
    );
    assert.equal(server.requests.length, 3, 'the SDK tried three times');
    const worded = wordError(error, { provider: 'anthropic', attempts: 3 });
    assert.equal(worded.text, 'The Anthropic model server answered 500 (internal error) three times: “scripted 500 error”');
    assert.doesNotMatch(worded.text, /[{}]|500 500|500 \(internal error\).*500 \(/);
    assert.deepEqual(worded.actions, [{ kind: 'retry' }]);
    assert.match(worded.detail, /api_error/, 'the raw body is kept for the log');
  });

  it('says a 500 from the real OpenAI SDK the same way', async () => {
    const server = await ScriptedChatServer.start([fail500, fail500]);
    servers.push(server);
    const provider = new OpenAiCompatibleProvider({ provider: 'openai', model: 'gpt-test', apiKey: 'sk-test', baseUrl: server.baseUrl, maxRetries: 1 });
    const error = await provider.send({ messages: ask, tools: [], maxTokens: 10 }).then(
      () => assert.fail('the server only fails'),
      (e: unknown) => e,
    );
    const worded = wordError(error, { provider: 'openai', attempts: 2 });
    assert.match(worded.text, /^The OpenAI model server answered 500 \(internal error\) twice/);
    assert.doesNotMatch(worded.text, /[{}]/);
  });

  it('words an error of the lazily loaded agent bundle (another copy of GaiError, so not instanceof this one)', () => {
    const foreign = Object.assign(new Error('anthropic at x: 500 500 {"type":"error","error":{"type":"api_error","message":"boom"}}'), { name: 'GaiError', code: 'LLM_SERVER' });
    assert.equal(wordError(foreign, { provider: 'anthropic', attempts: 3 }).text, 'The Anthropic model server answered 500 (internal error) three times: “boom”');
  });

  it('a refused key offers Set API Key', () => {
    const worded = wordError(new GaiError('LLM_AUTH', 'anthropic at x: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}', { cause: Object.assign(new Error('401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'), { status: 401 }) }), { provider: 'anthropic', attempts: 3 });
    assert.equal(worded.text, 'The Anthropic model server refused the API key (401 unauthorized): “invalid x-api-key” Set another key with Set API Key.');
    assert.deepEqual(worded.actions[0], { kind: 'setApiKey' });
  });

  it('a missing key names the provider and its environment variable, with Set API Key and Retry', () => {
    const anthropic = missingKeyError('anthropic');
    assert.match(anthropic.text, /No API key for Anthropic.*ANTHROPIC_API_KEY/);
    assert.deepEqual(anthropic.actions, [{ kind: 'setApiKey' }, { kind: 'retry' }]);
    assert.match(missingKeyError('google').text, /Google Gemini.*GEMINI_API_KEY/);
  });

  it('a bad setting links to that setting', () => {
    let error: unknown;
    try {
      parseSettings((key) => (key === 'maxIterations' ? 0 : undefined));
    } catch (e) {
      error = e;
    }
    const worded = wordError(error, { provider: 'anthropic', attempts: 3 });
    assert.match(worded.text, /gai\.maxIterations/);
    assert.deepEqual(worded.actions, [{ kind: 'openSetting', setting: 'gai.maxIterations' }]);
  });
});
