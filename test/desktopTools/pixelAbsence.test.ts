import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { labelAbsentFromPixels } from '../../src/desktop/grounding/pixelAbsence';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { OcrEngine, OcrOptions } from '../../src/desktop/ports/ocrPort';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import type { OcrAnalysis } from '../../src/desktop/ocr/ocrTypes';

// The rules of the glyph check on drawn pixels: glyph outlines (what the glyph search takes for
// letters) in words, tree elements around some of them, and an OCR engine that says what a sheet
// of the rest reads (the real reading is tested on a real app in test/desktop/pixelCheck.test.ts).

const ORIGIN = { x: 100, y: 50 };

function canvas(words: Array<{ x: number; y: number; glyphs: number }>): ScreenImage {
  const width = 500;
  const height = 200;
  const data = Buffer.alloc(width * height * 4, 255);
  const ink = (x: number, y: number): void => {
    data.fill(20, (y * width + x) * 4, (y * width + x) * 4 + 3);
  };
  for (const word of words) {
    for (let k = 0; k < word.glyphs; k++) {
      const x0 = word.x - ORIGIN.x + k * 8;
      const y0 = word.y - ORIGIN.y;
      for (let i = 0; i < 6; i++) {
        ink(x0 + i, y0);
        ink(x0 + i, y0 + 9);
      }
      for (let j = 0; j < 10; j++) {
        ink(x0, y0 + j);
        ink(x0 + 5, y0 + j);
      }
    }
  }
  return { width, height, data, origin: ORIGIN };
}

function el(name: string, bbox: BBox, extra: Partial<AccessibleElement> = {}): AccessibleElement {
  return { name, role: 'push button', bbox, states: ['enabled', 'showing'], ...extra };
}

class SheetOcr implements OcrEngine {
  readonly name = 'sheet';
  calls = 0;
  constructor(private readonly words: string[]) {}
  async recognize(image: ScreenImage, _options?: OcrOptions): Promise<OcrAnalysis> {
    this.calls++;
    const elements = this.words.map((text, i) => ({ text, confidence: 0.95, level: 'word' as const, bbox: { x: 10 + i * 60, y: 10, width: 50, height: 12 } }));
    return { fullText: this.words.join(' '), elements: [...elements, { text: this.words.join(' '), confidence: 0.95, level: 'line' as const, bbox: { x: 10, y: 10, width: image.width - 20, height: 12 } }] };
  }
  async dispose(): Promise<void> {}
}

// Three buttons, each drawing its name's length in glyphs.
const BUTTONS = [el('Open', { x: 110, y: 60, width: 50, height: 20 }), el('Save', { x: 170, y: 60, width: 50, height: 20 }), el('Print', { x: 230, y: 60, width: 60, height: 20 })];
const DRAWN = [{ x: 114, y: 65, glyphs: 4 }, { x: 174, y: 65, glyphs: 4 }, { x: 234, y: 65, glyphs: 5 }];

describe('the glyph check of the active window (pixelAbsence)', () => {
  it('text all inside elements of as many characters: absent, with no OCR at all', async () => {
    const ocr = new SheetOcr([]);
    const verdict = await labelAbsentFromPixels(canvas(DRAWN), BUTTONS, 'Compress', ocr);
    assert.deepEqual(verdict, { absent: true, regions: 3, crops: 0, read: [], minChars: 2, glyphs: false });
    assert.equal(ocr.calls, 0);
  });

  it('text no element accounts for is read in one call: like the label, the window is read; else its words are kept', async () => {
    const image = canvas([...DRAWN, { x: 120, y: 150, glyphs: 7 }, { x: 120, y: 180, glyphs: 6 }]);
    const drawnThere = new SheetOcr(['Archive', 'Courier']);
    assert.deepEqual(await labelAbsentFromPixels(image, BUTTONS, 'Archive', drawnThere), { absent: false, why: 'read there' });
    assert.equal(drawnThere.calls, 1, 'the two pieces on one sheet');
    const other = new SheetOcr(['Archive', 'Courier']);
    const verdict = await labelAbsentFromPixels(image, BUTTONS, 'Compress', other);
    assert.ok(verdict.absent && verdict.crops === 2 && verdict.read.includes('Courier'), JSON.stringify(verdict));
  });

  it('an element drawing far more glyphs than its name has does not account for them', async () => {
    const panel = [...BUTTONS, el('Memo', { x: 110, y: 140, width: 300, height: 40 }, { role: 'label' })];
    const ocr = new SheetOcr(['Quarterly', 'sales']);
    const verdict = await labelAbsentFromPixels(canvas([...DRAWN, { x: 120, y: 150, glyphs: 9 }, { x: 200, y: 150, glyphs: 5 }]), panel, 'Compress', ocr);
    assert.ok(verdict.absent && verdict.crops === 2 && verdict.read.includes('Quarterly'), JSON.stringify(verdict));
    assert.equal(ocr.calls, 1);
  });

  it('a glyph or a lone character: also what elements named in words draw as a glyph or an icon is read', async () => {
    const none = new SheetOcr([]);
    assert.deepEqual(await labelAbsentFromPixels(canvas(DRAWN), BUTTONS, '−', none), { absent: true, regions: 3, crops: 0, read: [], minChars: 1, glyphs: true });
    assert.equal(none.calls, 0, 'every button draws its name');
    // "Zoom out" draws one glyph: it may be the "−" asked for.
    const zoomOut = [...BUTTONS, el('Zoom out', { x: 300, y: 60, width: 24, height: 20 })];
    const image = canvas([...DRAWN, { x: 306, y: 65, glyphs: 1 }]);
    const minus = new SheetOcr(['−']);
    assert.deepEqual(await labelAbsentFromPixels(image, zoomOut, '−', minus), { absent: false, why: 'read there' });
    assert.equal(minus.calls, 1);
    // Read as nothing, it may still be the "−": the whole reading's rules judge that button.
    assert.deepEqual(await labelAbsentFromPixels(image, zoomOut, '−', new SheetOcr([])), { absent: false, why: 'a glyph of a button named in words was not read' });
    const seven = new SheetOcr(['−']);
    const verdict = await labelAbsentFromPixels(image, zoomOut, '7', seven);
    assert.ok(verdict.absent && verdict.glyphs && verdict.crops === 1 && verdict.read.includes('−'), JSON.stringify(verdict));
    // For a word the same glyph is that button's own (its name's length is not checked from below).
    const word = new SheetOcr(['−']);
    assert.equal((await labelAbsentFromPixels(image, zoomOut, 'Compress', word)).absent, true);
    assert.equal(word.calls, 0);
  });

  it('letters are not specks, rules or one thin stroke: those are not read for a label of two letters or more', async () => {
    const bar = (x: number, y: number, width: number, height: number): ScreenImage => {
      const image = canvas(DRAWN);
      for (let j = 0; j < height; j++) image.data.fill(20, ((y - ORIGIN.y + j) * image.width + x - ORIGIN.x) * 4, ((y - ORIGIN.y + j) * image.width + x - ORIGIN.x + width) * 4);
      return image;
    };
    for (const [what, image] of [['a rule', bar(120, 150, 120, 4)], ['a speck', bar(120, 150, 2, 4)], ['a thin stroke', bar(120, 120, 2, 22)]] as const) {
      const ocr = new SheetOcr(['I']);
      const word = await labelAbsentFromPixels(image, BUTTONS, 'Go', ocr);
      assert.ok(word.absent && word.crops === 0, `${what}: ${JSON.stringify(word)}`);
      const glyph = await labelAbsentFromPixels(image, BUTTONS, '|', ocr);
      assert.ok(glyph.absent && glyph.crops === 1, `${what} may be a glyph: ${JSON.stringify(glyph)}`);
    }
  });

  it('reads the window whole when the glyph search sees no text in most named elements, and for words the tree has apart', async () => {
    const ocr = new SheetOcr([]);
    const faint = await labelAbsentFromPixels(canvas([DRAWN[0]!]), BUTTONS, 'Compress', ocr);
    assert.deepEqual(faint, { absent: false, why: 'glyphs found in 33% of the named elements' });
    assert.deepEqual(await labelAbsentFromPixels(canvas([DRAWN[0]!]), BUTTONS, '−', ocr), { absent: false, why: 'glyphs found in 33% of the named elements' });
    assert.deepEqual(await labelAbsentFromPixels(canvas(DRAWN), BUTTONS, 'Open Save', ocr), { absent: false, why: 'its words are in the tree apart' });
    assert.equal((await labelAbsentFromPixels(canvas(DRAWN), BUTTONS, 'Go', ocr)).absent, true, 'two letters are checked');
    assert.equal(ocr.calls, 0);
  });

  it('text under another window is not the window\'s', async () => {
    const ocr = new SheetOcr(['Archive']);
    const verdict = await labelAbsentFromPixels(canvas([...DRAWN, { x: 120, y: 150, glyphs: 7 }]), BUTTONS, 'Archive', ocr, { covered: [{ x: 100, y: 140, width: 200, height: 30 }] });
    assert.equal(verdict.absent, true);
    assert.equal(ocr.calls, 0);
  });
});
