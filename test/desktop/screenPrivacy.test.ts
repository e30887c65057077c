// Secret fields on a real X display: a password typed into the Tk fixture (no accessibility
// tree: found by OCR of its bullets next to "Password") is black in the screenshot the scripted
// model server receives and absent from the OCR text it receives; a private window title gives
// the model a stub and no picture; a GTK password entry (AT-SPI role `password text`) is black
// in the reading. The agent, the Anthropic SDK and HTTP are real.
import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import { compileWindowTitles } from '../../src/desktop/reading/privateWindows';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { startHarness, type Harness } from '../support/agentHarness';
import { textReply, toolReply } from '../support/scriptedSteps';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';
import { clickCentre, gtkFixtureMissing, startGtkPasswordApp, xdotool, type GtkPasswordApp } from './support/gtkPasswordFixture';

const display = suiteDisplay();
const SECRET = 'hunter2-SECRET';

async function typeInto(box: BBox): Promise<void> {
  await clickCentre(display, box);
  await xdotool(display, ['type', '--delay', '20', SECRET]);
}

function pixel(image: ScreenImage, x: number, y: number): number[] {
  const i = ((y - image.origin.y) * image.width + (x - image.origin.x)) * 4;
  return [...image.data.subarray(i, i + 3)];
}

const isBlack = (rgb: number[]): boolean => rgb.every((c) => c < 30);

/** Points across a field's box, a few pixels inside its border. */
function pointsIn(box: BBox): Array<[number, number]> {
  const y = box.y + Math.round(box.height / 2);
  return [0.05, 0.2, 0.5, 0.8, 0.95].map((f) => [box.x + Math.round(4 + f * (box.width - 8)), y]);
}

/** Content blocks of the tool results in one recorded Messages request body. */
function toolResultBlocks(body: Record<string, unknown>): Array<{ type: string; text?: string; source?: { data: string } }> {
  const blocks: Array<{ type: string; text?: string; source?: { data: string } }> = [];
  for (const message of body.messages as Array<{ content: unknown }>) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown }>) {
      if (block.type === 'tool_result' && Array.isArray(block.content)) blocks.push(...(block.content as typeof blocks));
    }
  }
  return blocks;
}

/** Every `"bbox":{...}` in a text, as boxes. */
function boxesIn(text: string): BBox[] {
  return [...text.matchAll(/"bbox":\{"x":(-?\d+),"y":(-?\d+),"width":(\d+),"height":(\d+)\}/g)].map((m) => ({ x: +m[1]!, y: +m[2]!, width: +m[3]!, height: +m[4]! }));
}

function centreInside(inner: BBox, outer: BBox): boolean {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return cx >= outer.x && cx <= outer.x + outer.width && cy >= outer.y && cy <= outer.y + outer.height;
}

describe('screen privacy on a real display', function () {
  this.timeout(180_000);
  let services: DesktopServices | undefined;
  let harness: Harness | undefined;
  let app: Fixture | undefined;

  afterEach(async () => {
    await harness?.close();
    await app?.close();
    await services?.desktop.ocr.dispose();
    harness = undefined;
    app = undefined;
    services = undefined;
  });

  async function agentWith(titles: string[]): Promise<Harness> {
    services = createDesktopServices(createPlatformDesktop({ env: display.env }), { privateWindowTitles: compileWindowTitles(titles, 'redact.windowTitles') });
    harness = await startHarness(
      'anthropic',
      [
        toolReply([{ name: 'screen_capture', input: {} }]),
        toolReply([{ name: 'ocr', input: { captureScreen: true, level: 'both', maxElements: 2000 } }]),
        textReply('done'),
      ],
      { tools: createDesktopTools(services), defaultTimeoutMs: 120_000 },
    );
    return harness;
  }

  it('a typed password (Tk, found by OCR) is black in the screenshot the model server receives and absent from its OCR text', async () => {
    app = await launchFixture(display, { args: ['--password'] });
    const field = app.widget('password_entry');
    await typeInto(field);
    await app.waitFor((e) => e.event === 'text' && e.widget === 'password_entry' && e.value === SECRET);
    const h = await agentWith([]);
    const response = await h.agent.processRequest('look at the screen');
    assert.equal(response.message, 'done');

    const shot = toolResultBlocks(h.server.requests[1]!.body).find((b) => b.type === 'image');
    assert.ok(shot?.source, 'the screenshot reached the server');
    const image = await new SharpImages().decode(Buffer.from(shot.source.data, 'base64'));
    const scale = image.width / 1920;
    const at = (x: number, y: number): number[] => pixel(image, Math.round(x * scale), Math.round(y * scale));
    for (const [x, y] of pointsIn(field)) assert.ok(isBlack(at(x, y)), `the password field is black at (${x}, ${y}): ${at(x, y).join(',')}`);
    const name = app.widget('name_entry');
    assert.ok(!isBlack(at(name.x + name.width / 2, name.y + name.height / 2)), 'the Name field next to it is not');
    const label = app.widget('password_label');
    assert.ok(!isBlack(at(label.x + 4, label.y + label.height / 2)), 'nor its label');

    const ocrText = toolResultBlocks(h.server.requests[2]!.body).map((b) => b.text ?? '').join('\n');
    assert.match(ocrText, /Password/, 'the label is still read');
    const inField = boxesIn(ocrText).filter((b) => centreInside(b, field));
    assert.deepEqual(inField, [], 'no OCR element from inside the password field reached the server');
    assert.ok(!h.server.requests.some((r) => r.rawBody.includes(SECRET)));
  });

  it('a private window: the server gets the stub, no picture and none of its text', async () => {
    app = await launchFixture(display, { title: 'Vault - KeePassXC' });
    const h = await agentWith(['keepassxc']);
    await h.agent.processRequest('look at the screen');
    const shot = toolResultBlocks(h.server.requests[1]!.body);
    assert.deepEqual(shot.filter((b) => b.type === 'image'), [], 'no image block');
    assert.match(shot.map((b) => b.text ?? '').join(''), /screenshot withheld: the window \\?"Vault - KeePassXC\\?" is private \(gai\.redact\.windowTitles\)/);
    const ocrText = toolResultBlocks(h.server.requests[2]!.body).map((b) => b.text ?? '').join('\n');
    assert.doesNotMatch(ocrText, /Cancel|Apply|Right panel/, 'none of the window text');
    assert.match(ocrText, /withheld/);
  });

  describe('GTK password entry (AT-SPI role "password text")', () => {
    let gtk: GtkPasswordApp | undefined;

    before(function () {
      const missing = gtkFixtureMissing(display);
      if (missing) {
        this.test!.parent!.title += ` (skipped: ${missing})`;
        this.skip();
      }
    });

    after(() => gtk?.stop());

    it('is found in the tree and black in the reading, the plain entry above it is not', async function () {
      gtk = await startGtkPasswordApp(display);
      const { env, waitFor } = gtk;
      const ready = { widgets: gtk.widgets };
      const field = ready.widgets.password_entry!;
      const user = ready.widgets.user_entry!;
      await typeInto(field);
      await waitFor((e) => e.event === 'text' && e.widget === 'password_entry' && e.value === SECRET);

      services = createDesktopServices(createPlatformDesktop({ env }));
      if (!(await services.desktop.accessibility!.available())) {
        this.skip(); // the suite's AT-SPI check (accessibility.test.ts) says why
      }
      const reading = await services.reader.read();
      const fromTree = reading.secretRegions.filter((r) => r.kind === 'password field');
      assert.ok(fromTree.some((r) => centreInside(field, r.bbox)), JSON.stringify(reading.secretRegions));
      for (const [x, y] of pointsIn(field)) assert.ok(isBlack(pixel(reading.image, x, y)), `black at (${x}, ${y})`);
      assert.ok(!isBlack(pixel(reading.image, user.x + user.width / 2, user.y + user.height / 2)), 'the User entry is not masked');
      assert.equal(reading.analysis.elements.filter((e) => centreInside(e.bbox, field)).length, 0);
    });
  });
});
