// The words inside documents and editors, read from the tree (issue 19): a long file in mousepad
// scrolled to its end and a report in LibreOffice Writer. What the tree's text element holds is
// what the view shows (not the file's first 500 characters), a word's box comes from the
// toolkit's Text interface, and OCR of the screen inside that box, an independent reader, must
// read the word there. A click by text on such a word needs no OCR; a label in another window is
// answered without reading the editor's pixels: its glyphs are all its tree's text, or once its
// tree was seen to hold all it shows.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import type { BBox } from '../../src/common/geometry';
import { centreOf, containsPoint } from '../../src/common/geometry';
import type { AccessibilityPort } from '../../src/desktop/ports/accessibilityPort';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { delay } from './support/realApps/appWindow';
import { AtspiApp } from './support/realApps/atspiApps';
import { missingPrograms } from './support/realApps/labelBoard';
import { LibreOfficeApp } from './support/realApps/libreOfficeApp';

const display = suiteDisplay();
// 240 lines: some 9,000 characters, far past what a tree read gave of a text before (500).
const LONG_FILE = Array.from({ length: 240 }, (_, i) => `const value${i} = compute(${i}); // step ${i}`)
  .concat(['// closing remarks: zebraFinale is drawn only at the end', ''])
  .join('\n');

describe('words in documents and editors, read from the tree', function () {
  this.timeout(300_000);
  let rig: DesktopRig;
  let tree: AccessibilityPort;
  let mousepad: AtspiApp | undefined;
  let writer: LibreOfficeApp | undefined;

  before(async function () {
    const missing = missingPrograms(['mousepad', 'soffice']);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs them)`);
      this.skip();
    }
    rig = createDesktopRig(display.env);
    tree = rig.services.desktop.accessibility!;
    writer = await LibreOfficeApp.start('writer', display.env, { x: 960, y: 0, width: 900, height: 640 });
    mousepad = await AtspiApp.start('mousepad', display.env, { x: 0, y: 0, width: 900, height: 640 }, LONG_FILE);
    await mousepad.activate();
    spawnSync('xdotool', ['key', 'ctrl+End'], { env: display.env });
    await delay(600);
  });
  after(async () => {
    await mousepad?.stop();
    await writer?.stop();
    await rig?.dispose();
  });

  /** What OCR reads of the screen inside the box (a little larger, so that the glyphs are whole). */
  async function ocrAt(box: BBox): Promise<string> {
    const image = await rig.services.desktop.screen.grab({ x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8 });
    return (await rig.services.desktop.ocr.recognize(image, { scale: 3 })).fullText.trim();
  }

  it("mousepad: the tree holds the text the view shows at the end of a long file, not the file's start", async () => {
    const editor = (await tree.elements({ activeWindowOnly: true })).find((e) => e.role === 'text' && e.app === 'mousepad');
    assert.ok(editor?.text, 'mousepad has a text element with text');
    assert.match(editor.text, /zebraFinale/);
    assert.doesNotMatch(editor.text, /value0 =/, 'the first line is scrolled away');
    assert.equal(editor.textCut, undefined, 'what shows was read whole');
  });

  it('mousepad: a word at the end of the file is boxed by the toolkit where OCR reads it, and clicked by text with no OCR', async () => {
    const boxes = await tree.textBoxes!('zebraFinale', { activeWindowOnly: true });
    assert.equal(boxes.length, 1, JSON.stringify(boxes));
    assert.match(await ocrAt(boxes[0]!.bbox), /zebraFinale/);
    const locator = new TargetLocator(rig.services);
    const answer = await locator.locate('zebraFinale');
    assert.equal(answer.status, 'found', JSON.stringify(answer));
    assert.ok(answer.status === 'found' && answer.source === 'accessibility' && containsPoint(boxes[0]!.bbox, answer.point));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active']);
    assert.equal(locator.lastTrace?.ocrRuns, 0);
  });

  it('Writer: each word of the report is boxed where it is drawn (LibreOffice reports its paragraphs 25 px off)', async () => {
    await writer!.activate();
    await delay(500);
    for (const word of ['Sales', 'region', 'warehouse', 'March', 'engineers', 'mobile']) {
      const boxes = await tree.textBoxes!(word, { activeWindowOnly: true });
      assert.equal(boxes.length, 1, `${word}: ${JSON.stringify(boxes)}`);
      const read = await ocrAt(boxes[0]!.bbox);
      assert.match(read, new RegExp(word, 'i'), `"${word}": OCR read "${read}" at ${JSON.stringify(boxes[0]!.bbox)}`);
    }
    const locator = new TargetLocator(rig.services);
    const answer = await locator.locate('engineers');
    assert.ok(answer.status === 'found' && answer.source === 'accessibility', JSON.stringify(answer));
    assert.equal(locator.lastTrace?.ocrRuns, 0);
  });

  it("a Writer word asked while mousepad is active: mousepad's glyphs are all its tree's text, so none of its pixels is read", async () => {
    await mousepad!.activate();
    await delay(400);
    const locator = new TargetLocator(rig.services);
    const answer = await locator.locate('warehouse');
    assert.ok(answer.status === 'found' && answer.source === 'accessibility', JSON.stringify(answer));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'pixels-active', 'tree-all'], JSON.stringify(locator.lastTrace?.notes));
    assert.equal(locator.lastTrace?.ocrRuns, 0);
  });

  it("without the glyph check, mousepad's pixels are read once, then not again for labels its text lacks", async () => {
    await mousepad!.activate();
    await delay(400);
    const locator = new TargetLocator(rig.services, { pixelCheck: false });
    const first = await locator.locate('warehouse');
    assert.equal(first.status, 'found', JSON.stringify(first));
    assert.deepEqual(locator.lastTrace?.steps.slice(0, 2), ['tree-active', 'ocr-active'], 'the first time, mousepad is read');
    const second = await locator.locate('engineers');
    assert.ok(second.status === 'found' && second.source === 'accessibility', JSON.stringify(second));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'tree-all'], "mousepad's tree was seen to hold its text, and has no 'engineers'");
    const word = (await tree.textBoxes!('engineers', { activeWindowOnly: false }))[0];
    assert.ok(word && containsPoint(word.bbox, centreOf(second.status === 'found' ? second.bbox : word.bbox)));
  });
});
