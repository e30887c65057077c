// The multi-page fixture app for the navigation brain (test/desktop/fixtures/pagesApp.py):
// its pages, control commands and volatile text, seen through the project's real OCR and
// click tool on the suite's virtual display, with the app's log as the ground truth.
import { strict as assert } from 'node:assert';
import type { OcrElement } from '../../src/desktop/ocr/ocrTypes';
import { PAGES_TITLE_PREFIX, startPagesApp, type ButtonGeometry, type PagesApp } from '../support/pagesFixture';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';

const display = suiteDisplay();
const CLOCK = /^\d\d:\d\d:\d\d$/;

/** The word right of "Notifications:" on its line (OCR's order of a merged reading is by y). */
function counterOf(words: OcrElement[]): string | undefined {
  const label = words.find((w) => w.text === 'Notifications:');
  if (label === undefined) return undefined;
  const right = words.filter((w) => Math.abs(w.bbox.y - label.bbox.y) < 8 && w.bbox.x > label.bbox.x);
  return right.sort((a, b) => a.bbox.x - b.bbox.x)[0]?.text;
}

function inside(point: { x: number; y: number }, box: ButtonGeometry): boolean {
  return point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height;
}

describe('pages fixture app (navigation brain) on a real X display', function () {
  this.timeout(30_000);
  let rig: DesktopRig;
  let app: PagesApp | undefined;

  before(() => {
    rig = createDesktopRig(display.env);
  });
  after(async () => {
    await rig.dispose();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    rig.services.reader.reset();
  });

  /** OCR words inside the app's window, through the project's screen reader. */
  async function wordsInWindow(pages: PagesApp): Promise<OcrElement[]> {
    const { x, y, width, height } = pages.ready.geometry;
    const reading = await rig.services.reader.read();
    return reading.analysis.elements.filter(
      (e) => e.level === 'word' && e.bbox.x >= x && e.bbox.y >= y && e.bbox.x + e.bbox.width <= x + width && e.bbox.y + e.bbox.height <= y + height,
    );
  }

  async function click(text: string): Promise<{ x: number; y: number }> {
    const result = await rig.run('click', { text });
    assert.equal(result.success, true, `click "${text}": ${result.error}`);
    return (result.data as { point: { x: number; y: number } }).point;
  }

  it('starts on Home, logs it, and OCR reads its buttons and status bar', async () => {
    app = await startPagesApp(display);
    assert.equal(app.page(), 'home');
    assert.equal(app.ready.title, `${PAGES_TITLE_PREFIX}Home`);
    assert.deepEqual(Object.keys(app.buttons()), ['settings', 'documents', 'help']);
    const words = (await wordsInWindow(app)).map((w) => w.text);
    for (const label of ['Home', 'Settings', 'Documents', 'Help', 'Notifications:']) {
      assert.ok(words.includes(label), `"${label}" not read; read: ${words.join(' ')}`);
    }
    assert.ok(words.some((w) => CLOCK.test(w)), `no clock read; read: ${words.join(' ')}`);
  });

  it('clicking "Settings" by text opens the settings page, and "Back" returns', async () => {
    app = await startPagesApp(display);
    await click('Settings');
    const settings = await app.waitForPage('settings');
    assert.equal(settings.via, 'Settings');
    assert.equal(settings.title, `${PAGES_TITLE_PREFIX}Settings`);
    assert.ok(app.events().some((e) => e.event === 'press' && e.page === 'home' && e.button === 'settings'));
    await click('Network');
    await app.waitForPage('network');
    await click('Back');
    await app.waitForPage('settings');
    await click('Back');
    assert.equal((await app.waitForPage('home')).previous, 'settings');
  });

  it('move puts the buttons elsewhere and the click by text follows them', async () => {
    app = await startPagesApp(display);
    const before = app.buttons().settings!;
    const moved = await app.control('move');
    const after = moved.buttons!.settings!;
    assert.equal(moved.moved, true);
    assert.ok(after.x - before.x > 200 && after.y !== before.y, `moved from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
    assert.deepEqual(Object.keys(moved.buttons!), ['help', 'documents', 'settings'], 'reverse order');
    const point = await click('Settings');
    assert.ok(inside(point, after), `clicked ${JSON.stringify(point)}, the button is at ${JSON.stringify(after)}`);
    await app.waitForPage('settings');
    // The layout holds on the other pages too.
    assert.ok(app.buttons().back!.x > app.buttons().network!.x, 'right-aligned: the narrower "Back" starts further right');
  });

  it('rename Network Connections: "Network" is gone, "Connections" leads to the network page', async () => {
    app = await startPagesApp(display, { page: 'settings' });
    const renamed = await app.control('rename Network Connections');
    assert.equal(renamed.buttons!.network!.label, 'Connections');
    const missing = await rig.run('click', { text: 'Network' });
    assert.equal(missing.success, false, 'nothing reads "Network" any more');
    assert.equal(missing.code, 'NOT_FOUND', missing.error);
    await click('Connections');
    const network = await app.waitForPage('network');
    assert.equal(network.via, 'Connections');
    assert.equal(network.title, `${PAGES_TITLE_PREFIX}Connections settings`);
    assert.equal(app.events().filter((e) => e.event === 'press').length, 1, 'one press only');
  });

  it('the clock and the counter change between two readings', async () => {
    app = await startPagesApp(display);
    const first = await wordsInWindow(app);
    await new Promise((r) => setTimeout(r, 2100));
    const second = await wordsInWindow(app); // a partial re-read, as the brain's next look would be
    const clock = (words: OcrElement[]) => words.find((w) => CLOCK.test(w.text))?.text;
    const seen = `read: ${first.map((w) => w.text).join(' ')} / ${second.map((w) => w.text).join(' ')}`;
    assert.ok(clock(first) !== undefined && clock(second) !== undefined, seen);
    assert.notEqual(clock(first), clock(second));
    assert.match(counterOf(first) ?? '', /^\d$/, seen);
    assert.notEqual(counterOf(first), counterOf(second), seen);
  });

  it('goto, addline and bad commands are answered in the log', async () => {
    app = await startPagesApp(display);
    const documents = await app.control('goto documents');
    assert.equal(documents.page, 'documents');
    assert.equal(app.page(), 'documents');
    const lower = (await app.control('addline "tax return 2024.pdf"')).buttons!.back!.y;
    assert.ok(lower > documents.buttons!.back!.y, 'the new line pushes "Back" down');
    assert.ok((await wordsInWindow(app)).some((w) => w.text === '2024.pdf'), 'the new line is on the screen');
    await assert.rejects(app.control('goto nowhere'), /rejected "goto nowhere": unknown page/);
    await assert.rejects(app.control('fly away'), /unknown command/);
    await app.control('quit');
    await app.waitFor((e) => e.event === 'exit');
  });
});
