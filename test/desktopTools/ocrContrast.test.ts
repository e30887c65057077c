import { strict as assert } from 'node:assert';
import { inkOnWhite } from '../../src/desktop/ocr/ocrContrast';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import { findTextRegions } from '../../src/desktop/ocr/textRegions';

type Rgb = [number, number, number];

function image(width: number, height: number, fill: Rgb): ScreenImage {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...fill, 255], i * 4);
  return { width, height, data, origin: { x: 0, y: 0 } };
}

function rect(img: ScreenImage, x: number, y: number, w: number, h: number, colour: Rgb): void {
  for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) img.data.set([...colour, 255], (yy * img.width + xx) * 4);
}

function grey(img: ScreenImage, x: number, y: number): number {
  return img.data[(y * img.width + x) * 4]!;
}

/** Glyph-like strokes: a 2-px-wide stem and a bar per "letter", 8 px apart; one with a descender. */
function word(img: ScreenImage, x: number, y: number, letters: number, colour: Rgb, descender = -1): void {
  for (let i = 0; i < letters; i++) {
    const left = x + i * 8;
    rect(img, left, y, 2, i === descender ? 14 : 10, colour);
    rect(img, left, y + 4, 5, 2, colour);
    rect(img, left + 4, y + 4, 2, 6, colour);
  }
}

const WHITE: Rgb = [255, 255, 255];
const BLUE: Rgb = [26, 115, 232];
const PURPLE: Rgb = [106, 27, 154];
const RED: Rgb = [217, 48, 37];

describe('OCR crops and text regions on coloured fills (issue 10)', () => {
  describe('inkOnWhite', () => {
    it('turns white text on a blue button into black ink on white', () => {
      const crop = image(40, 20, BLUE);
      rect(crop, 10, 5, 3, 10, WHITE);
      const out = inkOnWhite(crop, 0xff000000 | (BLUE[2] << 16) | (BLUE[1] << 8) | BLUE[0], { x: 4, y: 4, width: 32, height: 12 });
      assert.equal(grey(out, 1, 1), 255, 'the fill becomes white');
      assert.equal(grey(out, 11, 8), 0, 'the light ink becomes black');
      assert.equal(out.data[(8 * 40 + 11) * 4 + 1], 0, 'grey: all channels alike');
    });

    it('turns red text on white into black, where plain luma leaves it mid-grey', () => {
      const crop = image(40, 20, WHITE);
      rect(crop, 10, 5, 3, 10, RED);
      const out = inkOnWhite(crop, 0xffffffff, { x: 4, y: 4, width: 32, height: 12 });
      assert.equal(grey(out, 11, 8), 0);
      assert.equal(grey(out, 30, 8), 255);
    });

    it('leaves a crop without contrasting ink as it is', () => {
      const crop = image(20, 10, WHITE);
      assert.equal(inkOnWhite(crop, 0xffffffff, { x: 2, y: 2, width: 16, height: 6 }), crop);
    });
  });

  describe('findTextRegions', () => {
    it('finds the label inside a saturated button, descenders included, and not the button itself', () => {
      const page = image(400, 120, WHITE);
      // Two buttons side by side, 14 px apart, like "Publish" and "Upgrade" in a toolbar.
      rect(page, 20, 40, 90, 30, PURPLE);
      rect(page, 124, 40, 90, 30, BLUE);
      word(page, 36, 50, 7, WHITE, 2);
      word(page, 140, 50, 6, WHITE);
      const regions = findTextRegions(page);
      const inFirst = regions.filter((r) => r.bbox.x >= 20 && r.bbox.x + r.bbox.width <= 110);
      assert.equal(inFirst.length, 1, JSON.stringify(regions));
      const [label] = inFirst;
      assert.deepEqual({ x: label!.bbox.x, y: label!.bbox.y, bottom: label!.bbox.y + label!.bbox.height }, { x: 36, y: 50, bottom: 64 }, 'all seven letters, the descender to its end');
      assert.ok(label!.glyphs >= 7);
      assert.ok(regions.some((r) => r.bbox.x >= 124 && r.bbox.x + r.bbox.width <= 214 && r.glyphs >= 6), 'the second button has its label too');
      assert.ok(!regions.some((r) => r.bbox.height >= 28), 'no region is a whole button');
    });

    it('finds the number on a small badge beside a word', () => {
      const page = image(200, 60, WHITE);
      word(page, 10, 22, 4, [40, 40, 40]);
      rect(page, 60, 18, 36, 18, RED);
      word(page, 70, 22, 2, WHITE);
      const regions = findTextRegions(page);
      assert.ok(
        regions.some((r) => r.bbox.x >= 60 && r.bbox.x + r.bbox.width <= 96 && r.bbox.y >= 18 && r.bbox.y + r.bbox.height <= 36 && r.glyphs === 2),
        JSON.stringify(regions),
      );
    });
  });
});
