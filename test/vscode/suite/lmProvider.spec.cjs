// In-host tests of provider vscode-lm and the @gai chat participant: the real extension, the real
// vscode.LanguageModel* classes, a real desktop (the private Xvfb with the fixture app). The
// chat model is scripted here: this host has no Copilot, so vscode.lm offers no model of its own.
'use strict';
/* global describe, it, before, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { existsSync, statSync } = require('node:fs');
const vscode = require('vscode');

const EXTENSION_ID = 'gai.gai';
const NO_CHAT_MODEL =
  'No chat model is available in VS Code: install and sign in to GitHub Copilot Chat (GitHub.copilot-chat), or choose another provider in gai.provider.';

const support = require(process.env.GAI_HOST_SUPPORT);
const waitFor = (what, predicate, timeoutMs) => support.waitFor(what, predicate, timeoutMs);

/** A LanguageModelChat whose answers are scripted, built of the host's own part classes. */
function scriptedModel(turns) {
  const sent = [];
  return {
    sent,
    id: 'gai-scripted-model',
    name: 'GAI scripted',
    vendor: 'gai-test',
    family: 'scripted',
    version: '1',
    maxInputTokens: 100000,
    async sendRequest(messages, options, token) {
      sent.push({ messages, options, token });
      const parts = turns.shift();
      if (!parts) throw new Error('no scripted answer left');
      return {
        stream: (async function* () {
          for (const part of parts) yield part;
        })(),
        text: (async function* () {})(),
      };
    },
    async countTokens(what) {
      const text = typeof what === 'string' ? what : JSON.stringify(what.content);
      return Math.ceil(text.length / 4);
    },
  };
}

/** A ChatResponseStream that records what the participant streamed. */
function recordingStream() {
  const out = { markdown: [], progress: [], references: [] };
  return {
    out,
    stream: {
      markdown: (value) => out.markdown.push(typeof value === 'string' ? value : value.value),
      progress: (value) => out.progress.push(value),
      reference: (value) => out.references.push(value),
      anchor() {},
      button() {},
      filetree() {},
      push() {},
    },
  };
}

describe('vscode-lm provider and the @gai chat participant', () => {
  let api;
  const config = () => vscode.workspace.getConfiguration('gai');
  let providerBefore;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    providerBefore = config().inspect('provider').globalValue;
    await config().update('autoApprove', ['read'], vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('provider', providerBefore, vscode.ConfigurationTarget.Global);
    await config().update('model.default', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the @gai participant is contributed with its icon', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID).packageJSON;
    const participant = pkg.contributes.chatParticipants.find((p) => p.id === 'gai.agent');
    assert.equal(participant.name, 'gai');
    assert.equal(typeof api.chatParticipant.handle, 'function');
  });

  it('@gai runs the agent on the chat\'s model: read tools on the fixture, progress lines, a screen picture, results back to the model as ToolResultParts', async function () {
    this.timeout(60000);
    const model = scriptedModel([
      [new vscode.LanguageModelTextPart('Reading the screen. '), new vscode.LanguageModelToolCallPart('call_ocr', 'ocr', { captureScreen: true })],
      [new vscode.LanguageModelToolCallPart('call_shot', 'screen_capture', { maxWidth: 640 })],
      [new vscode.LanguageModelTextPart('The fixture shows its OK buttons.')],
    ]);
    const { out, stream } = recordingStream();
    const tokens = new vscode.CancellationTokenSource();
    const request = { prompt: 'what is on the screen?', command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined, model };
    const result = await api.chatParticipant.handle(request, { history: [] }, stream, tokens.token);

    assert.equal(result.errorDetails, undefined, JSON.stringify(result));
    assert.deepEqual(out.progress, ['Reading the screen text…', 'Taking a screenshot…']);
    const text = out.markdown.join('');
    assert.match(text, /Reading the screen\. /);
    assert.match(text, /The fixture shows its OK buttons\./);
    assert.match(text, /!\[Screen after screen_capture\]\((file|vscode-remote):.+\.png\)/);
    assert.equal(out.references.length, 1);
    const picture = out.references[0].fsPath;
    assert.ok(existsSync(picture) && statSync(picture).size > 1000, `the picture ${picture} was written`);

    assert.equal(model.sent.length, 3);
    const first = model.sent[0];
    assert.equal(first.options.toolMode, vscode.LanguageModelChatToolMode.Auto);
    assert.ok(first.options.tools.some((t) => t.name === 'click' && t.inputSchema.type === 'object'), 'GAI tools are offered with their schemas');
    const answer = model.sent[1].messages.at(-1);
    assert.equal(answer.role, vscode.LanguageModelChatMessageRole.User);
    const ocrResult = answer.content.find((part) => part instanceof vscode.LanguageModelToolResultPart);
    assert.equal(ocrResult.callId, 'call_ocr');
    const ocrText = ocrResult.content.map((p) => p.value).join('');
    assert.match(ocrText, /OK/, `the OCR of the fixture reaches the model: ${ocrText.slice(0, 600)}`);
    const shotResult = model.sent[2].messages.at(-1).content.find((part) => part instanceof vscode.LanguageModelToolResultPart);
    assert.match(shotResult.content.map((p) => p.value).join(''), /not sent/, 'the model is told the picture was not sent');
  });

  it('@gai stops when the request\'s cancellation token fires', async function () {
    this.timeout(30000);
    const tokens = new vscode.CancellationTokenSource();
    let sawToken;
    const model = scriptedModel([]);
    model.sendRequest = async (_messages, _options, token) => {
      sawToken = token;
      return {
        stream: (async function* () {
          yield new vscode.LanguageModelTextPart('Working');
          tokens.cancel();
          await new Promise((resolve) => token.onCancellationRequested(resolve));
        })(),
        text: (async function* () {})(),
      };
    };
    const { out, stream } = recordingStream();
    const result = await api.chatParticipant.handle({ prompt: 'wait', references: [], toolReferences: [], model }, { history: [] }, stream, tokens.token);
    assert.equal(result.errorDetails, undefined);
    assert.equal(sawToken.isCancellationRequested, true, 'GAI cancelled the model request\'s token');
    assert.equal(out.markdown[0], 'Working');
  });

  it('with gai.provider vscode-lm and no chat model in the host, the chat says to install GitHub Copilot Chat', async function () {
    this.timeout(40000);
    // The test extension offers its model only once registered (below): until then this host has none.
    const models = await vscode.lm.selectChatModels();
    if (models.length > 0) this.skip(); // a host with Copilot: the no-model path cannot be shown here
    await config().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await config().update('model.default', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('gai.newConversation');
    assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'open the calculator' }), true);
    const error = await waitFor('the no-model error', () => !api.isRunning() && [...api.chatEntries()].reverse().find((e) => e.kind === 'error'));
    assert.equal(error.text, NO_CHAT_MODEL);
    assert.deepEqual(error.actions, [{ kind: 'openSetting', setting: 'gai.provider' }]);
  });

  describe('through the real VS Code LM API (a scripted model offered by a test extension, test/vscode/fixtures/lmTestExtension)', () => {
    let scripted;
    let registration;
    const entries = () => api.chatEntries();

    before(async function () {
      const extension = vscode.extensions.getExtension('gai-test.gai-lm-test');
      if (!extension) this.skip();
      scripted = await extension.activate();
      registration = scripted.register();
    });

    it('vscode.lm offers the test model, and gai.provider vscode-lm runs the chat agent with a tool call through it', async function () {
      this.timeout(60000);
      const models = await vscode.lm.selectChatModels({ vendor: 'gai-test' });
      assert.deepEqual(models.map((m) => m.id), ['gai-test-scripted']);
      await config().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
      await config().update('model.default', 'gai-scripted', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('gai.newConversation');
      scripted.push([{ text: 'Reading the screen. ' }, { call: { id: 'call_lm_ocr', name: 'ocr', input: { captureScreen: true } } }], [{ text: 'The screen shows OK.' }]);
      assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'what does the screen say?' }), true);
      await waitFor('the reply through vscode.lm', () => !api.isRunning() && entries().some((e) => e.kind === 'assistant' && /The screen shows OK\./.test(e.text)), 40000).catch((error) => {
        throw new Error(`${error.message}; chat: ${JSON.stringify(entries().filter((e) => e.kind !== 'screen'))}`);
      });
      assert.ok(entries().some((e) => e.kind === 'tool' && e.name === 'ocr'), 'the ocr card');
      assert.equal(scripted.requests.length, 2);
      assert.ok(scripted.requests[0].tools.some((t) => t.name === 'click'), 'GAI tools reached the provider');
      assert.equal(scripted.requests[0].toolMode, vscode.LanguageModelChatToolMode.Auto);
      const last = scripted.requests[1].messages.at(-1);
      const result = last.content.find((part) => part.callId === 'call_lm_ocr' && Array.isArray(part.content));
      assert.ok(result, 'the ocr result went back as a tool result part');
      assert.match(result.content.map((p) => p.value ?? '').join(''), /OK/);
    });

    it('@gai runs on the model picked in the chat (from vscode.lm)', async function () {
      this.timeout(40000);
      const [model] = await vscode.lm.selectChatModels({ vendor: 'gai-test' });
      scripted.push([{ text: 'Hello from the picked model.' }]);
      const { out, stream } = recordingStream();
      const result = await api.chatParticipant.handle({ prompt: 'say hello', references: [], toolReferences: [], model }, { history: [] }, stream, new vscode.CancellationTokenSource().token);
      assert.equal(result.errorDetails, undefined, JSON.stringify(result));
      assert.equal(out.markdown.join(''), 'Hello from the picked model.');
    });

    after(() => registration?.dispose());
  });

});
