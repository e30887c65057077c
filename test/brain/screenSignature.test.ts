// The cheap screen signature a replay checks before any OCR, the settle that waits only while
// the screen changes, and the navigator using both: fewer OCR passes, the same safety.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrainStore } from '../../src/navigation/store/brainStore';
import type { BrainNode, StoredSignature } from '../../src/navigation/store/brainTypes';
import { validateDocument } from '../../src/navigation/store/brainValidation';
import { NavigationBrain } from '../../src/navigation/navigationBrain';
import { ReplayWatch } from '../../src/navigation/routes/replayWatch';
import { absorbSignature, matchSignature, MAX_VOLATILE_SHARE, nodeBySignature, observeSignature, signatureUsable } from '../../src/navigation/recognition/screenSignature';
import type { BBox } from '../../src/common/geometry';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import { waitForSettle } from '../../src/desktop/reading/settle';
import { FakeScreen, FakeWindows, paintRect, solidFrame, window } from '../support/fakeDesktop';
import { documentOf, homePage, nodeFor } from './support/brainFixtures';
import { PAGES, PagesDesktop, ScriptedLearner } from './support/inMemoryPages';

const WINDOW: BBox = { x: 100, y: 50, width: 640, height: 480 };
const base = (): ScreenImage => paintRect(paintRect(solidFrame(1024, 768), { x: 120, y: 70, width: 300, height: 40 }, [30, 30, 30, 255]), { x: 500, y: 400, width: 120, height: 30 }, [0, 90, 200, 255]);
const observe = (image: ScreenImage, title = 'Editor — notes.txt', bounds: BBox = WINDOW) => observeSignature({ programName: 'editor', windowTitle: title, bounds, image })!;
const stored = (image: ScreenImage, title?: string): StoredSignature => absorbSignature(undefined, observe(image, title));
const withSignature = (node: BrainNode, signature: StoredSignature): BrainNode => ({ ...node, programName: 'editor', key: `editor::${node.stateHash}`, signature });

describe('screen signature', function () {
  it('matches the same window, also moved, and not another title, size or any changed cell', function () {
    const signature = stored(base());
    assert.equal(matchSignature(signature, observe(base())), 'pixels');
    // The same window 30 px further right: its own pixels are what count.
    const moved: ScreenImage = { ...solidFrame(1024, 768), data: Buffer.alloc(1024 * 768 * 4) };
    const src = base();
    for (let y = 0; y < 768; y++) for (let x = 0; x + 30 < 1024; x++) src.data.copy(moved.data, (y * 1024 + x + 30) * 4, (y * 1024 + x) * 4, (y * 1024 + x) * 4 + 4);
    assert.equal(matchSignature(signature, observe(moved, undefined, { ...WINDOW, x: WINDOW.x + 30 })), 'pixels');
    assert.equal(matchSignature(signature, observe(base(), 'Editor — todo.txt')), undefined, 'another title');
    assert.equal(matchSignature(signature, observe(base(), undefined, { ...WINDOW, width: 600 })), undefined, 'another size');
    // One word's worth of pixels changed (a 7x10 glyph) is another screen until OCR says otherwise.
    assert.equal(matchSignature(signature, observe(paintRect(base(), { x: 300, y: 300, width: 7, height: 10 }, [0, 0, 0, 255]))), undefined);
    // Outside the window nothing counts.
    assert.equal(matchSignature(signature, observe(paintRect(base(), { x: 800, y: 600, width: 100, height: 100 }, [0, 0, 0, 255]))), 'pixels');
  });

  it('learns volatile cells from readings OCR called the same node, and only those are ignored', function () {
    const clock = (shade: number) => paintRect(base(), { x: 650, y: 60, width: 60, height: 14 }, [shade, shade, shade, 255]);
    let signature = stored(clock(10));
    assert.equal(matchSignature(signature, observe(clock(90))), undefined, 'the clock ticked: not known to be volatile yet');
    signature = absorbSignature(signature, observe(clock(90)));
    assert.equal(signature.seen, 2);
    assert.equal(matchSignature(signature, observe(clock(170))), 'pixels', 'the clock is volatile now');
    assert.equal(matchSignature(signature, observe(paintRect(clock(170), { x: 120, y: 200, width: 200, height: 20 }, [0, 0, 0, 255]))), undefined, 'a new line elsewhere is not');
    // Another title starts the signature afresh.
    const other = absorbSignature(signature, observe(clock(170), 'Editor — other.txt'));
    assert.deepEqual([other.seen, other.title, matchSignature(other, observe(clock(10), 'Editor — other.txt'))], [1, 'editor other txt', undefined]);
  });

  it('a signature that is mostly volatile never matches', function () {
    let signature = stored(base());
    for (let i = 0; i < 3; i++) signature = absorbSignature(signature, observe(paintRect(base(), { x: 100, y: 50 + i * 60, width: 640, height: 60 }, [i * 60, 0, 0, 255])));
    assert.equal(signatureUsable(signature), false, `more than ${MAX_VOLATILE_SHARE * 100}% of the cells are volatile`);
    assert.equal(matchSignature(signature, observe(base())), undefined);
  });

  it('an equal accessibility tree digest matches even when pixels moved; another does not help', function () {
    const signature = absorbSignature(undefined, observeSignature({ programName: 'editor', windowTitle: 'T', bounds: WINDOW, image: base(), tree: 'd1' })!);
    const changed = paintRect(base(), { x: 300, y: 300, width: 50, height: 20 }, [0, 0, 0, 255]);
    assert.equal(matchSignature(signature, observeSignature({ programName: 'editor', windowTitle: 'T', bounds: WINDOW, image: changed, tree: 'd1' })!), 'tree');
    assert.equal(matchSignature(signature, observeSignature({ programName: 'editor', windowTitle: 'T', bounds: WINDOW, image: changed, tree: 'd2' })!), undefined);
  });

  it('answers a node only when exactly one of the program matches; ambiguity and other programs are no answer', function () {
    const a = withSignature(nodeFor(homePage()), stored(base()));
    const b = withSignature({ ...nodeFor(homePage()), stateHash: 'other' }, stored(paintRect(base(), { x: 300, y: 300, width: 40, height: 40 })));
    assert.equal(nodeBySignature([a, b], observe(base()))?.node.stateHash, a.stateHash);
    const twin = { ...a, stateHash: 'twin', key: 'editor::twin' };
    assert.equal(nodeBySignature([a, twin], observe(base())), undefined, 'two nodes look alike: OCR decides');
    assert.equal(nodeBySignature([{ ...a, programName: 'browser' }], observe(base())), undefined);
  });

  it('is stored with a node (brain version 2) and validated: a bad grid names the field', function () {
    const node = withSignature(nodeFor(homePage()), stored(base()));
    assert.ok(validateDocument(documentOf([node], [])).ok);
    assert.ok(JSON.stringify(node.signature).length < 3_000, `${JSON.stringify(node.signature).length} characters`);
    const bad = documentOf([{ ...node, signature: { ...node.signature!, cells: 'AAAA' } }], []);
    const checked = validateDocument(bad);
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? '' : checked.errors.join(), /^nodes\.0\.signature\.cells: expected \d+ bytes/);
  });
});

/** A screen whose grabs return the frames given, one per grab, the last one from then on. */
class ScriptedScreen extends FakeScreen {
  constructor(private readonly frames: ScreenImage[]) {
    super(frames[0]!.width, frames[0]!.height);
  }
  override async grab(region?: BBox): Promise<ScreenImage> {
    const next = this.frames.length > 1 ? this.frames.shift()! : this.frames[0]!;
    this.setFrame(next);
    return super.grab(region);
  }
}

describe('settle', function () {
  const a = solidFrame(64, 64, [10, 10, 10, 255]);
  const b = solidFrame(64, 64, [20, 20, 20, 255]);
  const c = solidFrame(64, 64, [30, 30, 30, 255]);

  it('with the frame from before, waits for the app to react before calling the screen settled', async function () {
    const screen = new ScriptedScreen([a, a, a, b, c, c]);
    const result = await waitForSettle(screen, { before: a, intervalMs: 1, timeoutMs: 5_000 });
    assert.deepEqual([result.settled, result.changed, result.frame.data.equals(c.data), screen.grabs.length], [true, true, true, 6]);
  });

  it('without it, two equal grabs are settled (the old picture too)', async function () {
    const screen = new ScriptedScreen([a, a, b, c, c]);
    const result = await waitForSettle(screen, { intervalMs: 1 });
    assert.deepEqual([result.settled, result.changed, result.frame.data.equals(a.data), screen.grabs.length], [true, undefined, true, 2]);
  });

  it('gives up on a reaction that never comes, saying nothing changed', async function () {
    const screen = new ScriptedScreen([a]);
    const result = await waitForSettle(screen, { before: a, intervalMs: 1, reactionMs: 20 });
    assert.deepEqual([result.settled, result.changed], [true, false]);
  });

  it('watches only the region it is given', async function () {
    const outside = paintRect(a, { x: 40, y: 40, width: 10, height: 10 }, [200, 0, 0, 255]);
    const screen = new ScriptedScreen([a, outside, a, outside]);
    const region = { x: 0, y: 0, width: 32, height: 32 };
    const result = await waitForSettle(screen, { region, intervalMs: 1 });
    assert.deepEqual([result.settled, screen.grabs.length, result.frame.width], [true, 2, 32], 'a change elsewhere (a caret) does not keep it waiting');
  });
});

describe('navigation with screen signatures (in-memory desktop)', function () {
  this.timeout(20_000);
  let dir: string;
  let app: PagesDesktop;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-nav-signature-'));
    app = new PagesDesktop(structuredClone(PAGES));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A two-step path to Network settings whose first step was recorded as reaching Settings. */
  async function learnedBrain(): Promise<NavigationBrain> {
    const { store } = await BrainStore.open(dir);
    const brain = new NavigationBrain({ store, services: app.services, callTool: app.callTool, learner: new ScriptedLearner(app, [['Settings'], ['Network']]), settleTimeoutMs: 200 });
    await brain.navigateTo('Settings');
    await brain.navigateTo('Network settings');
    const settings = brain.store.document.nodes.find((n) => n.label === 'Pages — Settings')!;
    const network = brain.store.document.nodes.find((n) => n.label === 'Pages — Network settings')!;
    await brain.store.update((draft) => {
      const second = draft.paths.find((p) => p.to === network.key)!;
      const home = draft.paths.find((p) => p.to === settings.key)!.from;
      draft.paths = [{ ...second, from: home, actions: [{ tool: 'click', input: { text: 'Settings' }, reaches: settings.key }, { tool: 'click', input: { text: 'Network' } }] }];
    });
    return brain;
  }

  it('identifies a known screen and verifies a replayed step by signature, without OCR', async function () {
    const brain = await learnedBrain();
    assert.ok(brain.store.document.nodes.every((n) => n.signature), 'every node seen got a signature');
    app.show('home');
    const calls = app.fake.ocr.calls;
    const replay = await brain.navigateTo('Network settings');
    assert.equal(replay.how, 'replayed', replay.message);
    assert.equal(app.page, 'network');
    assert.equal(app.fake.ocr.calls, calls, 'start, step check and arrival: no OCR (the fake tools read none either)');
    assert.equal((await brain.identifyCurrentNode()).matchedBy, 'signature');
  });

  it('falls back to OCR when the pixels differ, teaches the signature, and a wrong screen still stops the replay', async function () {
    const brain = await learnedBrain();
    // Settings now shows a ticking clock: same title and size, other pixels in one place.
    let tick = 0;
    const show = app.show.bind(app);
    app.show = (page: string) => {
      show(page);
      if (page === 'settings') app.fake.screen.paint({ x: 700, y: 10, width: 40, height: 12 }, [++tick * 50, 0, 0, 255]);
    };
    app.show('home');
    let calls = app.fake.ocr.calls;
    assert.equal((await brain.navigateTo('Network settings')).how, 'replayed');
    assert.ok(app.fake.ocr.calls > calls, 'the changed Settings screen was read');
    app.show('home');
    assert.equal((await brain.navigateTo('Network settings')).how, 'replayed', 'the clock ticked again: still Settings');
    app.show('home');
    calls = app.fake.ocr.calls;
    assert.equal((await brain.navigateTo('Network settings')).how, 'replayed');
    assert.equal(app.fake.ocr.calls, calls, 'the clock is volatile now: no OCR');

    // Settings opens Display instead: another title and pixels, so OCR decides, and it is not Settings.
    app.pages.home!.buttons.Settings = 'display';
    app.show('home');
    const wrong = await brain.navigateTo('Network settings');
    assert.equal(wrong.replayFailure?.step, 0, wrong.message);
    assert.match(wrong.replayFailure?.reason ?? '', /not "Pages — Settings" that this step led to/);
  });
});

describe('replay watch (one step, its window only)', function () {
  const click = { tool: 'click' as const, input: { text: 'Open' } };

  function watchOn(screen: FakeScreen, windows: FakeWindows): ReplayWatch {
    return new ReplayWatch({ screen, windows, peek: () => Promise.reject(new Error('not asked')), teach: async () => {}, labelOf: (key) => key });
  }

  it('grabs only the active window, and a step that changed nothing there or anywhere stops the replay', async function () {
    const screen = new FakeScreen(1024, 768);
    const windows = new FakeWindows(window('Editor', { x: 100, y: 100, width: 400, height: 300 }, '0x1'));
    const verifier = watchOn(screen, windows).verifier();
    const signal = new AbortController().signal;
    await verifier.prepare(signal);
    screen.paint({ x: 700, y: 600, width: 50, height: 50 }); // outside the window: not this step's doing
    assert.equal(await verifier.check(0, click, false, signal), 'the screen did not change after it');
    assert.deepEqual(screen.grabs, [{ x: 100, y: 100, width: 400, height: 300 }, { x: 100, y: 100, width: 400, height: 300 }]);
  });

  it('a dialog that opened elsewhere (another active window) is a change, as is a change inside the window', async function () {
    const screen = new FakeScreen(1024, 768);
    const windows = new FakeWindows(window('Editor', { x: 100, y: 100, width: 400, height: 300 }, '0x1'));
    const watch = watchOn(screen, windows);
    const signal = new AbortController().signal;
    const verifier = watch.verifier();
    await verifier.prepare(signal);
    windows.active = window('Open file', { x: 600, y: 200, width: 300, height: 200 }, '0x2');
    assert.equal(await verifier.check(0, click, true, signal), undefined);

    await verifier.prepare(signal);
    screen.paint({ x: 650, y: 250, width: 20, height: 20 });
    await watch.settle(200, signal);
    assert.equal(await verifier.check(1, click, true, signal), undefined);
  });
});
