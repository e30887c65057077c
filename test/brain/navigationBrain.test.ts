// The navigator's decisions on an in-memory desktop: a small app of pages whose buttons lead to
// other pages, fake tools that press them, and a fake learner standing in for the model.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BRAIN_LIMITS } from '../../src/navigation/store/brainLimits';
import { BrainStore } from '../../src/navigation/store/brainStore';
import { NavigationBrain } from '../../src/navigation/navigationBrain';
import type { NavigationLearner } from '../../src/navigation/learning/navigationLearner';
import { MemoryLogger } from '../../src/common/logger';
import { window } from '../support/fakeDesktop';
import { PAGES, PagesDesktop, ScriptedLearner } from './support/inMemoryPages';

describe('navigation brain (navigator decisions, in-memory desktop)', function () {
  this.timeout(20_000);
  let dir: string;
  let app: PagesDesktop;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-nav-unit-'));
    app = new PagesDesktop(structuredClone(PAGES));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function brainWith(learner?: NavigationLearner): Promise<NavigationBrain> {
    const { store } = await BrainStore.open(dir);
    return new NavigationBrain({ store, services: app.services, callTool: app.callTool, ...(learner ? { learner } : {}), settleTimeoutMs: 200 });
  }

  it('a failing second hop counts the first as a success, the second as a failure, and is repaired from where it failed', async () => {
    const learner = new ScriptedLearner(app, [['Settings'], ['Network'], ['Display', 'Network panel']]);
    const brain = await brainWith(learner);
    const first = await brain.navigateTo('Settings');
    const second = await brain.navigateTo('Network settings');
    assert.deepEqual([first.how, second.how], ['learned', 'learned']);
    app.show('home');
    app.pages.settings!.buttons = { Display: 'display', Back: 'home' }; // "Network" is gone from Settings

    const repaired = await brain.navigateTo('Network settings');
    assert.equal(repaired.how, 'repaired', repaired.message);
    assert.equal(repaired.replayFailure?.pathId, second.pathIds[0]);
    assert.equal(learner.requests.at(-1)?.context?.includes('click "Network"'), true, 'the model is told what failed');
    assert.equal(app.page, 'network');
    const doc = brain.store.document;
    const hop1 = doc.paths.find((p) => p.id === first.pathIds[0])!;
    const hop2 = doc.paths.find((p) => p.id === second.pathIds[0])!;
    assert.deepEqual([hop1.metadata.successes, hop1.metadata.failures], [2, 0], 'the first hop did its part');
    assert.deepEqual([hop2.metadata.successes, hop2.metadata.failures], [1, 1]);
    assert.deepEqual(hop2.actions.map((a) => (a.tool === 'click' ? a.input.text : a.tool)), ['Display', 'Network panel']);
  });

  it('a replay that arrives elsewhere keeps every step that ran and adds the learned ones', async () => {
    const learner = new ScriptedLearner(app, [['Settings', 'Network'], ['Network panel']]);
    const brain = await brainWith(learner);
    const learned = await brain.navigateTo('Network settings');
    app.show('home');
    app.pages.settings!.buttons.Network = 'display'; // the same button now opens Display

    const repaired = await brain.navigateTo('Network settings');
    assert.equal(repaired.how, 'repaired', repaired.message);
    assert.match(repaired.replayFailure?.reason ?? '', /arrived at "Pages — Display"/);
    const path = brain.store.document.paths.find((p) => p.id === learned.pathIds[0])!;
    assert.deepEqual(path.actions.map((a) => (a.tool === 'click' ? a.input.text : a.tool)), ['Settings', 'Network', 'Network panel']);
    assert.equal(path.metadata.lastFailure?.step, 1);
  });

  it('without a learner a failed replay is reported with where it failed, and the path keeps its failure', async () => {
    const brain = await brainWith(new ScriptedLearner(app, [['Settings', 'Network']]));
    const learned = await brain.navigateTo('Network settings');
    const replayOnly = new NavigationBrain({ store: brain.store, services: app.services, callTool: app.callTool, settleTimeoutMs: 200 });
    app.show('home');
    app.pages.settings!.buttons = { Back: 'home' };
    const report = await replayOnly.navigateTo('Network settings');
    assert.equal(report.success, false);
    assert.equal(report.how, 'failed');
    assert.match(report.message, /the learned way failed .*no model is configured/);
    assert.equal(report.replayFailure?.step, 1);
    assert.equal(replayOnly.store.document.paths.find((p) => p.id === learned.pathIds[0])!.metadata.failures, 1);
  });

  it('gives a new screen a thumbnail of its window, a known one without a thumbnail one on its next visit, and encodes no more', async () => {
    const brain = await brainWith();
    const encodes: number[] = [];
    const encode = app.fake.images.encode.bind(app.fake.images);
    app.fake.images.encode = (image, format, options) => {
      encodes.push(image.width);
      return encode(image, format, options);
    };
    const home = await brain.identifyCurrentNode();
    assert.equal(home.isNew, true);
    const thumbnail = home.node.thumbnail;
    assert.deepEqual([thumbnail?.mediaType, thumbnail?.width, thumbnail?.height], ['image/jpeg', 240, 180]);
    assert.ok((thumbnail?.data.length ?? Infinity) <= DEFAULT_BRAIN_LIMITS.maxThumbnailBytes);
    assert.deepEqual(brain.store.document.nodes[0]?.thumbnail, thumbnail, 'stored with the node');
    assert.deepEqual(encodes, [800], 'the window (the whole 800x600 screen here), encoded once');

    assert.equal((await brain.identifyCurrentNode()).node.visits, 2);
    assert.equal(encodes.length, 1, 'a known node with a thumbnail is not encoded again');

    await brain.store.update((draft) => void draft.nodes.forEach((n) => delete n.thumbnail));
    app.fake.windows.active = window('Pages — Home', { x: 0, y: 0, width: 400, height: 600 }); // the same words inside
    const again = await brain.identifyCurrentNode();
    assert.equal(again.isNew, false);
    assert.deepEqual([again.node.thumbnail?.width, again.node.thumbnail?.height], [240, 360]);
    assert.deepEqual(encodes, [800, 400], 'cut to the window bounds');
    assert.ok(brain.store.document.nodes[0]?.thumbnail);
  });

  it('identifies a new screen without a thumbnail when encoding fails, and says so in the log', async () => {
    const { store } = await BrainStore.open(dir);
    const logger = new MemoryLogger();
    const brain = new NavigationBrain({ store, services: app.services, callTool: app.callTool, logger, settleTimeoutMs: 200 });
    app.fake.images.encode = () => Promise.reject(new Error('sharp: out of memory'));
    const found = await brain.identifyCurrentNode();
    assert.equal(found.isNew, true);
    assert.equal(found.node.label, 'Pages — Home');
    assert.equal(found.node.thumbnail, undefined);
    assert.equal(brain.store.document.nodes.length, 1);
    assert.deepEqual(logger.lines, ['[warn] navigation: making a thumbnail of the screen failed: sharp: out of memory']);
  });

  it('with thumbnails switched off, keeps no picture of the screen and encodes nothing', async () => {
    const { store } = await BrainStore.open(dir);
    let encodes = 0;
    const encode = app.fake.images.encode.bind(app.fake.images);
    app.fake.images.encode = (...args) => {
      encodes++;
      return encode(...args);
    };
    const brain = new NavigationBrain({ store, services: app.services, callTool: app.callTool, settleTimeoutMs: 200, thumbnails: false });
    const found = await brain.identifyCurrentNode();
    assert.equal(found.isNew, true);
    assert.equal(found.node.thumbnail, undefined);
    assert.equal(brain.store.document.nodes[0]?.thumbnail, undefined);
    assert.equal(encodes, 0);
  });

  it('refuses an empty target with INVALID_INPUT, before touching the screen', async () => {
    const brain = await brainWith();
    await assert.rejects(brain.navigateTo('   '), (error: Error & { code?: string }) => error.code === 'INVALID_INPUT' && /target/.test(error.message));
    assert.equal(app.fake.ocr.calls, 0);
  });
});
