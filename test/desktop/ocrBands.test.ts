// Splitting a screen into bands read in parallel, and joining the bands' results: pure.
import * as assert from 'node:assert/strict';
import type { OcrElement } from '../../src/desktop/ocr/ocrTypes';
import { balancedCuts, joinBands, splitIntoBands } from '../../src/desktop/ocr/ocrBands';

describe('OCR bands', function () {
  it('cuts bands where the text is balanced, at quiet rows, and trims their blank borders', function () {
    // Five text lines (rows of activity 10) at 0-91 and five at 700-791 of 1000: the middle cut
    // falls in the gap after the first block (half the text above it), not at row 500.
    const activity = Array.from({ length: 1000 }, (_, y) => ((y < 100 || (y >= 700 && y < 800)) && y % 20 < 12 ? 10 : 0));
    const cut = balancedCuts(activity, 2, 20)[1]!;
    assert.ok(cut >= 92 && cut <= 120 && activity[cut] === 0 && balancedCuts(activity, 2, 20).length === 3, `cut at ${cut}`);
    assert.deepEqual(balancedCuts(new Array<number>(90).fill(0), 3, 5), [0, 30, 60, 90]);
    // White, with two 4x10 black blocks (rows 20-29 and 70-79, columns 50-53).
    const data = Buffer.alloc(100 * 100 * 4, 255);
    for (const y0 of [20, 70]) for (let y = y0; y < y0 + 10; y++) data.fill(Buffer.from([0, 0, 0, 255]), (y * 100 + 50) * 4, (y * 100 + 54) * 4);
    const bands = splitIntoBands({ width: 100, height: 100, data, origin: { x: 10, y: 500 } }, 2, 8);
    // Cut at row 30; each band trimmed to its blocks plus a 16-px border.
    assert.deepEqual(bands.map((b) => [b.image.origin.x, b.image.origin.y, b.image.width, b.image.height, b.top, b.bottom]), [[43, 504, 38, 34, -Infinity, 530], [43, 522, 38, 74, 530, Infinity]]);
    assert.equal(splitIntoBands({ width: 100, height: 100, data: Buffer.alloc(100 * 100 * 4, 255), origin: { x: 0, y: 0 } }, 2, 8)[1]!.image.width, 0, 'blank');
  });

  it('keeps each element of overlapping bands once, even when the bands box it differently', function () {
    const band = (y: number, top: number, bottom: number) => ({ image: { width: 300, height: 140, data: Buffer.alloc(0), origin: { x: 0, y } }, top, bottom });
    const columns: Record<string, number> = { OK: 10, Save: 10, 'Save As': 10, panel: 100, Name: 150, xx: 200, Email: 250 };
    const at = (text: string, y: number, height: number, confidence = 0.9, level: OcrElement['level'] = 'word'): OcrElement => ({ text, confidence, bbox: { x: columns[text]!, y, width: 40, height }, level });
    const joined = joinBands(
      [
        // Band 1 (rows 0-140, owns < 100): "Save" and its line seen whole but owned below;
        // "panel" boxed with a frame line; "Name" centred below the cut; a fragment at its edge.
        [at('OK', 20, 10), at('Save As', 95, 12, 0.9, 'line'), at('Save', 95, 12), at('panel', 85, 24, 0.6), at('Name', 98, 10), at('xx', 130, 10)],
        // Band 2 (rows 60-200, owns >= 100).
        [at('Save As', 94, 12, 0.9, 'line'), at('Save', 94, 12), at('panel', 95, 12), at('Name', 92, 14), at('Email', 128, 14)],
      ],
      [band(0, -Infinity, 100), band(60, 100, Infinity)],
    );
    assert.deepEqual(joined.map((e) => `${e.text}@${e.bbox.y}`), ['OK@20', 'Save As@94', 'Save@94', 'panel@95', 'Email@128', 'Name@98']);
  });
});
