// Click by text on web pages in real browsers (issue 19): our people page in Firefox ESR with its
// accessibility tree and without (OCR only), in Chromium started as a person starts it (no tree:
// OCR only), and our workspace page in a second Chromium app window (--app, like an Electron app,
// no tree), side by side on a 1920x1080 screen. Ground truth from each page's DOM. Every label is
// asked of the target locator without clicking (its point must lie in the label's box, or it
// must say it will not click), then real clicks through the click tool, recorded by the page.
import { strict as assert } from 'node:assert';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import { browsersWithoutTree } from '../../src/platform/linux/browserTrees';
import { checkSetup } from '../../src/platform/setupCheck';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { activateWindow, delay, type GroundTruthLabel } from './support/realApps/appWindow';
import { ChromiumApp } from './support/realApps/chromiumApp';
import { FirefoxApp } from './support/realApps/firefoxApp';
import { foldLabel } from './support/realApps/labelScore';
import { LabelBoard, missingPrograms, type LabelFloor } from './support/realApps/labelBoard';

const display = suiteDisplay();
const PROGRAMS = ['firefox-esr', 'chromium'];
const LEFT = { x: 0, y: 0, width: 960, height: 1080 };
const RIGHT = { x: 960, y: 0, width: 960, height: 1080 };
// Issue 19's goal is asserted where it holds (Firefox with its tree: 98.1%); below, what holds
// now (measured 2026-11-27, no misclick anywhere), the failing labels printed on every run:
// Chromium's people page by OCR 98.1% in one run, 96.2% in another (small grey help text); Firefox
// by OCR 94.3% (small grey text read "im tation", "Pending invites", an e-mail address with its
// dot lost); the workspace page by OCR 90.1% (10-px letter-spaced caps, a white-on-red badge, a
// bold selected tab, the "−" glyph).
const HOLDS_NOW: Record<string, LabelFloor> = {
  'firefox (no tree)': { landed: 0.94, misclicks: 0 },
  'chromium (no tree)': { landed: 0.96, misclicks: 0 },
  'chromium app (no tree)': { landed: 0.9, misclicks: 0 },
};

/** A browser on the left half whose page records clicks. */
interface PageBrowser {
  windowId: string;
  /** Its accessibility tree is on: aria-labels can be asked for. */
  tree: boolean;
  groundTruth(): Promise<GroundTruthLabel[]>;
  domLabels(): Promise<Array<{ id: string; tag: string; text: string; ariaLabel: string }>>;
  takeClicks(): string[] | Promise<string[]>;
  waitForClicks(timeoutMs?: number): Promise<string[]>;
  stop(): Promise<void>;
}

describe('web pages in Firefox and Chromium, with and without their tree: every label', function () {
  this.timeout(900_000);
  let rig: DesktopRig;
  let locator: TargetLocator;
  /** The second Chromium app on the right half, no tree, for the whole run: the screen is never empty. */
  let app: ChromiumApp | undefined;
  let left: PageBrowser | undefined;
  const board = new LabelBoard((text) => locator.locate(text), HOLDS_NOW);

  before(async function () {
    const missing = missingPrograms(PROGRAMS);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs them)`);
      this.skip();
    }
    rig = createDesktopRig(display.env);
    locator = new TargetLocator(rig.services);
    app = await ChromiumApp.start(display.env, { page: 'workspace.html', placement: RIGHT, tree: false });
  });
  afterEach(async () => {
    await left?.stop();
    left = undefined;
  });
  after(async () => {
    board.printTotals();
    await app?.stop();
    await rig?.dispose();
  });

  /** Every button and link of the page clicked by its text through the click tool; the page records each hit. */
  async function clickAll(name: string, browser: PageBrowser, tags: string[]): Promise<void> {
    await activateWindow(browser.windowId, display.env);
    await delay(300);
    await browser.takeClicks();
    // Without a tree an aria-label is shown to no one: such a page is asked for its drawn texts.
    const textOf = (l: { text: string; ariaLabel: string }): string => (browser.tree ? l.ariaLabel || l.text : l.text);
    const targets = (await browser.domLabels()).filter((l) => tags.includes(l.tag) && textOf(l) !== '' && !/^\p{So}+$/u.test(textOf(l)));
    const counts = new Map<string, number>();
    for (const t of targets) counts.set(foldLabel(textOf(t)), (counts.get(foldLabel(textOf(t))) ?? 0) + 1);
    const wrong: string[] = [];
    const missed: string[] = [];
    for (const target of targets) {
      const text = textOf(target);
      if (counts.get(foldLabel(text))! > 1) continue; // repeated texts are clicked with `near` below
      const result = await rig.run('click', { text });
      const hits = await browser.waitForClicks(result.success ? 1500 : 300);
      if (!result.success) {
        assert.deepEqual(hits, [], `"${text}": the click tool failed (${result.error}) yet something was clicked`);
        missed.push(`"${text}" (${result.code}: ${result.error})`);
      } else if (hits.length !== 1 || hits[0] !== target.id) {
        wrong.push(`"${text}" hit ${JSON.stringify(hits)}, wanted ${target.id}`);
      }
    }
    console.log(`      ${name}: ${targets.length - missed.length - wrong.length} of ${targets.length} clicked on target; missed: ${missed.join(', ') || 'none'}`);
    assert.ok(targets.length >= 12, `${name}: only ${targets.length} buttons and links`);
    assert.deepEqual(wrong, [], `${name}: clicks that landed on another element`);
    // Where the labels' goal does not hold yet, the same labels may be missed here (printed above); never clicked wrong.
    if (!(name in HOLDS_NOW)) assert.deepEqual(missed, [], `${name}: targets the click tool did not click`);
    else assert.ok(missed.length <= 3, `${name}: ${missed.length} targets the click tool did not click`);
  }

  /** The Edit of each person's row, by `near` the person's name: the row decides, not the nearest centre. */
  async function clickEditByRow(browser: PageBrowser): Promise<void> {
    await activateWindow(browser.windowId, display.env);
    await delay(200);
    await browser.takeClicks();
    for (const [person, id] of [['Ada Lovelace', 'edit-ada'], ['Alan Turing', 'edit-alan'], ['Grace Hopper', 'edit-grace'], ['Barbara Liskov', 'edit-barbara']] as const) {
      const result = await rig.run('click', { text: 'Edit', near: person });
      assert.equal(result.success, true, `Edit near "${person}": ${result.error}`);
      assert.deepEqual(await browser.waitForClicks(), [id], `Edit near "${person}"`);
    }
  }

  /** Whether the active window's accessibility tree names an element so. */
  async function treeNames(name: string): Promise<boolean> {
    const elements = await rig.services.desktop.accessibility!.elements({ activeWindowOnly: true, fresh: true });
    return elements.some((e) => e.name === name || e.text === name);
  }

  async function leftBrowser(start: () => Promise<PageBrowser>): Promise<PageBrowser> {
    left = await start();
    await activateWindow(left.windowId, display.env);
    await delay(500);
    return left;
  }

  it('Firefox ESR with its tree: every label of the page, then clicks', async () => {
    const firefox = await leftBrowser(() => FirefoxApp.start(display.env, { placement: LEFT }));
    assert.ok(!browsersWithoutTree().some((f) => f.pid === (firefox as FirefoxApp).pid), 'Check Setup names a Firefox whose tree is on');
    assert.equal(await treeNames('Alan Turing'), true, "Firefox's tree shows the page");
    await board.tryLabels('firefox (tree)', await firefox.groundTruth());
    await clickAll('firefox (tree)', firefox, ['button', 'a']);
    await clickEditByRow(firefox);
    board.check('firefox (tree)', { minLabels: 40 });
  });

  it('Firefox ESR without its tree (OCR only): every label of the page, then clicks', async () => {
    const firefox = await leftBrowser(() => FirefoxApp.start(display.env, { placement: LEFT, tree: false }));
    const finding = browsersWithoutTree().find((f) => f.pid === (firefox as FirefoxApp).pid);
    assert.match(finding?.fix ?? 'no finding', /accessibility\.force_disabled/, 'Check Setup says how to turn on the tree of this Firefox');
    assert.equal(await treeNames('Alan Turing'), false, 'the page is not in any tree: OCR only');
    await board.tryLabels('firefox (no tree)', await firefox.groundTruth());
    await clickAll('firefox (no tree)', firefox, ['button', 'a']);
    await clickEditByRow(firefox);
    board.check('firefox (no tree)', { minLabels: 40 });
  });

  it('Chromium started without its tree (OCR only): every label of the page, then clicks', async () => {
    const chromium = await leftBrowser(async () => wrap(await ChromiumApp.start(display.env, { page: 'people.html', placement: LEFT, tree: false })));
    assert.equal(await treeNames('Alan Turing'), false, 'the page is not in any tree: OCR only');
    await board.tryLabels('chromium (no tree)', await chromium.groundTruth());
    await clickAll('chromium (no tree)', chromium, ['button', 'a']);
    await clickEditByRow(chromium);
    board.check('chromium (no tree)', { minLabels: 40 });
  });

  it('Check Setup (gai doctor) names the running Chromium without its tree and says how to turn it on', async () => {
    const report = await checkSetup();
    assert.equal(report.browsers.ok, false);
    assert.ok(report.browsers.findings.some((f) => f.pid === app!.pid && f.app === 'chromium'), JSON.stringify(report.browsers));
    assert.match(report.browsers.detail, /--force-renderer-accessibility/);
  });

  it('a second Chromium app window (--app, like an Electron app, no tree): every label, then clicks', async () => {
    const browser = wrap(app!);
    await activateWindow(app!.windowId, display.env);
    await delay(500);
    await board.tryLabels('chromium app (no tree)', await browser.groundTruth());
    await clickAll('chromium app (no tree)', browser, ['button']);
    board.check('chromium app (no tree)', { minLabels: 40 });
  });
});

function wrap(chromium: ChromiumApp): PageBrowser {
  return {
    windowId: chromium.windowId,
    tree: chromium.tree,
    groundTruth: () => chromium.groundTruth(),
    domLabels: () => chromium.domLabels(),
    takeClicks: () => chromium.takeClicks(),
    waitForClicks: (ms) => chromium.waitForClicks(ms),
    stop: () => chromium.stop(),
  };
}
