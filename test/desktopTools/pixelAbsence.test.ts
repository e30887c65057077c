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
    assert.deepEqual(verdict, { absent: true, regions: 3, crops: 0, read: [], minChars: 8 });
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

  it('reads the window whole when the glyph search sees no text in most named elements, for glyphs and lone characters, and for words the tree has apart', async () => {
    const ocr = new SheetOcr([]);
    const faint = await labelAbsentFromPixels(canvas([DRAWN[0]!]), BUTTONS, 'Compress', ocr);
    assert.deepEqual(faint, { absent: false, why: 'glyphs found in 33% of the named elements' });
    assert.deepEqual(await labelAbsentFromPixels(canvas(DRAWN), BUTTONS, '−', ocr), { absent: false, why: 'a glyph or one character' });
    assert.deepEqual(await labelAbsentFromPixels(canvas(DRAWN), BUTTONS, '7', ocr), { absent: false, why: 'a glyph or one character' });
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
