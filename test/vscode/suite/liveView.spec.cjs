// In-host test of GAI's own desktop and its live view (issue 22): with gai.desktop "own" the
// extension starts a private desktop beside the host's display, the live view tab shows frames of
// it, the chat agent clicks there; Take over pauses the agent and the person's click from the view
// reaches the fixture app there; Hand back lets the agent's click land. The host's own display
// (where the other specs' fixture runs) sees none of it.
'use strict';
/* global describe, it, before, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, existsSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const vscode = require('vscode');

const support = require(process.env.GAI_HOST_SUPPORT);
const EXTENSION_ID = 'gai.gai';
const FAKE_KEY = 'sk-ant-gai-chat-test-9876543210-NOT-A-REAL-KEY';

function events(logPath) {
  if (!existsSync(logPath)) return [];
  return readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

function keeperPid() {
  const state = join(process.env.XDG_RUNTIME_DIR || tmpdir(), 'gai', 'own-desktop.json');
  return existsSync(state) ? JSON.parse(readFileSync(state, 'utf8')).pid : undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pictures the workbench when the launcher can (GAI_WORKBENCH_SHOT, as workbench.spec.cjs does). */
async function shot(name) {
  const base = process.env.GAI_WORKBENCH_SHOT;
  if (!base) return;
  await new Promise((resolve) => setTimeout(resolve, 800));
  const response = await fetch(`${base}/${name}`, { method: 'POST' });
  assert.equal(response.status, 200, await response.text());
}

describe("GAI's own desktop and its live view", () => {
  let api;
  let server;
  let app;
  let work;
  const config = () => vscode.workspace.getConfiguration('gai');
  const waitFor = (what, predicate, timeoutMs) => support.waitFor(what, predicate, timeoutMs, () => JSON.stringify({ view: api?.liveView(), chat: api?.chatEntries().slice(-4) }));

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    server = await support.ScriptedMessagesServer.start();
    await support.useScriptedModel(vscode, server.baseUrl);
    await vscode.commands.executeCommand('gai.setApiKey', FAKE_KEY);
    await config().update('apps.allow', ['GaiFixture', 'Code'], vscode.ConfigurationTarget.Global);
    await config().update('desktop', 'own', vscode.ConfigurationTarget.Global);
    work = mkdtempSync(join(tmpdir(), 'gai-live-view-'));
  });

  after(async () => {
    if (app) app.kill('SIGTERM');
    // Back to the host's display first: nothing rebuilt afterwards may start the own desktop again.
    await config().update('desktop', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the live view to close when GAI left its own desktop', () => api.liveView() === undefined, 10000);
    const pid = keeperPid();
    await vscode.commands.executeCommand('gai.stopOwnDesktop');
    if (pid !== undefined) assert.equal(alive(pid), false, "GAI's own desktop outlived gai.stopOwnDesktop");
    assert.equal(keeperPid(), undefined, 'no own desktop runs after the test');
    await vscode.commands.executeCommand('gai.setApiKey', '');
    if (server) await server.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the live view shows frames of GAI\'s own desktop; Take over sends a click the app logs and pauses the agent; Hand back resumes it', async () => {
    await vscode.commands.executeCommand('gai.showLiveView');
    const view = await waitFor('the live view page to load and draw a frame', () => {
      const shown = api.liveView();
      return shown && shown.stats.readyCount > 0 && shown.stats.framesShown > 0 ? shown : undefined;
    }, 60000);
    assert.match(view.display, /^:\d+$/);
    assert.notEqual(view.display, process.env.DISPLAY, "GAI's own desktop is not the host's display");
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('gai.liveView'));
    assert.equal(tabs.length, 1);
    assert.match(tabs[0].label, /^GAI's Desktop :\d+$/);

    // The person's own app, started on GAI's desktop (as launch_app would).
    const logPath = join(work, 'events.jsonl');
    const script = join(vscode.extensions.getExtension(EXTENSION_ID).extensionPath, 'test', 'desktop', 'fixtures', 'fixtureApp.py');
    app = spawn('python3', [script, '--log', logPath], { env: { ...process.env, DISPLAY: view.display }, stdio: 'ignore' });
    const ready = await waitFor('the fixture app to start on GAI\'s desktop', () => events(logPath).find((e) => e.event === 'ready'), 30000);
    const framesBefore = api.liveView().stats.framesShown;
    await waitFor('a frame with the app on it', () => api.liveView().stats.framesShown > framesBefore, 20000);

    server.push(support.toolReply([{ name: 'click', input: { text: 'OK', near: 'Left panel' } }], 'The left OK on my desktop.'), support.textReply('Clicked it.'));
    const entriesBefore = api.chatEntries().length;
    assert.equal(api.simulateWebviewMessage({ type: 'send', text: 'click the left OK' }), true);
    const card = await waitFor('the approval card', () => api.chatEntries().slice(entriesBefore).find((e) => e.kind === 'tool' && e.status === 'awaiting_approval'), 60000);

    // The person takes over before approving: the approved click must wait.
    assert.equal(api.simulateLiveViewMessage({ type: 'takeOver' }), true);
    assert.equal(api.liveView().takenOver, true);
    assert.equal(api.simulateWebviewMessage({ type: 'approval', callId: card.callId, decision: 'approve' }), true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(events(logPath).filter((e) => e.event === 'click').length, 0, 'the agent clicked while the person had the desktop');
    assert.equal(api.isRunning(), true, 'the agent waits, it did not end');
    assert.ok(api.chatEntries().some((e) => e.kind === 'notice' && /You took over GAI's desktop/.test(e.text)), 'the chat says the person took over');

    // The person's click from the view lands in the app on GAI's desktop.
    const right = ready.widgets.right_ok_button;
    const at = { x: right.x + Math.round(right.width / 2), y: right.y + Math.round(right.height / 2) };
    assert.equal(api.simulateLiveViewMessage({ type: 'pointer', action: 'down', x: at.x, y: at.y, button: 'left' }), true);
    assert.equal(api.simulateLiveViewMessage({ type: 'pointer', action: 'up', x: at.x, y: at.y, button: 'left' }), true);
    await api.liveViewSettled();
    await waitFor("the person's click in the app", () => events(logPath).some((e) => e.event === 'click' && e.widget === 'right_ok_button'), 10000);
    // As the person sees it: the chat saying where GAI works and that it waits, the view taken over.
    await vscode.commands.executeCommand('gai.chat.focus');
    await shot('live-view-workbench.png');

    assert.equal(api.simulateLiveViewMessage({ type: 'handBack' }), true);
    await waitFor('the request to finish', () => !api.isRunning() && api.chatEntries().some((e) => e.kind === 'assistant' && e.text === 'Clicked it.'), 60000);
    const clicks = events(logPath).filter((e) => e.event === 'click').map((e) => e.widget);
    assert.deepEqual(clicks, ['right_ok_button', 'left_ok_button'], "the person's click first, the agent's after Hand back");
    const done = api.chatEntries().find((e) => e.kind === 'tool' && e.callId === card.callId);
    assert.equal(done.status, 'done', JSON.stringify(done));
    await waitFor("GAI's click marked in the view", () => api.liveView().stats.marks > 0, 5000);
    assert.ok(api.liveView().stats.frameAgesMs.length > 0);
    assert.equal(api.liveView().stats.refusedInputs, 0);
  });
});
