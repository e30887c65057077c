// In-host tests of the GAI extension (run by test/vscode/extension.test.ts through the launcher).
'use strict';
/* global describe, it, before, __dirname */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;
const FAKE_KEY = 'sk-ant-gai-host-test-0123456789-NOT-A-REAL-KEY';

describe('GAI extension', () => {
  let api;
  let activeOnItsOwn = false;

  before(async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    // Nothing of GAI was used yet: start-up alone activates it (onStartupFinished).
    const deadline = Date.now() + 30_000;
    while (!extension.isActive && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    activeOnItsOwn = extension.isActive;
    const started = Date.now();
    api = await extension.activate();
    globalThis.gaiHostMetrics.activationWallMs = Date.now() - started;
  });

  it('is active after start-up before any GAI command or view: its status-bar item is there from the start', () => {
    assert.equal(activeOnItsOwn, true, 'not activated by start-up');
    assert.match(api.statusText(), /GAI/);
  });

  it('activates, and reports its activation time', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.activationMs, 'number');
    globalThis.gaiHostMetrics.activationMs = api.activationMs;
  });

  it('registers every command declared in package.json', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const declared = manifest.contributes.commands.map((command) => command.command);
    assert.ok(declared.length >= 10);
    assert.deepEqual(declared.filter((id) => !registered.has(id)), []);
  });

  it('Set API Key stores the key in SecretStorage and never in settings', async () => {
    assert.equal(await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY), true);
    assert.equal(await api.hasApiKey(), true);
    const config = vscode.workspace.getConfiguration();
    const keys = manifest.contributes.configuration.flatMap((section) => Object.keys(section.properties));
    assert.ok(keys.length >= 20, 'the settings of every section are checked');
    for (const key of keys) {
      const inspected = config.inspect(key) ?? {};
      const values = [inspected.globalValue, inspected.workspaceValue, inspected.workspaceFolderValue, inspected.defaultValue];
      assert.ok(!JSON.stringify(values).includes(FAKE_KEY), `the key leaked into ${key}`);
    }
    const everything = JSON.stringify(vscode.workspace.getConfiguration('gai'));
    assert.ok(!everything.includes(FAKE_KEY), 'the key leaked into the gai settings');
    assert.equal(await vscode.commands.executeCommand('gai.setApiKey', ''), true);
    assert.equal(await api.hasApiKey(), false);
  });

  it('rejects malformed webview messages without crashing, and accepts valid ones', () => {
    assert.equal(api.simulateWebviewMessage({ type: 'runShell', command: 'rm -rf /' }), false);
    assert.equal(api.simulateWebviewMessage({ type: 'send' }), false);
    assert.equal(api.simulateWebviewMessage('not even an object'), false);
    assert.equal(api.simulateWebviewMessage({ type: 'stop' }), true);
  });

  it('Stop Agent and New Conversation run without an agent', async () => {
    await vscode.commands.executeCommand('gai.stopAgent');
    await vscode.commands.executeCommand('gai.newConversation');
  });

  it('the chat view opens', async () => {
    await vscode.commands.executeCommand('gai.chat.focus');
  });
});
