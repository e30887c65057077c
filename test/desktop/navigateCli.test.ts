// `gai navigate` and `gai brain show`, the built CLI on the suite display with the pages app,
// learning through the real SDK against a scripted Messages API server that counts requests.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { suiteDisplay } from './support/fixture';
import type { CliOutcome } from './support/builtCli';
import type { PagesApp } from '../support/pagesFixture';
import { startPagesCliRig, type PagesCliRig } from './support/pagesCliRig';

const display = suiteDisplay();

describe('gai navigate (built CLI on the suite display)', function () {
  this.timeout(90_000);
  let rig: PagesCliRig;
  let server: ScriptedMessagesServer;
  let app: PagesApp;
  let home: string;
  const gai = (args: string[], env: Record<string, string> = {}): Promise<CliOutcome> => rig.gai(args, env);

  before(async () => {
    // Unattended replays (no terminal, no --yes) act only in apps the person allowed for good.
    rig = await startPagesCliRig(display, { prefix: 'gai-nav-cli-', apiKey: 'test-key', timeoutMs: 80_000, config: { apps: { allow: ['GaiPages'] } } });
    ({ server, app, home } = rig);
  });
  after(async () => {
    await rig?.close();
  });

  it('learns once, replays with zero model requests, and the brain folder defaults to the user data folder', async () => {
    // Without a terminal and without --yes, learning may not click: nothing happens.
    server.push(toolReply([{ name: 'click', input: { text: 'Settings' } }]), toolReply([{ name: 'finish_navigation', input: { success: false, summary: 'denied' } }]));
    const refused = await gai(['navigate', 'Network settings', '--json']);
    assert.equal(refused.code, 1, `${refused.stdout}\n${refused.stderr}`);
    assert.equal(app.page(), 'home', 'the learner could not click without approval');
    assert.match(JSON.stringify(server.requests.at(-1)?.body), /did NOT run/);
    const refusedRequests = server.requestCount;

    server.push(
      toolReply([{ name: 'click', input: { text: 'Settings' } }]),
      toolReply([{ name: 'click', input: { text: 'Network' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'Network settings shown' } }]),
    );
    const first = await gai(['navigate', 'Network settings', '--json', '--yes']);
    assert.equal(first.code, 0, first.stderr);
    const learned = JSON.parse(first.stdout) as { how: string; modelCalls: number; steps: number };
    assert.equal(learned.how, 'learned');
    assert.equal(learned.modelCalls, 3);
    assert.equal(server.requestCount - refusedRequests, 3);
    assert.equal(app.page(), 'network');
    assert.ok(existsSync(join(home, 'data', 'gai', 'brain.json')), 'the brain is in $XDG_DATA_HOME/gai');

    await app.control('goto home');
    // A path learned here replays without --yes: its steps were approved when it was learned.
    const second = await gai(['navigate', 'Network settings']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /replayed · 2 step\(s\) · 0 model call\(s\)/);
    assert.match(second.stderr, /✓ click "Network"/);
    assert.equal(server.requestCount - refusedRequests, 3, 'no request reached the model server');
    assert.equal(app.page(), 'network');

    const shown = await gai(['brain', 'show', '--json']);
    assert.equal(shown.code, 0, shown.stderr);
    const brain = JSON.parse(shown.stdout) as { paths: Array<{ metadata: { usageCount: number } }> };
    assert.equal(brain.paths.length, 1);
    assert.equal(brain.paths[0]?.metadata.usageCount, 2);
  });

  it('without an API key an unknown target fails with exit 1 and says why', async () => {
    const dir = join(home, 'other-brain');
    const result = await gai(['navigate', 'Display', '--brain-dir', dir], { ANTHROPIC_API_KEY: '' });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /no model is configured to learn/);
  });

  it('refused clicks fail the navigation, say how to approve them and learn nothing, whatever the model claims', async () => {
    await app.control('goto home');
    const dir = join(home, 'denied-brain');
    // Issue 18: both clicks were DENIED, the model then said the target was open.
    server.push(
      toolReply([{ name: 'click', input: { text: 'Settings' } }]),
      toolReply([{ name: 'click', input: { text: 'Network' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'The network options are open' } }]),
    );
    const result = await gai(['navigate', 'Network settings', '--json', '--brain-dir', dir]);
    assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
    const report = JSON.parse(result.stdout) as { success: boolean; how: string; message: string; denied?: string[] };
    assert.deepEqual([report.success, report.how], [false, 'failed']);
    assert.match(report.message, /2 steps were not allowed, so nothing was learned/);
    assert.match(report.message, /no one could approve it/);
    assert.match(report.message, /Approval needed: run gai navigate in a terminal to approve each step, or with --yes/);
    assert.equal(report.denied?.length, 2);
    assert.equal(app.page(), 'home', 'nothing was clicked');

    const shown = await gai(['brain', 'show', '--json', '--brain-dir', dir]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual((JSON.parse(shown.stdout) as { paths: unknown[] }).paths, [], 'no path was learned');
  });
});
