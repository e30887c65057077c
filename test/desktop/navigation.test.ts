// The navigation brain on a real X display: the pages fixture app, the real OCR and tools, the
// real @anthropic-ai/sdk against a scripted Messages API server that counts the model calls.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BRAIN_LIMITS } from '../../src/navigation/store/brainLimits';
import type { NavigationBrain } from '../../src/navigation/navigationBrain';
import { NAVIGATION_PROMPT } from '../../src/navigation/learning/navigationLearner';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { openNavigationBrain } from '../../src/app/navigationAssembly';
import { resolveLlmConfig } from '../../src/model/llmConfig';
import { LlmManager } from '../../src/model/llmManager';
import { createModeProviders } from '../../src/model/providers/providerFactory';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { startPagesApp, type PagesApp } from '../support/pagesFixture';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';

const display = suiteDisplay();
const click = (text: string) => toolReply([{ name: 'click', input: { text } }]);
const finish = (summary: string) => toolReply([{ name: 'finish_navigation', input: { success: true, summary } }]);

describe('navigation brain on a real X display', function () {
  this.timeout(60_000);
  let rig: DesktopRig;
  let server: ScriptedMessagesServer;
  let app: PagesApp | undefined;
  let dir: string;

  before(async () => {
    rig = createDesktopRig(display.env);
    server = await ScriptedMessagesServer.start();
  });
  after(async () => {
    await server.close();
    await rig.dispose();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gai-brain-'));
    app = await startPagesApp(display);
    rig.services.reader.reset();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function openBrain(): Promise<NavigationBrain> {
    const { brain } = await openNavigationBrain({
      dir,
      services: rig.services,
      hostRuntime: rig.runtime,
      tools: (models) => createDesktopTools(rig.services, { models }),
      createLlm: () => new LlmManager(createModeProviders(resolveLlmConfig({ provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'test' }, {})), { system: NAVIGATION_PROMPT }),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    return brain;
  }

  async function goHome(): Promise<void> {
    await app!.control('goto home');
  }

  it('learns "Network settings" through the model once, then replays it with zero model requests', async () => {
    const brain = await openBrain();
    server.push(click('Settings'), click('Network'), finish('The Network settings page is shown.'));
    const before = server.requestCount;
    const learned = await brain.navigateTo('Network settings');
    assert.equal(learned.success, true, learned.message);
    assert.equal(learned.how, 'learned');
    assert.equal(learned.modelCalls, 3);
    assert.equal(server.requestCount - before, 3);
    assert.equal(app!.page(), 'network');
    const path = brain.store.document.paths[0]!;
    assert.deepEqual(path.actions.map((a) => [a.tool, a.tool === 'click' ? a.input.text : '']), [['click', 'Settings'], ['click', 'Network']]);
    assert.ok(path.actions.every((a) => a.tool === 'click' && a.point), 'the learned points are kept as a fallback');
    // Every screen seen got a thumbnail of its window, within the brain's limit.
    const thumbnails = brain.store.document.nodes.map((n) => n.thumbnail);
    assert.ok(thumbnails.length >= 2);
    for (const thumbnail of thumbnails) {
      assert.equal(thumbnail?.mediaType, 'image/jpeg');
      assert.ok(thumbnail.data.length <= DEFAULT_BRAIN_LIMITS.maxThumbnailBytes && thumbnail.width <= 240, `${thumbnail.width}x${thumbnail.height}, ${thumbnail.data.length} B`);
    }
    console.log(`      thumbnails: ${thumbnails.map((t) => `${t?.width}x${t?.height} ${t?.data.length} B (base64)`).join(', ')}`);

    await goHome();
    const replayed = await brain.navigateTo('Network settings');
    assert.equal(replayed.how, 'replayed', replayed.message);
    assert.equal(replayed.modelCalls, 0);
    assert.equal(server.requestCount - before, 3, 'no request reached the model server');
    assert.equal(app!.page(), 'network');
    assert.equal(replayed.currentNode, learned.currentNode);
    assert.equal(brain.store.document.paths[0]!.metadata.usageCount, 2);

    // Already there: nothing runs.
    const there = await brain.navigateTo('network settings');
    assert.equal(there.how, 'already-there');
    assert.equal(there.steps, 0);
  });

  it('still arrives after the buttons moved (text anchors), without the model', async () => {
    const brain = await openBrain();
    server.push(click('Settings'), click('Network'), finish('Network settings shown.'));
    await brain.navigateTo('Network settings');
    await app!.control('move moved');
    await goHome();
    const before = server.requestCount;
    const replayed = await brain.navigateTo('Network settings');
    assert.equal(replayed.how, 'replayed', replayed.message);
    assert.equal(server.requestCount, before);
    assert.equal(app!.page(), 'network');
  });

  it('after a button is renamed the replay fails, relearning repairs the path, and the metadata shows the failure', async () => {
    const brain = await openBrain();
    server.push(click('Settings'), click('Network'), finish('Network settings shown.'));
    const learned = await brain.navigateTo('Network settings');
    await app!.control('relabel Network Connections');
    await goHome();
    const before = server.requestCount;
    server.push(click('Connections'), finish('Network settings shown.'));
    const progress: string[] = [];
    const repaired = await brain.navigateTo('Network settings', { onProgress: (m) => progress.push(m) });
    assert.ok(progress.some((m) => m.startsWith('✗ click "Network"')), progress.join(' / '));
    assert.equal(repaired.success, true, repaired.message);
    assert.equal(repaired.how, 'repaired', `${JSON.stringify(repaired)}\n${JSON.stringify(app!.events().slice(-6))}`);
    assert.equal(repaired.replayFailure?.step, 1);
    assert.match(repaired.replayFailure?.reason ?? '', /click "Network"/);
    assert.equal(server.requestCount - before, 2, 'learning started where the replay failed');
    assert.equal(app!.page(), 'network');
    assert.deepEqual(repaired.pathIds, learned.pathIds, 'the same path, repaired');
    const path = brain.store.document.paths.find((p) => p.id === learned.pathIds[0])!;
    assert.deepEqual(path.actions.map((a) => (a.tool === 'click' ? a.input.text : a.tool)), ['Settings', 'Connections']);
    assert.equal(path.metadata.failures, 1);
    assert.equal(path.metadata.lastFailure?.step, 1);
    assert.ok(path.metadata.successRate < 1);

    await goHome();
    const again = await brain.navigateTo('Network settings');
    assert.equal(again.how, 'replayed', again.message);
    assert.equal(server.requestCount - before, 2);
  });

  it('reaches a two-hop target by chaining two learned paths', async () => {
    const brain = await openBrain();
    server.push(click('Settings'), finish('Settings shown.'));
    const first = await brain.navigateTo('Settings');
    assert.equal(first.how, 'learned', first.message);
    server.push(click('Network'), finish('Network settings shown.'));
    const second = await brain.navigateTo('Network settings');
    assert.equal(second.how, 'learned', second.message);
    assert.equal(brain.store.document.paths.length, 2);

    await goHome();
    const before = server.requestCount;
    const chained = await brain.navigateTo('Network settings');
    assert.equal(chained.how, 'replayed', chained.message);
    assert.deepEqual(chained.pathIds, [...first.pathIds, ...second.pathIds]);
    assert.equal(chained.steps, 2);
    assert.equal(server.requestCount, before);
    assert.equal(app!.page(), 'network');
  });

  it('identifies the same page with a changed clock as the same node, and another page as another', async () => {
    const brain = await openBrain();
    const first = await brain.identifyCurrentNode();
    await new Promise((resolve) => setTimeout(resolve, 2_100)); // the clock and the counter change
    const again = await brain.identifyCurrentNode();
    assert.equal(again.node.key, first.node.key);
    assert.equal(again.isNew, false);
    await app!.control('addline "quarterly report 2026.pdf"'); // Documents only: Home is unchanged
    await app!.control('goto settings');
    const settings = await brain.identifyCurrentNode();
    assert.notEqual(settings.node.key, first.node.key);
    assert.equal(settings.isNew, true);
    assert.match(settings.node.label, /Settings/);
    assert.equal(brain.getAllNodes().length, 2);
  });

  it('recognises a known page by its window signature without OCR once the clock is learned volatile, and never another page by it', async () => {
    const brain = await openBrain();
    const home = await brain.identifyCurrentNode();
    const ocr = rig.services.desktop.ocr;
    const recognize = ocr.recognize.bind(ocr);
    let reads = 0;
    ocr.recognize = (image, options) => {
      reads++;
      return recognize(image, options);
    };
    try {
      // Each OCR-confirmed visit teaches the signature which cells tick (clock, counter); where the
      // clock's tick stays within the grid's tolerance, or the accessibility bus gives the window a
      // tree digest, it matches at once, with nothing to learn.
      let matched: string | undefined;
      for (let i = 0; i < 8 && matched !== 'signature'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const before = reads;
        const again = await brain.identifyCurrentNode();
        assert.equal(again.node.key, home.node.key);
        matched = again.matchedBy;
        if (matched === 'signature') assert.equal(reads, before, 'identified without OCR');
      }
      assert.equal(matched, 'signature', 'the page was identified by its signature within 8 visits');
      assert.ok(brain.store.document.nodes.find((n) => n.key === home.node.key)?.signature, 'the node keeps its signature');

      await app!.control('goto settings');
      const settings = await brain.identifyCurrentNode();
      assert.notEqual(settings.node.key, home.node.key);
      assert.equal(settings.matchedBy, 'new', 'another page is read, not matched by signature');
    } finally {
      ocr.recognize = recognize;
    }
  });

  it('without a model, an unknown target fails clearly and nothing is stored', async () => {
    const { brain } = await openNavigationBrain({ dir, services: rig.services, tools: (models) => createDesktopTools(rig.services, { models }), hostRuntime: rig.runtime, logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const report = await brain.navigateTo('Display');
    assert.equal(report.success, false);
    assert.match(report.message, /no model is configured/);
    assert.equal(brain.store.document.paths.length, 0);
    assert.equal(app!.page(), 'home');
  });
});
