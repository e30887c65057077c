// Pictures of GAI in the real workbench, as a person sees it: the welcome, a conversation with an
// approval card in the sidebar, History's quick pick and a picture in its editor tab. Each state
// is asserted through the extension's API before it is pictured (the launcher writes the picture:
// GAI_WORKBENCH_SHOT, code-server only; docs/screenshots with GAI_UPDATE_SCREENSHOTS=1).
'use strict';
/* global describe, it, before, after */

const assert = require('node:assert/strict');
const vscode = require('vscode');

const support = require(process.env.GAI_HOST_SUPPORT);
const FAKE_KEY = 'sk-ant-gai-workbench-test-1234567890-NOT-A-REAL-KEY';

const waitFor = (what, predicate, timeoutMs) => support.waitFor(what, predicate, timeoutMs);

/** Pictures the workbench; false when this launcher cannot (the states are still asserted). */
async function shot(name) {
  const base = process.env.GAI_WORKBENCH_SHOT;
  if (!base) return false;
  // Let the webviews paint what was just posted to them.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const response = await fetch(`${base}/${name}`, { method: 'POST' });
  assert.equal(response.status, 200, await response.text());
  return true;
}

describe('GAI in the workbench, pictured', () => {
  let api;
  let server;

  before(async () => {
    api = await vscode.extensions.getExtension('gai.gai').activate();
    server = await support.ScriptedMessagesServer.start();
    await support.useScriptedModel(vscode, server.baseUrl);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('gai.setApiKey', '');
    if (server) await server.close();
  });

  it('the welcome in the sidebar of an empty chat', async () => {
    await vscode.commands.executeCommand('gai.newConversation');
    await vscode.commands.executeCommand('gai.chat.focus');
    await waitFor('the chat view', () => api.webviewReadyCount() > 0);
    assert.equal(api.chatEntries().length, 0);
    const welcome = await api.welcome();
    assert.equal(welcome.examples.length, 3);
    await shot('workbench-welcome.png');
  });

  it('a request waiting for approval, the card saying what will happen', async () => {
    await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY);
    server.push(
      support.toolReply([{ name: 'click', input: { text: 'OK', near: 'Left panel' } }], 'I will click the left OK.'),
      support.textReply('Done: the left OK is clicked.'),
    );
    assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'click the OK in the left panel' }), true);
    const card = await waitFor('the approval card', () => api.chatEntries().find((e) => e.kind === 'tool' && e.status === 'awaiting_approval'));
    assert.match(card.approval.text, /^Click \*\*OK\*\*/);
    await shot('workbench-approval.png');
    assert.equal(api.simulateWebviewMessage({ type: 'approval', callId: card.callId, decision: 'approve' }), true);
    await waitFor('the request to end', () => !api.isRunning() && server.requestCount >= 2, 60000);
    const done = api.chatEntries().find((e) => e.kind === 'tool' && e.callId === card.callId);
    assert.equal(done.status, 'done');
    await shot('workbench-after-action.png');
  });

  it("History's quick pick lists the conversation", async () => {
    await vscode.commands.executeCommand('gai.newConversation');
    // The command waits for a choice; it is left open for the picture and closed below.
    const choosing = vscode.commands.executeCommand('gai.showHistory');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await shot('workbench-history.png');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await Promise.race([choosing, new Promise((resolve) => setTimeout(resolve, 3000))]);
  });

  it('a picture opens full size in an editor tab', async function () {
    this.timeout(120000);
    // A real one: Read Screen (Quick) reads the Xvfb desktop with the fixture app; the fast model sums it up.
    server.push(support.textReply('The GAI Fixture window: a left panel with OK and a right panel with a form.'));
    await vscode.commands.executeCommand('gai.readScreenQuick');
    const entries = await waitFor('the screen reading', () => {
      const all = api.chatEntries();
      return all.some((e) => e.kind === 'screen' && e.picture) ? all : undefined;
    }, 60000);
    const index = entries.findLastIndex((e) => e.kind === 'screen' && e.picture);
    assert.ok(entries[index].picture.boxes.length > 0, 'OCR boxes on the picture');
    assert.equal(api.simulateWebviewMessage({ type: 'openPicture', index }), true);
    await waitFor('the picture tab', () => (api.picturePanel()?.readyCount ?? 0) > 0);
    await shot('workbench-picture.png');
  });
});
