import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageBlock } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { ElementTreeTool } from '../../src/tools/desktop/elementTreeTool';
import { OcrTool } from '../../src/tools/desktop/ocrTool';
import { ScreenCaptureTool } from '../../src/tools/desktop/screenCaptureTool';
import { SmartScreenReaderTool } from '../../src/tools/desktop/smartScreenReaderTool';
import {
  createFakeDesktop,
  FakeModelAccess,
  makeServices,
  ocrWords,
  runTool,
  solidFrame,
  window,
  type FakeDesktop,
} from '../support/fakeDesktop';

// The reading tools (and the HiDPI contract of click) on the in-memory desktop.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

function data(result: ToolResult): Record<string, unknown> {
  return (result.data ?? {}) as Record<string, unknown>;
}

function imageBytes(block: ImageBlock | undefined): Buffer {
  assert.ok(block, 'an image block');
  return Buffer.from(block.source.data, 'base64');
}

const editorBounds = { x: 100, y: 100, width: 400, height: 300 };

/** An "Editor" window with two blocks of text, and a desktop label outside it. */
function editorDesktop(options: { width?: number; height?: number } = {}): FakeDesktop {
  return createFakeDesktop({
    ...options,
    window: window('Editor', editorBounds, 'w1'),
    analysis: ocrWords([
      { text: 'Desktop', x: 10, y: 10, w: 60, h: 16 },
      { text: 'Open', x: 120, y: 120, w: 40, h: 16 },
      { text: 'File', x: 165, y: 120, w: 30, h: 16 },
      { text: 'Recent', x: 120, y: 140, w: 50, h: 16 },
      { text: 'items', x: 175, y: 140, w: 40, h: 16 },
      { text: 'Status', x: 120, y: 360, w: 50, h: 16 },
    ]),
  });
}

describe('desktop reading tools', function () {
  this.timeout(10_000);
  let fake: FakeDesktop;
  beforeEach(() => {
    fake = editorDesktop();
  });

  describe('screen_capture', () => {
    it('returns the screen as a PNG image block with its size', async () => {
      const result = await runTool(new ScreenCaptureTool(makeServices(fake)), {});
      assert.equal(result.success, true, result.error);
      assert.equal(result.images?.[0]?.source.mediaType, 'image/png');
      assert.deepEqual(imageBytes(result.images?.[0]).subarray(0, 8), PNG_SIGNATURE);
      assert.deepEqual([data(result).width, data(result).height, data(result).scale], [800, 600, 1]);
    });

    it('downscales to maxWidth and reports the scale', async () => {
      const result = await runTool(new ScreenCaptureTool(makeServices(fake)), { maxWidth: 400 });
      assert.deepEqual([data(result).width, data(result).height, data(result).scale], [400, 300, 0.5]);
      const decoded = await new SharpImages().decode(imageBytes(result.images?.[0]));
      assert.deepEqual([decoded.width, decoded.height], [400, 300], 'the PNG itself is downscaled');
    });

    it('captures a region as JPEG, with its origin', async () => {
      const result = await runTool(new ScreenCaptureTool(makeServices(fake)), { region: { x: 10, y: 20, width: 100, height: 50 }, format: 'jpeg' });
      assert.deepEqual(imageBytes(result.images?.[0]).subarray(0, 3), JPEG_SIGNATURE);
      assert.deepEqual(data(result).origin, { x: 10, y: 20 });
      // The whole screen is read (secret fields are found from its text), then cut to the region.
      assert.deepEqual(fake.screen.grabs, [undefined]);
      assert.deepEqual([data(result).width, data(result).height], [100, 50]);
    });

    it('refuses a region beyond the screen, naming region', async () => {
      const result = await runTool(new ScreenCaptureTool(makeServices(fake)), { region: { x: 700, y: 0, width: 200, height: 50 } });
      assert.equal(result.code, 'INVALID_INPUT');
      assert.match(result.error ?? '', /region: extends beyond the 800x600 screen/);
      assert.deepEqual(fake.screen.grabs, []);
    });
  });

  describe('ocr', () => {
    const ocr = (): OcrTool => new OcrTool(makeServices(fake));

    it('requires exactly one source, naming the field', () => {
      const none = ocr().validateInput({});
      assert.ok(!none.ok && none.errors[0]?.startsWith('captureScreen:'), JSON.stringify(none));
      const two = ocr().validateInput({ captureScreen: true, imagePath: '/tmp/x.png' });
      assert.ok(!two.ok && two.errors[0]?.startsWith('imagePath:'), JSON.stringify(two));
      const withRegion = ocr().validateInput({ captureScreen: true, region: { x: 0, y: 0, width: 5, height: 5 } });
      assert.equal(withRegion.ok, false);
    });

    it('returns lines by default and words on request', async () => {
      const lines = data(await runTool(ocr(), { captureScreen: true })).elements as Array<{ text: string; level: string }>;
      assert.deepEqual(lines.map((e) => e.text), ['Desktop', 'Open File', 'Recent items', 'Status']);
      assert.ok(lines.every((e) => e.level === 'line'));
      const words = data(await runTool(ocr(), { captureScreen: true, level: 'words' })).elements as Array<{ text: string; level: string }>;
      assert.deepEqual(words.map((e) => e.text), ['Desktop', 'Open', 'File', 'Recent', 'items', 'Status']);
      assert.ok(words.every((e) => e.level === 'word'));
    });

    it('caps the elements and says how many were left out', async () => {
      const result = data(await runTool(ocr(), { captureScreen: true, maxElements: 1 }));
      assert.equal((result.elements as unknown[]).length, 1);
      assert.equal(result.omitted, 3);
    });

    it('reads a region: OCR sees only that region', async () => {
      const result = data(await runTool(ocr(), { region: { x: 100, y: 100, width: 200, height: 60 } }));
      assert.deepEqual(fake.ocr.images[0]?.origin, { x: 100, y: 100 });
      assert.equal(fake.ocr.images[0]?.width, 200);
      assert.equal(result.fullText, '<screen_text source="ocr" area="region 200x60 at (100, 100)">\nOpen File\nRecent items\n</screen_text>');
    });

    it('refuses a region beyond the screen, naming region', async () => {
      const result = await runTool(ocr(), { region: { x: 700, y: 0, width: 200, height: 50 } }).catch((error: unknown) => error);
      assert.equal((result as ToolResult).code, 'INVALID_INPUT');
      assert.match((result as ToolResult).error ?? '', /region/);
    });

    describe('an image file', () => {
      let dir: string;
      beforeEach(() => {
        dir = mkdtempSync(join(tmpdir(), 'gai-ocr-'));
      });
      afterEach(() => {
        rmSync(dir, { recursive: true, force: true });
      });

      it('decodes the file and reads it, not the screen', async () => {
        const png = await new SharpImages().encode(solidFrame(240, 180), 'png');
        const path = join(dir, 'shot.png');
        writeFileSync(path, png.data);
        const result = await runTool(ocr(), { imagePath: path });
        assert.equal(result.success, true, result.error);
        assert.deepEqual([fake.ocr.images[0]?.width, fake.ocr.images[0]?.height], [240, 180]);
        assert.deepEqual(fake.screen.grabs, [], 'the screen was not captured');
        // Only what lies inside the 240x180 picture is in it.
        assert.match(String(data(result).fullText), /^<screen_text source="ocr" area="[^"]*shot\.png">\nDesktop\nOpen File\nRecent items\n<\/screen_text>$/);
      });

      it('a missing file is NOT_FOUND', async () => {
        const result = await runTool(ocr(), { imagePath: join(dir, 'missing.png') });
        assert.equal(result.code, 'NOT_FOUND');
        assert.match(result.error ?? '', /missing\.png/);
      });
    });
  });

  describe('get_element_tree', () => {
    interface Tree {
      type: string;
      title: string;
      bbox: unknown;
      blocks: Array<{ lines: Array<{ text: string; words?: Array<{ text: string }> }> }>;
    }
    const tree = async (input: Record<string, unknown>): Promise<Tree> => data(await runTool(new ElementTreeTool(makeServices(fake)), input)) as unknown as Tree;

    it('groups the lines of the active window into blocks', async () => {
      const root = await tree({});
      assert.equal(root.type, 'window');
      assert.equal(root.title, 'Editor');
      assert.deepEqual(root.bbox, editorBounds);
      assert.deepEqual(root.blocks.map((b) => b.lines.map((l) => l.text)), [['Open File', 'Recent items'], ['Status']]);
      assert.equal(root.blocks[0]?.lines[0]?.words, undefined);
    });

    it('includes words on request, and the whole screen with scope "screen"', async () => {
      const withWords = await tree({ includeWords: true });
      assert.deepEqual(withWords.blocks[0]?.lines[0]?.words?.map((w) => w.text), ['Open', 'File']);
      const screen = await tree({ scope: 'screen' });
      assert.equal(screen.type, 'screen');
      assert.deepEqual(screen.blocks.flatMap((b) => b.lines.map((l) => l.text)), ['Desktop', 'Open File', 'Recent items', 'Status']);
    });
  });

  describe('smart_screen_reader', () => {
    it('quick without a model: an OCR summary with the window title and the text', async () => {
      const result = await runTool(new SmartScreenReaderTool(makeServices(fake)), { mode: 'quick' });
      assert.equal(result.success, true, result.error);
      assert.equal(data(result).llmMode, 'none');
      const analysis = String(data(result).analysis);
      assert.match(analysis, /"Editor"/);
      assert.match(analysis, /Open File\nRecent items/);
    });

    it('quick with a model: asks the fast mode with the screen text', async () => {
      const llm = new FakeModelAccess('An editor with a file menu.');
      const result = await runTool(new SmartScreenReaderTool(makeServices(fake), llm), { mode: 'quick' });
      assert.equal(llm.calls.length, 1);
      assert.equal(llm.calls[0]?.mode, 'fast');
      const prompt = JSON.stringify(llm.calls[0]?.messages);
      assert.match(prompt, /Open File/);
      assert.match(prompt, /Editor/);
      assert.equal(data(result).analysis, '<screen_text source="fast model summary of the screen">\nAn editor with a file menu.\n</screen_text>');
    });

    it('detailed without a model fails with a hint', async () => {
      const result = await runTool(new SmartScreenReaderTool(makeServices(fake)), { mode: 'detailed' });
      assert.equal(result.code, 'FAILED');
      assert.match(result.hint ?? '', /ocr|get_element_tree/);
    });

    it('detailed without a key says the key is missing, not that no vision model is configured', async () => {
      const reason = 'No API key for Anthropic: run "GAI: Set API Key" (or set ANTHROPIC_API_KEY before starting VS Code).';
      const result = await runTool(new SmartScreenReaderTool(makeServices(fake), undefined, reason), { mode: 'detailed' });
      assert.equal(result.code, 'FAILED');
      assert.match(result.observation, /No API key for Anthropic.*ANTHROPIC_API_KEY/);
      assert.doesNotMatch(result.observation, /none is configured/);
      const quick = await runTool(new SmartScreenReaderTool(makeServices(fake), undefined, reason), { mode: 'quick' });
      assert.match(quick.observation, /^Read the screen by OCR \(no model: No API key for Anthropic/);
    });

    it('detailed sends a screenshot to the vision mode and maps x, y back to screen pixels', async () => {
      const big = editorDesktop({ width: 2560, height: 1440 });
      const llm = new FakeModelAccess('Here: {"summary":"An editor.","elements":[{"label":"Save","role":"button","x":100,"y":50}]}');
      const result = await runTool(new SmartScreenReaderTool(makeServices(big, { screenshotMaxWidth: 1280 }), llm), { mode: 'detailed' });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(data(result).elements, [{ label: 'Save', role: 'button', x: 200, y: 100 }]);
      assert.equal(data(result).imageScale, 0.5);
      assert.equal(data(result).analysis, '<screen_text source="vision model summary of the screen">\nAn editor.\n</screen_text>');
      const call = llm.calls[0];
      assert.equal(call?.mode, 'vision');
      const content = call?.messages[0]?.content ?? [];
      const image = content.find((b): b is ImageBlock => b.type === 'image');
      assert.deepEqual(imageBytes(image).subarray(0, 8), PNG_SIGNATURE);
      const text = content.find((b) => b.type === 'text');
      // The OCR boxes are given in picture coordinates too: "Open File" at (120, 120) → (60, 60).
      assert.match(text?.type === 'text' ? text.text : '', /"text":"Open File","x":60,"y":60/);
      assert.match(text?.type === 'text' ? text.text : '', /1280x720/);
    });
  });

  describe('HiDPI', () => {
    // The ports speak screen pixels; only the input adapter divides by the scale factor. So the
    // tool must hand over the box centre as seen in the screenshot, not halved.
    let retina: FakeDesktop;
    beforeEach(() => {
      retina = createFakeDesktop({ width: 2560, height: 1600, analysis: ocrWords([{ text: 'Save', x: 1000, y: 500, w: 80, h: 32 }]) });
      retina.screen.scale = 2;
    });

    it('click by text passes the screen-pixel centre of the box to the input port', async () => {
      await runTool(new ClickTool(makeServices(retina)), { text: 'Save' });
      assert.deepEqual(retina.input.calls, [{ type: 'click', at: { x: 1040, y: 516 }, button: 'left', double: false }]);
    });

    it('click by coordinates accepts the whole pixel screen and passes the point unchanged', async () => {
      const result = await runTool(new ClickTool(makeServices(retina)), { x: 2000, y: 1500 });
      assert.equal(result.success, true, result.error);
      assert.deepEqual(retina.input.calls, [{ type: 'click', at: { x: 2000, y: 1500 }, button: 'left', double: false }]);
    });
  });
});
