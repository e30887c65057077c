// In-host tests of the conversations: New Chat and History in the chat view's title bar, saved
// conversations in global storage and reopened through History, and a running request that
// outlives the chat view being hidden and shown again (the host keeps the chat; a new webview
// asks for it). The real extension and SDK against a scripted Messages API server.
'use strict';
/* global describe, it, before, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

const support = require(process.env.GAI_HOST_SUPPORT);
const EXTENSION_ID = 'gai.gai';
// The chat spec's key: extension.test.ts checks that it reaches no log.
const FAKE_KEY = 'sk-ant-gai-chat-test-9876543210-NOT-A-REAL-KEY';
const RESTORED_NOTE = 'Reopened: GAI goes on from here with the requests, replies and actions above (its screenshots were not kept).';

const waitFor = (what, predicate, timeoutMs) => support.waitFor(what, predicate, timeoutMs);

describe('GAI conversations and the view', () => {
  let api;
  let server;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    server = await support.ScriptedMessagesServer.start();
    await support.useScriptedModel(vscode, server.baseUrl);
    await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY);
  });

  after(async () => {
    await vscode.commands.executeCommand('gai.setApiKey', '');
    if (server) await server.close();
  });

  it('New Chat ($(add)) and History ($(history)) are in the chat view title bar, and registered', async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID).packageJSON;
    const titleBar = manifest.contributes.menus['view/title'];
    assert.deepEqual(
      titleBar.map((item) => [item.command, item.when]),
      [
        ['gai.newConversation', 'view == gai.chat'],
        ['gai.showHistory', 'view == gai.chat'],
        ['gai.recordSteps', 'view == gai.chat && !gai.recording'],
        ['gai.stopRecording', 'view == gai.chat && gai.recording'],
      ],
    );
    const icons = Object.fromEntries(manifest.contributes.commands.map((command) => [command.command, command.icon]));
    assert.equal(icons['gai.newConversation'], '$(add)');
    assert.equal(icons['gai.showHistory'], '$(history)');
    const registered = await vscode.commands.getCommands(true);
    assert.ok(registered.includes('gai.newConversation') && registered.includes('gai.showHistory'));
  });

  it('a request is saved when it ends; New Chat starts another; History reopens it and the model goes on from it', async () => {
    await vscode.commands.executeCommand('gai.newConversation'); // the chat spec's conversation is saved, this one starts empty
    assert.deepEqual(api.chatEntries(), []);
    server.push(support.textReply('Remembered.'));
    assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'remember the blue folder' }), true);
    await waitFor('the reply', () => !api.isRunning() && api.chatEntries().some((e) => e.kind === 'assistant' && e.text === 'Remembered.'));
    const saved = await waitFor('the conversation to be saved', async () => (await api.savedConversations()).find((c) => c.title === 'remember the blue folder'));
    assert.equal(saved.id, api.currentConversationId());
    // On disk, in global storage: what a reload of VS Code reads (written atomically, just after).
    const onDisk = () => JSON.parse(readFileSync(join(api.brainDir(), 'conversations.json'), 'utf8'));
    await waitFor('the file to hold it', () => {
      try {
        return onDisk().conversations.some((c) => c.id === saved.id && c.entries.some((e) => e.text === 'Remembered.'));
      } catch {
        return false; // not written yet
      }
    });

    await vscode.commands.executeCommand('gai.newConversation');
    assert.deepEqual(api.chatEntries(), []);
    assert.notEqual(api.currentConversationId(), saved.id);

    assert.equal(await vscode.commands.executeCommand('gai.showHistory', saved.id), true);
    const entries = api.chatEntries();
    assert.deepEqual(entries.slice(0, 2).map((e) => e.text), ['remember the blue folder', 'Remembered.']);
    assert.deepEqual(entries.at(-1), { kind: 'notice', text: RESTORED_NOTE });
    assert.equal(api.currentConversationId(), saved.id);

    // The model goes on: the next request carries the earlier turns, then the new one.
    server.push(support.textReply('The blue folder.'));
    api.simulateWebviewMessage({ type: 'send', text: 'what did I ask?' });
    await waitFor('the next reply', () => !api.isRunning() && api.chatEntries().some((e) => e.kind === 'assistant' && e.text === 'The blue folder.'));
    const sent = server.requests.at(-1).body.messages.map((m) => [m.role, m.content.map((b) => b.text).join('')]);
    assert.deepEqual(sent, [
      ['user', 'remember the blue folder'],
      ['assistant', 'Remembered.'],
      ['user', 'what did I ask?'],
    ]);
  });

  it('a running request survives the chat view being hidden and shown: the new webview gets the chat, Stop still works', async () => {
    await vscode.commands.executeCommand('gai.chat.focus');
    await waitFor('the webview to say ready', () => api.webviewReadyCount() > 0);
    const before = server.requestCount;
    server.push({ kind: 'hang' });
    api.simulateWebviewMessage({ type: 'send', text: 'think for a long time' });
    await waitFor('the request to reach the server', () => server.requestCount > before);
    const ready = api.webviewReadyCount();

    await vscode.commands.executeCommand('workbench.view.explorer'); // another view container: the chat is hidden
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(api.isRunning(), true, 'hiding the view does not end the request');
    await vscode.commands.executeCommand('gai.chat.focus');
    await waitFor('the shown view to load and ask for the chat', () => api.webviewReadyCount() > ready);
    assert.equal(api.isRunning(), true);
    assert.ok(api.chatEntries().some((e) => e.kind === 'user' && e.text === 'think for a long time'));

    assert.equal(api.simulateWebviewMessage({ type: 'stop' }), true);
    await waitFor('the agent to stop', () => !api.isRunning(), 5000);
    await server.settled();
    assert.equal(server.requests.at(-1).aborted, true);
  });
});
