import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGaiError } from '../../src/common/errors';
import type { BBox } from '../../src/common/geometry';
import type { ImageBlock } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { findMaskedFields } from '../../src/desktop/reading/maskedFields';
import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import { compileWindowTitles } from '../../src/desktop/reading/privateWindows';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { OcrTool } from '../../src/tools/desktop/ocrTool';
import { ScreenCaptureTool } from '../../src/tools/desktop/screenCaptureTool';
import { SmartScreenReaderTool } from '../../src/tools/desktop/smartScreenReaderTool';
import { makeThumbnail } from '../../src/navigation/recognition/nodeThumbnail';
import { observeScreen } from '../../src/navigation/recognition/screenObserver';
import { loadConfigFile } from '../../src/cli/cliConfig';
import { parseSettings } from '../../src/vscode/settings';
import { buildScreenPicture } from '../../src/vscode/chat/screenPictures';
import { createFakeDesktop, FakeModelAccess, ocrWords, runTool, window, type FakeDesktop } from '../support/fakeDesktop';

// Secret fields never leave as pixels or text: the OCR finder of masked fields, private window
// titles, and the screen reader's protected view as the tools, the chat picture and the model see it.

const dots = (x: number, y: number, count: number, text = '.'): Array<{ text: string; x: number; y: number; w: number; h: number }> =>
  Array.from({ length: count }, (_unused, i) => ({ text, x: x + 8 * i, y, w: 4, h: 4 }));

/** The Tk fixture as measured: a "Password" label, then one "." word per bullet, 8 px apart. */
const passwordRow = [{ text: 'Password', x: 116, y: 226, w: 64, h: 11 }, ...dots(196, 230, 10)];
/** The field's box on the fake screen (its white background, where the bullets are drawn). */
const field: BBox = { x: 192, y: 222, width: 276, height: 20 };
const WHITE = [255, 255, 255, 255] as const;
const BULLET = [30, 30, 30, 255] as const;

function pixel(image: ScreenImage, x: number, y: number): number[] {
  const i = ((y - image.origin.y) * image.width + (x - image.origin.x)) * 4;
  return [...image.data.subarray(i, i + 3)];
}

function isBlack(rgb: number[]): boolean {
  return rgb.every((c) => c < 40);
}

/** A screen with the password field drawn: white box, dark bullets where OCR saw them. */
function passwordDesktop(extraWords: Array<{ text: string; x: number; y: number; w: number; h: number }> = []): FakeDesktop {
  const fake = createFakeDesktop({ window: window('Login', { x: 100, y: 100, width: 600, height: 400 }, 'w1'), analysis: ocrWords([...passwordRow, ...extraWords]) });
  fake.screen.paint(field, WHITE);
  for (const d of dots(196, 230, 10)) fake.screen.paint({ x: d.x, y: d.y, width: d.w, height: d.h }, BULLET);
  return fake;
}

function services(fake: FakeDesktop, titles: string[] = [], accessibility?: AccessibilityPort): DesktopServices {
  return createDesktopServices({ ...fake, ...(accessibility ? { accessibility } : {}) }, { privateWindowTitles: compileWindowTitles(titles, 'redact.windowTitles') });
}

class FakeTree implements AccessibilityPort {
  readonly name = 'fake-tree';
  queries = 0;
  constructor(public elementsNow: AccessibleElement[]) {}
  async available(): Promise<boolean> {
    return true;
  }
  async elements(): Promise<AccessibleElement[]> {
    this.queries++;
    return this.elementsNow;
  }
}

async function decoded(block: ImageBlock | undefined): Promise<ScreenImage> {
  assert.ok(block, 'an image block');
  return new SharpImages().decode(Buffer.from(block.source.data, 'base64'));
}

function texts(result: ToolResult): string {
  return JSON.stringify(result.data);
}

describe('screen privacy: masked fields found by OCR', () => {
  it('finds the run of bullets right of a Password label (as tesseract read the Tk fixture)', () => {
    const boxes = findMaskedFields(ocrWords(passwordRow));
    assert.deepEqual(boxes, [{ x: 196, y: 230, width: 76, height: 4 }]);
  });

  it('finds the other readings of mask glyphs under a PIN or passphrase label', () => {
    const below = findMaskedFields(ocrWords([{ text: 'PIN', x: 20, y: 20, w: 30, h: 12 }, { text: 'eeeeee', x: 22, y: 44, w: 60, h: 10 }]));
    assert.equal(below.length, 1);
    const right = findMaskedFields(ocrWords([{ text: 'Passphrase:', x: 20, y: 20, w: 80, h: 12 }, { text: '°°°°', x: 120, y: 21, w: 30, h: 10 }, { text: '@@@', x: 154, y: 21, w: 24, h: 10 }]));
    assert.deepEqual(right, [{ x: 120, y: 21, width: 58, height: 10 }], 'adjacent mask words are one field');
  });

  it('takes unmistakable bullets without a label, and leaves ordinary punctuation and far-away dots alone', () => {
    assert.equal(findMaskedFields(ocrWords([{ text: '••••••', x: 300, y: 300, w: 60, h: 10 }])).length, 1);
    assert.deepEqual(findMaskedFields(ocrWords([{ text: 'Loading', x: 20, y: 20, w: 60, h: 12 }, { text: '...', x: 84, y: 20, w: 12, h: 12 }])), []);
    assert.deepEqual(findMaskedFields(ocrWords([{ text: 'Password', x: 20, y: 20, w: 60, h: 12 }, { text: 'ooooo', x: 700, y: 20, w: 40, h: 12 }])), []);
    assert.deepEqual(findMaskedFields(ocrWords([{ text: 'Password', x: 20, y: 20, w: 60, h: 12 }, { text: 'o.', x: 90, y: 20, w: 12, h: 12 }])), [], 'two glyphs are not a field');
    assert.deepEqual(findMaskedFields(ocrWords([{ text: 'Pinned', x: 20, y: 20, w: 60, h: 12 }, { text: 'ooooo', x: 90, y: 20, w: 40, h: 12 }])), [], '"Pinned" is no PIN label');
  });
});

describe('screen privacy: private window titles', () => {
  it('matches substrings case-insensitively and /regular expressions/', () => {
    const rules = compileWindowTitles(['keepass', '/^Bank of .*$/'], 'redact.windowTitles');
    assert.ok(rules[0]!.test('Passwords.kdbx - KeePassXC'));
    assert.ok(rules[1]!.test('bank of nowhere'), 'case-insensitive unless flags say otherwise');
    assert.ok(!rules[1]!.test('My Bank of X'));
  });

  it('refuses bad rules with a CONFIG error naming the entry', () => {
    for (const [rules, message] of [
      [['ok', '/(unclosed/'], /redact\.windowTitles\[1\]: not a valid regular expression/],
      [['/.*/'], /redact\.windowTitles\[0\]: matches every title/],
      [[''], /redact\.windowTitles\[0\]: expected a non-empty title/],
      [[42], /redact\.windowTitles\[0\]: expected/],
    ] as const) {
      assert.throws(() => compileWindowTitles(rules, 'redact.windowTitles'), (error: unknown) => isGaiError(error, 'CONFIG') && message.test(error.message));
    }
  });
});

describe('screen privacy: window titles in the settings', () => {
  it('gai.redact.windowTitles with a bad regular expression is refused, naming the setting', () => {
    const get = (key: string): unknown => (key === 'redact' ? { windowTitles: ['/([/'] } : undefined);
    assert.throws(() => parseSettings(get), /Setting gai\.redact\.windowTitles\[0\]: not a valid regular expression/);
  });

  it('the CLI config file refuses one too, naming the file and redact.windowTitles', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gai-privacy-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ redact: { windowTitles: ['KeePassXC', '/.*/'] } }));
      assert.throws(() => loadConfigFile(file, true), /config\.json: redact\.windowTitles\[1\]: matches every title/);
      writeFileSync(file, JSON.stringify({ redact: { windowTitles: ['KeePassXC'] } }));
      assert.deepEqual(loadConfigFile(file, true).redact?.windowTitles, ['KeePassXC']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('screen privacy: the protected reading', function () {
  this.timeout(10_000);

  it('blacks out the field (grown over its background) and drops its text, keeping the label', async () => {
    const fake = passwordDesktop([{ text: 'Sign', x: 116, y: 300, w: 30, h: 11 }]);
    const reading = await services(fake).reader.read();
    for (const d of dots(196, 230, 10)) assert.ok(isBlack(pixel(reading.image, d.x + 1, d.y + 1)), `bullet at ${d.x} is black`);
    assert.ok(isBlack(pixel(reading.image, field.x + field.width - 8, field.y + field.height / 2)), 'the empty rest of the field too: the length does not show');
    assert.deepEqual(pixel(reading.image, 140, 300), [240, 240, 240], 'the rest of the screen is untouched');
    assert.ok(!reading.analysis.elements.some((e) => e.text.includes('.')), JSON.stringify(reading.analysis.elements));
    assert.match(reading.analysis.fullText, /^Password$/m, 'the line "Password . . ." keeps its label');
    assert.equal(reading.secretRegions[0]?.kind, 'masked field');
    assert.deepEqual(pixel(fake.screen.frame, 197, 231), [30, 30, 30], 'the screen itself is not changed');
  });

  it('screen_capture, ocr and the vision prompt get the protected view', async () => {
    const fake = passwordDesktop();
    const svc = services(fake);
    const shot = await runTool(new ScreenCaptureTool(svc), {});
    const image = await decoded(shot.images?.[0]);
    assert.ok(isBlack(pixel(image, 200, 231)));
    const region = await runTool(new ScreenCaptureTool(svc), { region: { x: 150, y: 200, width: 200, height: 60 } });
    assert.ok(isBlack(pixel(await decoded(region.images?.[0]), 200, 231)), 'a region of the screen too');
    const ocr = await runTool(new OcrTool(svc), { captureScreen: true, level: 'both' });
    assert.ok(!texts(ocr).includes('"."'), texts(ocr));
    const vision = new FakeModelAccess('{"summary":"a login","elements":[]}');
    await runTool(new SmartScreenReaderTool(svc, vision), { mode: 'detailed' });
    const sent = vision.calls[0]!.messages[0]!.content;
    const picture = sent.find((b): b is ImageBlock => b.type === 'image');
    assert.ok(isBlack(pixel(await decoded(picture), 200, 231)), 'the picture the vision model gets');
    assert.ok(!JSON.stringify(sent.filter((b) => b.type === 'text')).includes('"."'));
  });

  it('an action\'s returnScreen screenshot is protected too', async () => {
    const result = await runTool(new ClickTool(services(passwordDesktop())), { x: 1, y: 1, returnScreen: 'screenshot' });
    assert.equal(result.success, true, result.error);
    assert.ok(isBlack(pixel(await decoded(result.images?.[0]), 200, 231)));
  });

  it('the chat picture shows the mask', async () => {
    const svc = services(passwordDesktop());
    await svc.reader.read();
    const latest = svc.reader.latest();
    assert.ok(latest);
    const picture = await buildScreenPicture(new SharpImages(), latest, [], 800);
    const image = await new SharpImages().decode(Buffer.from(picture.src.split(',')[1] ?? '', 'base64'));
    assert.ok(isBlack(pixel(image, 230, 232)), 'black where the bullets were (JPEG, so a little noise)');
    assert.ok(!picture.boxes.some((b) => b.text.includes('.')), 'no box carries the field text');
    assert.equal(svc.reader.latest(), latest, 'the same reading until the screen is read again');
  });

  it('the brain sees the protected view: no bullets in the fingerprint text, black in the thumbnail', async () => {
    const observed = await observeScreen(services(passwordDesktop()));
    assert.ok(!JSON.stringify(observed.reading).includes('"."') && !JSON.stringify(observed.reading).includes(' .'), JSON.stringify(observed.reading));
    const thumbnail = await makeThumbnail(new SharpImages(), observed.image, { bounds: { x: 100, y: 100, width: 600, height: 400 }, maxBytes: 100_000 });
    assert.ok(thumbnail);
    const small = await new SharpImages().decode(Buffer.from(thumbnail.data, 'base64'));
    const scale = small.width / 600;
    assert.ok(isBlack(pixel(small, Math.round((300 - 100) * scale), Math.round((232 - 100) * scale))), 'the field is black in the thumbnail');
  });

  it('a private window: the model gets a stub, no picture and no text', async () => {
    const fake = createFakeDesktop({ window: window('Passwords.kdbx - KeePassXC', { x: 0, y: 0, width: 800, height: 600 }), analysis: ocrWords([{ text: 'hunter2', x: 50, y: 50, w: 60, h: 12 }]) });
    const svc = services(fake, ['keepassxc']);
    const shot = await runTool(new ScreenCaptureTool(svc), {});
    assert.equal(shot.success, true);
    assert.equal(shot.images, undefined);
    assert.equal(shot.observation, '[screenshot withheld: the window "Passwords.kdbx - KeePassXC" is private (gai.redact.windowTitles)]');
    const ocr = await runTool(new OcrTool(svc), { captureScreen: true });
    assert.ok(!texts(ocr).includes('hunter2') && !ocr.observation.includes('hunter2'), texts(ocr));
    const model = new FakeModelAccess('{}');
    const detailed = await runTool(new SmartScreenReaderTool(svc, model), { mode: 'detailed' });
    assert.equal(model.calls.length, 0, 'no model call at all');
    assert.match(detailed.observation, /withheld/);
    const latest = svc.reader.latest();
    assert.ok(latest && isBlack(pixel(latest.image, 50, 50)), 'the chat picture shows the window black');
  });

  it('password fields from the accessibility tree, asked again only when the window changes', async () => {
    const fake = createFakeDesktop({ window: window('Login', { x: 100, y: 100, width: 600, height: 400 }, 'w1') });
    const tree = new FakeTree([
      { name: '', role: 'password text', bbox: { x: 200, y: 200, width: 150, height: 24 }, states: [] },
      { name: 'User', role: 'text', bbox: { x: 200, y: 160, width: 150, height: 24 }, states: [] },
    ]);
    const svc = services(fake, [], tree);
    const first = await svc.reader.read();
    assert.ok(isBlack(pixel(first.image, 210, 210)));
    assert.deepEqual(pixel(first.image, 210, 170), [240, 240, 240], 'ordinary text fields stay');
    assert.equal(tree.queries, 1);
    fake.screen.paint({ x: 750, y: 10, width: 20, height: 10 }, [0, 0, 255, 255]); // outside the window (a clock)
    const second = await svc.reader.read();
    assert.equal(tree.queries, 1, 'the window pixels did not change: no new tree query');
    assert.ok(isBlack(pixel(second.image, 210, 210)));
    fake.screen.paint({ x: 120, y: 120, width: 20, height: 10 }, [0, 0, 255, 255]);
    await svc.reader.read();
    assert.equal(tree.queries, 2, 'the window changed: asked again');
  });

  it('the window is looked up in full only when its id changes (or title rules need the title)', async () => {
    const fake = createFakeDesktop({ window: window('Login', { x: 100, y: 100, width: 600, height: 400 }, 'w1') });
    let idLookups = 0;
    const windows = Object.assign(fake.windows, { activeWindowId: async () => (idLookups++, fake.windows.active?.id) });
    const svc = services({ ...fake, windows }, [], new FakeTree([{ name: '', role: 'password text', bbox: { x: 200, y: 200, width: 150, height: 24 }, states: [] }]));
    for (let i = 0; i < 3; i++) {
      fake.screen.paint({ x: 120 + 10 * i, y: 120, width: 5, height: 5 }, [0, 0, 255, 255]);
      assert.ok(isBlack(pixel((await svc.reader.read()).image, 210, 210)));
    }
    assert.deepEqual([fake.windows.polls, idLookups], [1, 2]);
    fake.windows.active = window('Other', { x: 0, y: 0, width: 800, height: 600 }, 'w2');
    fake.screen.paint({ x: 10, y: 10, width: 5, height: 5 }, [0, 0, 255, 255]);
    await svc.reader.read();
    assert.equal(fake.windows.polls, 2, 'a new id: the full lookup');
  });

  it('a window without a tree is not asked again on every change', async () => {
    const fake = createFakeDesktop({ window: window('Tk app', { x: 0, y: 0, width: 800, height: 600 }, 'tk') });
    const tree = new FakeTree([]);
    const svc = services(fake, [], tree);
    for (let i = 0; i < 3; i++) {
      fake.screen.paint({ x: 10 * i, y: 10, width: 5, height: 5 }, [0, 0, 255, 255]);
      await svc.reader.read();
    }
    assert.equal(tree.queries, 1);
  });
});
