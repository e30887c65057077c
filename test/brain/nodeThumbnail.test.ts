// Thumbnails of screens with the real sharp codec on synthetic frames: within the per-thumbnail
// limit (base64), cut to the active window, none when nothing fits, and a failing codec is a
// warning, not an error.
import { strict as assert } from 'node:assert';
import { DEFAULT_BRAIN_LIMITS } from '../../src/navigation/store/brainLimits';
import { makeThumbnail, tryMakeThumbnail } from '../../src/navigation/recognition/nodeThumbnail';
import { SharpImages } from '../../src/platform/images/sharpImages';
import type { ImageCodec } from '../../src/desktop/ports/imageCodec';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import { MemoryLogger } from '../../src/common/logger';
import { paintRect, solidFrame } from '../support/fakeDesktop';

const codec = new SharpImages();
const maxBytes = DEFAULT_BRAIN_LIMITS.maxThumbnailBytes;

/** Random 6 px squares (a shrink keeps them busy): the first attempt does not fit 16 KB. */
function noise(width: number, height: number, block = 6): ScreenImage {
  const data = Buffer.alloc(width * height * 4);
  const columns = Math.ceil(width / block);
  const cells: number[] = [];
  let seed = 12345;
  for (let i = 0; i < columns * Math.ceil(height / block) * 3; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    cells.push(seed >>> 24);
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = (Math.floor(y / block) * columns + Math.floor(x / block)) * 3;
      data.set([cells[cell] ?? 0, cells[cell + 1] ?? 0, cells[cell + 2] ?? 0, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data, origin: { x: 0, y: 0 } };
}

async function pixelAt(data: string, x: number, y: number): Promise<number[]> {
  const image = await codec.decode(Buffer.from(data, 'base64'));
  const offset = (y * image.width + x) * 4;
  return [...image.data.subarray(offset, offset + 3)];
}

const near = (actual: number[], expected: number[]) => actual.every((value, i) => Math.abs(value - (expected[i] ?? 0)) <= 24);

describe('node thumbnails (real sharp codec)', function () {
  this.timeout(20_000);

  it('makes a 240 px wide JPEG of a plain screen within the limit', async () => {
    const thumbnail = await makeThumbnail(codec, paintRect(solidFrame(1920, 1200), { x: 100, y: 100, width: 600, height: 300 }), { maxBytes });
    assert.ok(thumbnail);
    assert.deepEqual([thumbnail.mediaType, thumbnail.width, thumbnail.height], ['image/jpeg', 240, 150]);
    assert.ok(thumbnail.data.length <= maxBytes, `${thumbnail.data.length} base64 characters`);
    assert.match(thumbnail.data, /^[A-Za-z0-9+/]+={0,2}$/);
    assert.deepEqual([...Buffer.from(thumbnail.data, 'base64').subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
  });

  it('lowers quality and width until a busy screen fits the limit', async () => {
    const image = noise(1280, 800);
    const first = await codec.encode(image, 'jpeg', { maxWidth: 240, quality: 60 });
    assert.ok(Math.ceil(first.data.length / 3) * 4 > maxBytes, 'the test frame must not fit at first');
    const thumbnail = await makeThumbnail(codec, image, { maxBytes });
    assert.ok(thumbnail);
    assert.ok(thumbnail.data.length <= maxBytes, `${thumbnail.data.length} base64 characters`);
    assert.ok(thumbnail.width <= 240 && thumbnail.width >= 80, `width ${thumbnail.width}`);
    assert.equal(thumbnail.height, Math.round((800 * thumbnail.width) / 1280));
  });

  it('is cut to the active window, clipped to the screen', async () => {
    // Red left half, blue right half; the window is the right half.
    const frame = paintRect(solidFrame(1280, 800, [220, 30, 30, 255]), { x: 640, y: 0, width: 640, height: 800 }, [30, 30, 220, 255]);
    const thumbnail = await makeThumbnail(codec, frame, { bounds: { x: 640, y: 0, width: 640, height: 800 }, maxBytes });
    assert.ok(thumbnail);
    assert.deepEqual([thumbnail.width, thumbnail.height], [240, 300]);
    assert.ok(near(await pixelAt(thumbnail.data, 2, 150), [30, 30, 220]), 'the left edge is the window, not the red half');

    // A window hanging off the screen's right edge: only its visible part, still all blue.
    const clipped = await makeThumbnail(codec, frame, { bounds: { x: 960, y: 100.5, width: 900, height: 400 }, maxBytes });
    assert.ok(clipped);
    assert.deepEqual([clipped.width, clipped.height], [240, Math.round((401 * 240) / 320)]);
    assert.ok(near(await pixelAt(clipped.data, 2, 2), [30, 30, 220]));
  });

  it('uses the whole screen when the window bounds lie off it', async () => {
    const thumbnail = await makeThumbnail(codec, solidFrame(800, 600), { bounds: { x: 2000, y: 2000, width: 300, height: 200 }, maxBytes });
    assert.deepEqual([thumbnail?.width, thumbnail?.height], [240, 180]);
  });

  it('keeps a tall window at most twice as high as wide', async () => {
    const thumbnail = await makeThumbnail(codec, solidFrame(300, 3000), { maxBytes });
    assert.ok(thumbnail);
    assert.ok(thumbnail.height <= 2 * 240 && thumbnail.width === Math.floor((240 * 2 * 300) / 3000), `${thumbnail.width}x${thumbnail.height}`);
  });

  it('makes none when even the smallest does not fit', async () => {
    assert.equal(await makeThumbnail(codec, noise(640, 400), { maxBytes: 200 }), undefined);
  });

  it('a failing codec is a logged warning and no thumbnail', async () => {
    const broken: ImageCodec = {
      encode: () => Promise.reject(new Error('sharp: unsupported')),
      annotate: () => Promise.reject(new Error('unused')),
      decode: () => Promise.reject(new Error('unused')),
    };
    const logger = new MemoryLogger();
    assert.equal(await tryMakeThumbnail(broken, solidFrame(100, 100), { maxBytes }, logger), undefined);
    assert.deepEqual(logger.lines, ['[warn] navigation: making a thumbnail of the screen failed: sharp: unsupported']);
  });
});
