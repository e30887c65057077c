// A navigation whose steps were refused fails, says why, and learns nothing, whatever the model
// claims (issue 18, hole 3): navigate_to through the real assembly (openNavigationBrain), the
// learner's model the real SDK over HTTP to a scripted server, on an in-memory desktop.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { openNavigationBrain } from '../../src/app/navigationAssembly';
import { NullLogger } from '../../src/common/logger';
import { resolveLlmConfig } from '../../src/model/llmConfig';
import { LlmManager } from '../../src/model/llmManager';
import { createModeProviders } from '../../src/model/providers/providerFactory';
import { NAVIGATION_PROMPT } from '../../src/navigation/learning/navigationLearner';
import { NavigationBrain, type NavigationReport } from '../../src/navigation/navigationBrain';
import { BrainStore } from '../../src/navigation/store/brainStore';
import { NavigateToTool } from '../../src/navigation/tools/navigateToTool';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ToolRuntimeOptions } from '../../src/runtime/toolRuntime';
import { AppPermissionGuard } from '../../src/safety/appPermissions';
import { JsonFileAppPermissionStore } from '../../src/safety/appPermissionStore';
import { ToolResults } from '../../src/tools/toolResult';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { PAGES, PagesDesktop, ScriptedLearner } from './support/inMemoryPages';

describe('navigation with refused steps (navigate_to, real SDK over HTTP)', function () {
  this.timeout(30_000);
  let dir: string;
  let app: PagesDesktop;
  let server: ScriptedMessagesServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gai-nav-denied-'));
    app = new PagesDesktop(structuredClone(PAGES));
    server = await ScriptedMessagesServer.start();
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A host runtime offering navigate_to over the real assembly's brain, as the CLI and the extension build it. */
  async function hostWith(options: ToolRuntimeOptions, guard?: AppPermissionGuard): Promise<ToolRuntime> {
    const host = new ToolRuntime(new ToolRegistry(), options);
    if (guard) host.addGuard(guard);
    const { brain } = await openNavigationBrain({
      dir: join(dir, 'brain'),
      services: app.services,
      tools: (models) => createDesktopTools(app.services, { models }),
      hostRuntime: host,
      createLlm: () => new LlmManager(createModeProviders(resolveLlmConfig({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'test' }, {})), { system: NAVIGATION_PROMPT }),
      logger: new NullLogger(),
      thumbnails: false,
    });
    host.registry.register(new NavigateToTool(async () => brain));
    return host;
  }

  /** The model clicks, is refused, then claims it arrived anyway (what issue 18 saw). */
  function scriptTheFalseClaim(): void {
    server.push(
      toolReply([{ name: 'click', input: { text: 'Settings' } }]),
      toolReply([{ name: 'click', input: { text: 'Network' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'The network options are open' } }]),
    );
  }

  async function storedPaths(): Promise<number> {
    const { store } = await BrainStore.open(join(dir, 'brain'));
    return store.document.paths.length;
  }

  it('the person approved navigate_to but denied its clicks: DENIED, the reason, nothing clicked, nothing learned', async () => {
    const host = await hostWith({ requestApproval: async (request) => (request.call.name === 'navigate_to' ? 'approve' : 'deny') });
    scriptTheFalseClaim();
    const result = await host.execute({ id: 'n1', name: 'navigate_to', input: { target: 'Network settings' } }, new AbortController().signal);
    assert.equal(result.success, false, result.observation);
    assert.equal(result.code, 'DENIED');
    assert.match(result.observation, /Could not reach "Network settings": 2 steps were not allowed, so nothing was learned/);
    assert.match(result.observation, /click did NOT run \(the user denied it\)/);
    const report = result.data as NavigationReport;
    assert.equal(report.how, 'failed', 'never "already-there" on the model\'s word');
    assert.equal(report.denied?.length, 2);
    assert.equal(server.requestCount, 3, 'the model did claim success');
    assert.equal(app.fake.input.calls.filter((c) => c.type === 'click').length, 0, 'no click reached the desktop');
    assert.equal(await storedPaths(), 0, 'no path was learned');
  });

  it('no one can approve (gai mcp without an allowed app): the app guard refuses, and navigate_to says so', async () => {
    const guard = new AppPermissionGuard({
      windows: app.fake.windows,
      store: new JsonFileAppPermissionStore(join(dir, 'app-permissions.json')),
      settingNames: { allow: 'apps.allow', deny: 'apps.deny' },
    });
    const host = await hostWith({ autoApprove: ['read', 'action', 'system'] }, guard);
    scriptTheFalseClaim();
    const result = await host.execute({ id: 'n1', name: 'navigate_to', input: { target: 'Network settings' } }, new AbortController().signal);
    assert.equal(result.code, 'DENIED', result.observation);
    assert.match(result.observation, /GAI may not act in pages-—-home/);
    assert.equal((result.data as NavigationReport).success, false);
    assert.equal(app.fake.input.calls.filter((c) => c.type === 'click').length, 0);
    assert.equal(await storedPaths(), 0);
  });

  it('a replayed step that is refused stops the navigation: the path keeps no failure and no model is asked', async () => {
    const { store } = await BrainStore.open(dir);
    const learner = new ScriptedLearner(app, [['Settings', 'Network']]);
    const learning = new NavigationBrain({ store, services: app.services, callTool: app.callTool, learner, settleTimeoutMs: 200 });
    const learned = await learning.navigateTo('Network settings');
    assert.equal(learned.how, 'learned');
    app.show('home');
    const before = structuredClone(store.document.paths);

    const refusing = new NavigationBrain({
      store,
      services: app.services,
      callTool: async (call) => ToolResults.denied(call.name, `click "${String(call.input.text)}"`, 'no one could approve it'),
      learner,
      settleTimeoutMs: 200,
    });
    const report = await refusing.navigateTo('Network settings');
    assert.equal(report.success, false);
    assert.equal(report.how, 'failed');
    assert.match(report.message, /a step was not allowed, so nothing was learned\. step 1 \(click "Settings"\): click did NOT run \(no one could approve it\)/);
    assert.equal(learner.requests.length, 1, 'the model was not asked to learn around a refusal');
    assert.deepEqual(store.document.paths, before, 'the path is as it was: a refusal is not a broken way');
  });
});
