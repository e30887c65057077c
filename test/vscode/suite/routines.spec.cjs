// In-host test of Record Steps and Run Routine: the real extension watches a person's click on
// the fixture app of the private Xvfb (xdotool, as a person's input), keeps it as a routine, and
// replays it without a model after the window moved.
'use strict';
/* global describe, it, before, after */ // mocha's BDD globals

const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const vscode = require('vscode');

const support = require(process.env.GAI_HOST_SUPPORT);
const EXTENSION_ID = 'gai.gai';

function fixtureEvents() {
  return readFileSync(process.env.GAI_FIXTURE_LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const xdotool = (...args) => execFileSync('xdotool', args, { env: process.env, encoding: 'utf8' }).trim();

/** Pictures the workbench when the launcher can (GAI_WORKBENCH_SHOT, as workbench.spec.cjs does). */
async function shot(name) {
  const base = process.env.GAI_WORKBENCH_SHOT;
  if (!base) return;
  await pause(800);
  const response = await fetch(`${base}/${name}`, { method: 'POST' });
  assert.equal(response.status, 200, await response.text());
}

describe('GAI routines: Record Steps and Run Routine', () => {
  let api;

  const config = () => vscode.workspace.getConfiguration('gai');
  let allowed;

  before(async () => {
    api = await vscode.extensions.getExtension(EXTENSION_ID).activate();
    // A routine's steps act only in apps the person allowed, as the agent's do (a modal would ask, unanswerable here).
    allowed = config().inspect('apps.allow')?.globalValue;
    await config().update('apps.allow', ['GaiFixture', 'Code'], vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('apps.allow', allowed, vscode.ConfigurationTarget.Global);
  });

  it('Record Steps keeps a click the person made on the fixture, and Run Routine replays it after the window moved, with no model', async () => {
    const ready = fixtureEvents().find((e) => e.event === 'ready');
    const right = ready.widgets.right_ok_button;
    const clicks = () => fixtureEvents().filter((e) => e.event === 'click');
    const before = clicks().length;

    assert.equal(await vscode.commands.executeCommand('gai.recordSteps', 'Press the right OK'), true);
    await shot('record-steps-workbench.png');
    await pause(1200);
    // The person's click: the pointer moves there and clicks, as xdotool sends it.
    xdotool('mousemove', String(right.x + Math.round(right.width / 2)), String(right.y + Math.round(right.height / 2)), 'click', '1');
    await support.waitFor('the person\'s click in the fixture', () => clicks().length === before + 1, 10000);
    await pause(1500);
    const routine = await vscode.commands.executeCommand('gai.stopRecording', { parameters: {} });
    assert.ok(routine, 'the routine was kept');
    assert.equal(routine.id, 'press-the-right-ok');
    assert.equal(routine.steps.length, 1, JSON.stringify(routine.steps));
    const [step] = routine.steps;
    assert.equal(step.kind, 'click');
    assert.equal(step.anchors.label, 'OK');
    assert.ok(step.anchors.landmarks.length > 0, JSON.stringify(step.anchors));
    assert.ok(step.anchors.offset.x > 0.5, 'the right one of the two OKs, by where it is in the window');
    assert.equal(clicks().length, before + 1, 'recording only watched: nothing was clicked for it');

    // The window moves; the routine finds the right OK again by its text and place in the window.
    const id = xdotool('search', '--name', `^${ready.title}$`).split('\n')[0];
    xdotool('windowmove', '--sync', id, '40', '120');
    await pause(800);
    const report = await vscode.commands.executeCommand('gai.runRoutine', { name: routine.id, params: {} });
    assert.equal(report.ok, true, JSON.stringify(report));
    assert.equal(report.modelCalls, 0);
    assert.equal(report.steps[0].via, 'text');
    await support.waitFor('the replayed click', () => clicks().length === before + 2, 10000);
    assert.equal(clicks().at(-1).widget, 'right_ok_button');
    assert.ok(api.auditLines().some((line) => /replay_step \{"routine":"press-the-right-ok","step":"click \\"OK\\" \(GaiFixture\)"\} approved-by=recorded-routine result=ok/.test(line)), api.auditLines().slice(-3).join("\n"));

    // Unknown routine and bad parameters are said, not thrown.
    const missing = await vscode.commands.executeCommand('gai.runRoutine', { name: routine.id, params: { nope: 'x' } });
    assert.equal(missing, undefined);
    assert.equal(clicks().length, before + 2, 'a bad parameter clicks nothing');
    xdotool('windowmove', '--sync', id, String(ready.geometry.x), String(ready.geometry.y));
  });
});
