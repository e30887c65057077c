// The navigator's decisions on an in-memory desktop: a small app of pages whose buttons lead to
// other pages, fake tools that press them, and a fake learner standing in for the model.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BRAIN_LIMITS } from '../../src/brain/brainLimits';
import { BrainStore } from '../../src/brain/brainStore';
import type { PathAction } from '../../src/brain/brainTypes';
import { NavigationBrain } from '../../src/brain/navigationBrain';
import type { LearnOutcome, LearnRequest, NavigationLearner } from '../../src/brain/navigationLearner';
import type { ToolInvocation } from '../../src/brain/pathActions';
import type { ToolResult } from '../../src/core/types';
import { MemoryLogger } from '../../src/logging/logger';
import { createFakeDesktop, makeServices, ocrWords, solidFrame, window, type FakeDesktop } from '../support/fakeDesktop';

type Pages = Record<string, { heading: string; lines: string[]; buttons: Record<string, string> }>;

/** A fake app: each page shows a heading, some lines and buttons; a press shows another page. */
class PagesDesktop {
  readonly fake: FakeDesktop = createFakeDesktop();
  readonly services = makeServices(this.fake);
  page = 'home';
  presses: string[] = [];

  constructor(readonly pages: Pages) {
    this.show('home');
  }

  show(page: string): void {
    const spec = this.pages[page]!;
    this.page = page;
    const words = [{ text: spec.heading, x: 20, y: 20, w: 200, h: 40 }];
    spec.lines.forEach((line, i) => words.push({ text: line, x: 20, y: 80 + i * 30, w: 160, h: 16 }));
    Object.keys(spec.buttons).forEach((label, i) => words.push({ text: label, x: 20, y: 300 + i * 40, w: 120, h: 16 }));
    this.fake.ocr.analysis = ocrWords(words);
    this.fake.windows.active = window(`Pages — ${spec.heading}`);
    // A different picture per page, so the screen reader sees the change.
    const shade = 40 + 20 * Object.keys(this.pages).indexOf(page);
    this.fake.screen.setFrame(solidFrame(800, 600, [shade, shade, shade, 255]));
  }

  /** The tools a replay calls: click by text presses a button of the current page. */
  callTool = async (call: ToolInvocation): Promise<ToolResult> => {
    const text = call.input.text;
    const target = typeof text === 'string' ? this.pages[this.page]!.buttons[text] : undefined;
    if (call.name !== 'click' || target === undefined) {
      return { success: false, code: 'NOT_FOUND', durationMs: 1, observation: `Text "${String(text)}" not found on screen.` };
    }
    this.presses.push(text as string);
    this.show(target);
    return { success: true, durationMs: 1, observation: `Clicked "${String(text)}".`, data: { point: { x: 80, y: 300 } } };
  };
}

/** Stands in for the model: presses the given buttons and says whether it arrived. */
class ScriptedLearner implements NavigationLearner {
  requests: LearnRequest[] = [];
  constructor(
    private readonly app: PagesDesktop,
    private readonly plans: string[][],
  ) {}

  async learn(request: LearnRequest): Promise<LearnOutcome> {
    this.requests.push(request);
    const plan = this.plans.shift() ?? [];
    const actions: PathAction[] = [];
    for (const text of plan) {
      const result = await this.app.callTool({ name: 'click', input: { text } });
      if (result.success) actions.push({ tool: 'click', input: { text } });
    }
    return { success: true, summary: 'arrived', actions, modelCalls: plan.length + 1, durationMs: 5 };
  }
}

const PAGES: Pages = {
  home: { heading: 'Home', lines: ['Welcome to Pages'], buttons: { Settings: 'settings' } },
  settings: { heading: 'Settings', lines: ['Choose a section'], buttons: { Network: 'network', Display: 'display', Back: 'home' } },
  network: { heading: 'Network settings', lines: ['Wi-Fi: connected', 'Proxy: none'], buttons: { Back: 'settings' } },
  display: { heading: 'Display', lines: ['Brightness: 80%'], buttons: { 'Network panel': 'network', Back: 'settings' } },
};

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
