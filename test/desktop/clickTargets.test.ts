// The click pipeline on real windows of the suite's display: a GTK label the tree knows is
// clicked with no OCR at all; a window read once is not read again when the person comes back
// to it unchanged; a glyph that is only part of a longer label is never clicked; a label in a
// dialog and in the window under it is taken from the dialog; an unsure reading clicks nothing.
// Named to run before realApps.test.ts: its apps keep the AT-SPI bus socket in a temp HOME that
// is deleted when they stop, and later tests in the same run then find no tree.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../src/common/geometry';
import type { OcrAnalysis } from '../../src/desktop/ocr/ocrTypes';
import { TesseractJsOcr } from '../../src/platform/ocr/tesseractJsOcr';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { LayeredOcr } from '../../src/desktop/ocr/layeredOcr';
import type { OcrEngine, OcrOptions } from '../../src/desktop/ports/ocrPort';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import type { TargetResult } from '../../src/desktop/grounding/locateTypes';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { FIXTURE_PYTHON, launchFixture, suiteDisplay, type Fixture } from './support/fixture';
import { gtkFixtureMissing } from './support/gtkPasswordFixture';
import { delay } from './support/realApps/appWindow';
import { AtspiApp } from './support/realApps/atspiApps';
import { runTool } from '../support/fakeDesktop';

const display = suiteDisplay();
const DIALOG_APP = path.resolve(__dirname, 'fixtures', 'gtkDialogApp.py');

/** The real OCR, counted: the tests assert when it was (not) asked. */
class CountingOcr implements OcrEngine {
  readonly name = 'counting';
  calls = 0;
  constructor(private readonly inner: OcrEngine) {}
  recognize(image: ScreenImage, options?: OcrOptions): Promise<OcrAnalysis> {
    this.calls++;
    return this.inner.recognize(image, options);
  }
  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

function inside(point: { x: number; y: number }, box: BBox): boolean {
  return point.x >= box.x && point.y >= box.y && point.x < box.x + box.width && point.y < box.y + box.height;
}

function foundPoint(result: TargetResult): { x: number; y: number } {
  assert.equal(result.status, 'found', JSON.stringify(result));
  return (result as Extract<TargetResult, { status: 'found' }>).point;
}

describe('target locator on real windows', function () {
  this.timeout(120_000);
  let ocr: CountingOcr;
  let services: DesktopServices;

  before(() => {
    ocr = new CountingOcr(new LayeredOcr(new TesseractJsOcr()));
    services = createDesktopServices(createPlatformDesktop({ env: display.env, ocr }));
  });
  after(() => ocr.dispose());

  describe('galculator beside the Tk fixture', () => {
    let calculator: AtspiApp | undefined;
    let fixture: Fixture | undefined;

    before(async function () {
      if (spawnSync('sh', ['-c', 'command -v galculator'], { env: display.env }).status !== 0) {
        console.log('      skipped: galculator is not installed (node scripts/ensureDeps.mjs installs it)');
        this.skip();
      }
      if (!(await services.desktop.accessibility?.available())) {
        const why = (services.desktop.accessibility as { unavailableReason?: string } | undefined)?.unavailableReason ?? 'no accessibility port';
        console.log(`      skipped: AT-SPI cannot be read here (${why})`);
        this.skip();
      }
      fixture = await launchFixture(display, { geometry: '820x620+20+40' });
      calculator = await AtspiApp.start('galculator', display.env, { x: 1000, y: 100, width: 480, height: 480 });
    });
    after(async () => {
      await calculator?.stop();
      await fixture?.close();
    });

    it('clicks a button the tree knows without any OCR, and it lands', async () => {
      await calculator!.activate();
      await delay(300);
      const before = ocr.calls;
      const result = await runTool(new ClickTool(services), { text: '7' });
      assert.equal(result.success, true, result.error);
      assert.equal((result.data as { source: string }).source, 'accessibility');
      assert.equal(ocr.calls, before, 'OCR was not asked');
      const seven = (await calculator!.elements()).find((e) => e.name === '7')!;
      assert.ok(inside((result.data as { point: { x: number; y: number } }).point, seven.bbox));
      let shown = '';
      for (let i = 0; i < 50 && shown !== '7'; i++, await delay(100)) {
        const elements = await services.desktop.accessibility!.elements({ fresh: true });
        shown = elements.find((e) => e.role === 'text' && e.text)?.text?.trim() ?? '';
      }
      assert.equal(shown, '7', 'galculator shows the digit clicked');
      await runTool(new ClickTool(services), { text: 'C' });
    });

    it('reads a window once: switching back to it unchanged costs no OCR', async () => {
      await runTool(new ClickTool(services), { x: fixture!.widget('status_label').x + 2, y: fixture!.widget('status_label').y + 2 });
      await delay(300);
      const apply = fixture!.widget('apply_button');
      assert.ok(inside(foundPoint(await services.locator.locate('Apply')), apply));
      assert.ok(services.locator.lastTrace!.ocrRuns >= 1, 'the fixture (no tree) was read by OCR');
      await calculator!.activate();
      await delay(300);
      foundPoint(await services.locator.locate('8'));
      await runTool(new ClickTool(services), { x: fixture!.widget('status_label').x + 2, y: fixture!.widget('status_label').y + 2 });
      await delay(300);
      const calls = ocr.calls;
      assert.ok(inside(foundPoint(await services.locator.locate('Apply')), apply));
      assert.equal(services.locator.lastTrace!.ocrRuns, 0, JSON.stringify(services.locator.lastTrace));
      assert.equal(ocr.calls, calls, 'no OCR on coming back');
    });

    it('never clicks a glyph that is only part of a longer label', async () => {
      await runTool(new ClickTool(services), { x: fixture!.widget('status_label').x + 2, y: fixture!.widget('status_label').y + 2 });
      await delay(200);
      const minus = await services.locator.locate('-');
      if (minus.status === 'found') assert.ok(inside(minus.point, fixture!.widget('minus_button')), `"-" at ${JSON.stringify(minus.point)} is not the "-" button`);
      const clicks = (): string[] => fixture!.events().filter((e) => e.event === 'click').map((e) => String(e.widget));
      const before = clicks().length;
      const result = await runTool(new ClickTool(services), { text: '-' });
      if (result.success) await fixture!.waitFor((e, i) => e.event === 'click' && i >= 0 && clicks().length > before);
      assert.ok(!clicks().slice(before).includes('back_button'), `clicked ${clicks().slice(before).join(', ')}`);
    });

    it('clicks nothing when it is unsure, and says why', async () => {
      const clicks = (): number => fixture!.events().filter((e) => e.event === 'click').length;
      const before = clicks();
      const result = await runTool(new ClickTool(services), { text: 'Sove' });
      assert.equal(result.success, false);
      assert.equal((result.data as { reason?: string } | undefined)?.reason, 'low_confidence', result.observation);
      assert.match(result.observation, /Not sure: best match 'Save'/);
      await delay(200);
      assert.equal(clicks(), before, 'nothing was clicked');
    });
  });

  describe('a label in a dialog and in the window under it', () => {
    let app: ChildProcess | undefined;
    let dir: string | undefined;

    before(function () {
      const missing = gtkFixtureMissing(display);
      if (missing) {
        this.test!.parent!.title += ` (skipped: ${missing})`;
        this.skip();
      }
    });
    after(() => {
      app?.kill('SIGTERM');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('takes it from the dialog, by the tree and by OCR alike', async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'gai-dialog-'));
      const log = path.join(dir, 'events.jsonl');
      writeFileSync(log, '');
      const env: NodeJS.ProcessEnv = { ...display.env };
      delete env.AT_SPI_BUS_ADDRESS;
      delete env.NO_AT_BRIDGE;
      app = spawn(FIXTURE_PYTHON, [DIALOG_APP, '--log', log], { env, stdio: 'ignore' });
      const events = (): Array<Record<string, unknown>> => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      let ready: { buttons: Record<string, BBox> } | undefined;
      for (let i = 0; i < 200 && !ready; i++, await delay(100)) ready = events().find((e) => e.event === 'ready') as typeof ready;
      assert.ok(ready, 'the dialog app came up');
      await delay(500);
      const dialogSave = ready.buttons.dialog_save!;
      assert.ok(inside(foundPoint(await services.locator.locate('Save')), dialogSave), 'tree path');
      assert.ok(inside(foundPoint(await services.locator.locate('Save', { accessibility: false })), dialogSave), 'OCR path');
      const result = await runTool(new ClickTool(services), { text: 'Save' });
      assert.equal(result.success, true, result.error);
      for (let i = 0; i < 30 && !events().some((e) => e.event === 'click'); i++) await delay(100);
      assert.deepEqual(
        events().filter((e) => e.event === 'click').map((e) => e.button),
        ['dialog_save'],
      );
    });
  });
});
