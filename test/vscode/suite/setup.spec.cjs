// In-host tests of first run and setup and of errors with a way out (issue 12): the welcome's
// setup state, the missing-key error that keeps the message for Retry, Retry after a model
// server's 500s, and GAI: Check Setup's one-token request — the real extension and the real
// @anthropic-ai/sdk against a scripted Messages API server.
'use strict';
/* global describe, it, before, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const vscode = require('vscode');

const support = require(process.env.GAI_HOST_SUPPORT);
const EXTENSION_ID = 'gai.gai';
const FAKE_KEY = 'sk-ant-gai-setup-test-1234567890-NOT-A-REAL-KEY';
const fail500 = { kind: 'error', status: 500, headers: { 'retry-after-ms': '1' } };

describe('GAI first run, setup and errors with a way out', () => {
  let api;
  let server;
  const config = () => vscode.workspace.getConfiguration('gai');
  const entries = () => api.chatEntries();
  const dump = () => JSON.stringify(entries().filter((e) => e.kind !== 'screen' && e.kind !== 'tool'));

  async function waitFor(what, predicate, timeoutMs = 20000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await predicate();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; chat: ${dump()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const lastError = () => [...entries()].reverse().find((e) => e.kind === 'error');

  before(async function () {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    if (process.env.ANTHROPIC_API_KEY) this.skip(); // the missing-key path needs a host without one
    server = await support.ScriptedMessagesServer.start();
    await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await config().update('baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update('model.default', 'claude-setup-test', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('gai.setApiKey', '');
    await vscode.commands.executeCommand('gai.newConversation');
  });

  after(async () => {
    await vscode.commands.executeCommand('gai.setApiKey', '');
    await config().update('model.default', undefined, vscode.ConfigurationTarget.Global);
    if (server) await server.close();
  });

  it('the welcome says the provider, the model and that no key is set; with one set, that it is in SecretStorage', async () => {
    const before = await api.welcome();
    assert.equal(before.provider, 'anthropic');
    assert.equal(before.model, 'claude-setup-test');
    assert.equal(before.keySource, undefined);
    assert.equal(before.examples.length, 3);
    assert.match(before.examples[0], /^Read the screen/);
    await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY);
    const after = await api.welcome();
    assert.equal(after.keySource, 'secretStorage');
    // In VS Code for the Web (the code-server host of these tests) SecretStorage only lives in memory: said, not hidden.
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      assert.match(after.keyNote ?? '', /not in the OS keychain.*only in memory.*ANTHROPIC_API_KEY/);
      // The way to keep it, in one click: the shell line with the key, on the clipboard.
      assert.equal(after.keepInEnvironment, 'ANTHROPIC_API_KEY');
      assert.equal(await vscode.commands.executeCommand('gai.copyKeyLine'), 'ANTHROPIC_API_KEY');
      assert.equal(await vscode.env.clipboard.readText(), `export ANTHROPIC_API_KEY='${FAKE_KEY}'`);
    } else {
      assert.equal(after.keyNote, undefined, 'a desktop VS Code keeps the key in the OS keychain: no note');
      assert.equal(after.keepInEnvironment, undefined);
    }
    await vscode.commands.executeCommand('gai.setApiKey', '');
  });

  it('sending without a key names the key and keeps the message; after Set API Key, Retry sends it', async () => {
    assert.ok(api.simulateWebviewMessage({ type: 'send', text: 'open the calculator please' }));
    const error = await waitFor('the missing-key error', () => !api.isRunning() && lastError());
    assert.match(error.text, /No API key for Anthropic/);
    assert.match(error.text, /ANTHROPIC_API_KEY/);
    assert.doesNotMatch(error.text, /vision model|none is configured/);
    assert.deepEqual(error.actions, [{ kind: 'setApiKey' }, { kind: 'retry' }]);
    assert.equal(server.requests.length, 0, 'nothing was sent without a key');

    await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY);
    server.push(support.textReply('Opening the calculator.'));
    assert.ok(api.simulateWebviewMessage({ type: 'retry' }));
    await waitFor('the reply after Retry', () => !api.isRunning() && entries().some((e) => e.kind === 'assistant' && e.text === 'Opening the calculator.'));
    assert.equal(server.requests.length, 1);
    assert.match(server.requests[0].rawBody, /open the calculator please/);
  });

  it('a model server answering 500 three times is said in plain words with Retry, and Retry works', async () => {
    await vscode.commands.executeCommand('gai.newConversation');
    const sent = server.requests.length;
    server.push(fail500, fail500, fail500);
    assert.ok(api.simulateWebviewMessage({ type: 'send', text: 'what is on the screen' }));
    const error = await waitFor('the 500 error', () => !api.isRunning() && lastError());
    assert.equal(server.requests.length - sent, 3, 'the SDK tried three times');
    assert.match(error.text, /^The Anthropic model server answered 500 \(internal error\) three times/);
    assert.doesNotMatch(error.text, /[{}]|500 500/);
    assert.deepEqual(error.actions, [{ kind: 'retry' }]);

    server.push(support.textReply('A calculator and an editor.'));
    assert.ok(api.simulateWebviewMessage({ type: 'retry' }));
    await waitFor('the reply after Retry', () => !api.isRunning() && entries().some((e) => e.kind === 'assistant' && e.text === 'A calculator and an editor.'));
    assert.match(server.requests.at(-1).rawBody, /what is on the screen/);
    // The question once, in the chat and to the model, and the old error gone with it.
    const asked = JSON.parse(server.requests.at(-1).rawBody).messages.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('what is on the screen'));
    assert.equal(asked.length, 1);
    assert.deepEqual(entries().map((e) => e.kind), ['user', 'assistant']);
  });

  it('a bad setting offers a link to it; openSetting is accepted', async () => {
    await vscode.commands.executeCommand('gai.newConversation');
    await config().update('maxIterations', 0, vscode.ConfigurationTarget.Global);
    try {
      assert.ok(api.simulateWebviewMessage({ type: 'send', text: 'hello' }));
      const error = await waitFor('the bad-setting error', () => !api.isRunning() && lastError());
      assert.match(error.text, /gai\.maxIterations/);
      assert.deepEqual(error.actions, [{ kind: 'openSetting', setting: 'gai.maxIterations' }]);
      assert.ok(api.simulateWebviewMessage({ type: 'openSetting', id: 'gai.maxIterations' }));
    } finally {
      await config().update('maxIterations', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('GAI: Check Setup lists the desktop parts and reaches the model with a one-token request', async function () {
    this.timeout(120000);
    const sent = server.requests.length;
    server.push(support.textReply('OK'));
    const check = await vscode.commands.executeCommand('gai.checkSetup');
    assert.equal(check.running, false);
    const names = check.items.map((item) => item.name);
    assert.ok(names.includes('Display') && names.some((n) => n.startsWith('OCR')) && names.includes('Accessibility tree (AT-SPI)'), names.join(', '));
    const model = check.items.find((item) => item.name === 'Model reachable');
    assert.ok(model && model.ok, JSON.stringify(model));
    assert.equal(server.requests.length - sent, 1);
    assert.equal(server.requests.at(-1).body.max_tokens, 1);
    assert.deepEqual(api.lastSetupCheck(), check);
  });
});
