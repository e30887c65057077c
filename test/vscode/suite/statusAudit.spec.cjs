// In-host tests of the status bar and the audit trail (issue 12): the status item says the
// active window and the last action without any model call (the scripted server gets no
// request), GAI: Summarize Screen makes exactly one; every agent call leaves an [audit] line in
// the GAI output channel saying who approved or denied it.
'use strict';
/* global describe, it, before, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const vscode = require('vscode');

const support = require(process.env.GAI_HOST_SUPPORT);
const EXTENSION_ID = 'gai.gai';
const FAKE_KEY = 'sk-ant-gai-audit-test-1234567890-NOT-A-REAL-KEY';

const waitFor = (what, predicate, timeoutMs) => support.waitFor(what, predicate, timeoutMs);

describe('GAI status bar and audit trail', () => {
  let api;
  let server;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    server = await support.ScriptedMessagesServer.start();
    await support.useScriptedModel(vscode, server.baseUrl);
    await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY);
    await vscode.commands.executeCommand('gai.newConversation');
  });

  after(async () => {
    await vscode.commands.executeCommand('gai.setApiKey', '');
    if (server) await server.close();
  });

  /** Sends a message whose one tool call is answered with `decision` on the chat card. */
  async function oneCall(text, input, decision) {
    const before = server.requestCount;
    server.push(support.toolReply([{ name: 'click', input }]), support.textReply('Done.'));
    assert.equal(api.simulateWebviewMessage({ type: 'send', text }), true);
    const card = await waitFor('the approval card', () =>
      api.chatEntries().find((e) => e.kind === 'tool' && e.name === 'click' && e.status === 'awaiting_approval'),
    );
    assert.equal(api.simulateWebviewMessage({ type: 'approval', callId: card.callId, decision }), true);
    await waitFor('the request to finish', () => !api.isRunning() && server.requestCount >= before + 2, 60000);
  }

  it('an approved and a denied call each leave one [audit] line with who decided', async () => {
    const before = api.auditLines().length;
    await oneCall('click the left OK', { text: 'OK', near: 'Left panel' }, 'approve');
    await oneCall('click the right OK', { text: 'OK', near: 'Right panel' }, 'deny');
    const lines = api.auditLines().slice(before);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0], /^\[audit\] \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ click \{"text":"OK","near":"Left panel"[^}]*\} approved-by=chat result=ok \d+ms: Clicked "OK" at/);
    assert.match(lines[1], /^\[audit\] \S+ click \{"text":"OK","near":"Right panel"[^}]*\} denied-by=chat result=DENIED \d+ms: /);
    assert.ok(!lines.join('\n').includes(FAKE_KEY));
  });

  it('the status item shows the last action without any model call; Summarize Screen makes one', async () => {
    // A read after the click (ocr declares risk "read") is not an action: the click stays the last one.
    const sent = server.requestCount;
    server.push(support.toolReply([{ name: 'ocr', input: {} }]), support.textReply('Read.'));
    assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'read the screen' }), true);
    await waitFor('the read to finish', () => !api.isRunning() && server.requestCount >= sent + 2, 60000);
    assert.ok(api.auditLines().some((line) => /^\[audit\] \S+ ocr .* result=ok /.test(line)), `the read ran:\n${api.auditLines().join('\n')}`);
    const before = server.requestCount;
    await vscode.commands.executeCommand('gai.refreshStatus');
    assert.match(api.statusText(), /^\$\(eye\) GAI Clicked "OK"( in .+)? · (just now|\d+ s ago)$/);
    assert.equal(server.requestCount, before, 'the status bar asked no model');

    server.push(support.textReply('A fixture form with two OK buttons. And more.'));
    await vscode.commands.executeCommand('gai.summarizeScreen');
    assert.equal(server.requestCount, before + 1, 'one model call');
    assert.equal(api.statusText(), '$(eye) GAI A fixture form with two OK buttons.');
  });
});
