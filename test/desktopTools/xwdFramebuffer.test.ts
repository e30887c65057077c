// The XWD header of Xvfb's framebuffer file (-fbdir) and the BGRX → RGBA copy of a region.
import { strict as assert } from 'node:assert';
import { parseXwdHeader } from '../../src/platform/linux/x11/framebufferScreen';
import { bgrxToRgba } from '../../src/desktop/live/bgrxPixels';
import { xKeysym } from '../../src/platform/linux/xKeysyms';

/** The header Xvfb 21 writes for a 640x480 screen at depth 24 (read off a real -fbdir file). */
function header(overrides: Record<number, number> = {}): Buffer {
  const fields = [160, 7, 2, 24, 640, 480, 0, 0, 32, 0, 32, 32, 2560, 4, 0xff0000, 0xff00, 0xff, 8, 256, 256, 640, 480, 0, 0, 0];
  for (const [i, v] of Object.entries(overrides)) fields[Number(i)] = v;
  const out = Buffer.alloc(100);
  fields.forEach((v, i) => out.writeUInt32BE(v, i * 4));
  return out;
}

describe('the framebuffer file of GAI\'s own desktop', () => {
  it('finds the pixels after the header and the colour map', () => {
    assert.deepEqual(parseXwdHeader(header()), { width: 640, height: 480, bytesPerLine: 2560, pixelOffset: 160 + 256 * 12 });
  });

  it('refuses a layout it would misread, naming what it found', () => {
    assert.throws(() => parseXwdHeader(header({ 11: 16 })), /16 bits per pixel/);
    assert.throws(() => parseXwdHeader(header({ 7: 1 })), /byte order 1/);
    assert.throws(() => parseXwdHeader(header({ 1: 6 })), /XWD version 6/);
    assert.throws(() => parseXwdHeader(Buffer.alloc(10)), /100 bytes, got 10/);
  });

  it('copies a region as opaque RGBA', () => {
    // Two rows of three BGRX pixels, stride 16 (padding at the end of each row).
    const rows = Buffer.alloc(32);
    [[1, 2, 3], [4, 5, 6], [7, 8, 9]].forEach(([b, g, r], i) => rows.set([b!, g!, r!, 0], i * 4));
    [[10, 11, 12], [13, 14, 15], [16, 17, 18]].forEach(([b, g, r], i) => rows.set([b!, g!, r!, 0], 16 + i * 4));
    assert.deepEqual([...bgrxToRgba(rows, 16, 1, 2, 2)], [6, 5, 4, 255, 9, 8, 7, 255, 15, 14, 13, 255, 18, 17, 16, 255]);
  });

  it('names keys as X keysyms, aliases included', () => {
    assert.equal(xKeysym('enter'), 'Return');
    assert.equal(xKeysym('Esc'), 'Escape');
    assert.equal(xKeysym('f5'), 'F5');
    assert.equal(xKeysym('ctrl'), 'Control_L');
    assert.equal(xKeysym('a'), 'a');
  });
});
