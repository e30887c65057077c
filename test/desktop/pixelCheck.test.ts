// The active window's pixels checked for a label its tree does not mention, without reading them
// all (src/desktop/grounding/pixelAbsence.ts), on the suite display with a real GTK 3 app of two
// windows (fixtures/gtkCanvasApp.py): "Canvas Words", active, names its buttons and labels in its
// tree and paints "Archive drafts", "Courier" and "Up" itself, and has a "−" button named "Zoom
// out"; "Named Words" has buttons "Archive drafts", "Compress", "Dispatch", "Go", "Up", "−" and
// "÷". A label only the other window has is answered by that window's tree with no OCR; a label
// the active window paints outside its tree, or shows on a button named in words, is still read
// there, and found there.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { containsPoint } from '../../src/common/geometry';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { FIXTURE_PYTHON, suiteDisplay } from './support/fixture';
import { gtkFixtureMissing } from './support/gtkPasswordFixture';
import { activateWindow, delay } from './support/realApps/appWindow';

const display = suiteDisplay();
const APP = path.resolve(__dirname, 'fixtures', 'gtkCanvasApp.py');

describe('the pixel check: a window seen active for the first time is not read whole for a label only another window has', function () {
  this.timeout(120_000);
  let app: ChildProcess | undefined;
  let rig: DesktopRig;
  let canvasWindow = '';

  before(async function () {
    const missing = gtkFixtureMissing(display);
    if (missing) {
      this.test!.parent!.title += ` (skipped: ${missing})`;
      this.skip();
    }
    const env: NodeJS.ProcessEnv = { ...display.env };
    // The app must register on this display's a11y bus, not on one named for another session.
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.NO_AT_BRIDGE;
    app = spawn(FIXTURE_PYTHON, [APP], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const ready = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the canvas fixture never showed its windows')), 30_000);
      createInterface({ input: app!.stdout! }).on('line', (line) => {
        if (!line.startsWith('ready ')) return;
        clearTimeout(timer);
        resolve(line);
      });
    });
    canvasWindow = ready.split(' ')[1]!;
    rig = createDesktopRig(display.env);
    await activateWindow(canvasWindow, display.env);
    await delay(600);
  });
  after(async () => {
    app?.kill('SIGTERM');
    await rig?.dispose();
  });

  it('a label only the other window has: its tree answers, the active window\'s glyphs checked and none of its pixels read by OCR', async () => {
    const locator = new TargetLocator(rig.services);
    const answer = await locator.locate('Compress');
    assert.ok(answer.status === 'found' && answer.source === 'accessibility', JSON.stringify(answer));
    const named = (await rig.services.desktop.windows.listWindows!()).find((w) => w.title === 'Named Words');
    assert.ok(named && containsPoint(named.bounds, answer.point), `the point ${JSON.stringify(answer.point)} is in "Named Words"`);
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'pixels-active', 'tree-all']);
    assert.equal(locator.lastTrace?.ocrRuns, 0, 'no whole reading');
    assert.match(locator.lastTrace?.notes.join(' ') ?? '', /^absent: /);
    // Learnt: the next label as long is answered by the other trees with no check at all...
    const next = await locator.locate('Dispatch');
    assert.ok(next.status === 'found' && named && containsPoint(named.bounds, next.point), JSON.stringify(next));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'tree-all']);
    // ...but what the check read outside the tree (the painted words) is never taken as absent:
    // the window is read, and the label found where it paints it.
    const painted = await locator.locate('Archive drafts');
    assert.ok(painted.status === 'found' && painted.source === 'ocr', JSON.stringify(painted));
    assert.ok(!containsPoint(named.bounds, painted.point));
    assert.deepEqual(locator.lastTrace?.steps.slice(0, 2), ['tree-active', 'ocr-active']);
  });

  it('a label the active window paints outside its tree is read and found there, not taken from the other window\'s tree', async () => {
    const locator = new TargetLocator(rig.services);
    const answer = await locator.locate('Archive drafts');
    assert.ok(answer.status === 'found' && answer.source === 'ocr', JSON.stringify(answer));
    const canvas = (await rig.services.desktop.windows.listWindows!()).find((w) => w.title === 'Canvas Words');
    assert.ok(canvas && containsPoint(canvas.bounds, answer.point), `the point ${JSON.stringify(answer.point)} is in "Canvas Words"`);
    assert.deepEqual(locator.lastTrace?.steps.slice(0, 3), ['tree-active', 'pixels-active', 'ocr-active']);
    assert.match(locator.lastTrace?.notes.join(' ') ?? '', /^read there;/);
  });

  it('two letters: only the other window has them, its tree answers after the check; painted in the active window, they are read there', async () => {
    const locator = new TargetLocator(rig.services);
    const go = await locator.locate('Go');
    const named = (await rig.services.desktop.windows.listWindows!()).find((w) => w.title === 'Named Words');
    assert.ok(go.status === 'found' && go.source === 'accessibility' && named && containsPoint(named.bounds, go.point), JSON.stringify(go));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'pixels-active', 'tree-all']);
    const up = await new TargetLocator(rig.services).locate('Up');
    assert.ok(up.status === 'found' && up.source === 'ocr' && !containsPoint(named.bounds, up.point), JSON.stringify(up));
  });

  it('a glyph: only the other window has it, its tree answers after the check; shown on a button named in words in the active window, it is not taken from the other', async () => {
    const windows = await rig.services.desktop.windows.listWindows!();
    const named = windows.find((w) => w.title === 'Named Words')!;
    const canvas = windows.find((w) => w.title === 'Canvas Words')!;
    const locator = new TargetLocator(rig.services);
    const divide = await locator.locate('÷');
    assert.ok(divide.status === 'found' && divide.source === 'accessibility' && containsPoint(named.bounds, divide.point), JSON.stringify(divide));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'pixels-active', 'tree-all']);
    assert.equal(locator.lastTrace?.ocrRuns, 0, 'no whole reading');
    assert.match(locator.lastTrace?.notes.join(' ') ?? '', /^absent: /);
    // "Zoom out" shows a "−": the check reads it there, and the window is read and clicked there.
    const second = new TargetLocator(rig.services);
    const minus = await second.locate('−');
    assert.ok(minus.status === 'found' && containsPoint(canvas.bounds, minus.point), `the active window's own "−", not the other's: ${JSON.stringify(minus)}`);
    const zoomOut = (await rig.services.desktop.accessibility!.elements({ activeWindowOnly: true })).find((e) => e.name === 'Zoom out');
    assert.ok(zoomOut && containsPoint(zoomOut.bbox, minus.point), `on the "Zoom out" button: ${JSON.stringify(zoomOut?.bbox)}`);
    assert.deepEqual(second.lastTrace?.steps.slice(0, 3), ['tree-active', 'pixels-active', 'ocr-active']);
  });
});
