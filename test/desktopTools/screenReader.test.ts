import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { changedRegion, changedRegions, crop } from '../../src/desktop/reading/screenDiff';
import { ScreenReader } from '../../src/desktop/reading/screenReader';
import { FakeOcr, FakeScreen, ocrWords, paintRect, solidFrame, type WordSpec } from '../support/fakeDesktop';

function pixel(image: { width: number; data: Buffer }, x: number, y: number): number[] {
  const at = (y * image.width + x) * 4;
  return [...image.data.subarray(at, at + 4)];
}

describe('screen diff', () => {
  describe('changedRegion', () => {
    it('equal frames have no changed region', () => {
      const frame = solidFrame(64, 32);
      assert.equal(changedRegion(frame, { ...frame, data: Buffer.from(frame.data) }), undefined);
    });

    it('finds a changed rectangle: exact rows, columns within one 16 px block', () => {
      const before = solidFrame(200, 100);
      const rect = { x: 37, y: 20, width: 10, height: 5 };
      const region = changedRegion(before, paintRect(before, rect));
      assert.ok(region);
      assert.equal(region.y, 20);
      assert.equal(region.height, 5);
      assert.ok(region.x <= rect.x && rect.x - region.x < 16, `left ${region.x}`);
      const right = region.x + region.width;
      assert.ok(right >= rect.x + rect.width && right - (rect.x + rect.width) < 16, `right ${right}`);
    });

    it('reports screen coordinates (the frame origin added) and stays inside the frame', () => {
      const before = { ...solidFrame(100, 40), origin: { x: 300, y: 200 } };
      const region = changedRegion(before, paintRect(before, { x: 395, y: 239, width: 5, height: 1 }));
      assert.ok(region);
      assert.equal(region.y, 239);
      assert.equal(region.height, 1);
      assert.ok(region.x >= 300 && region.x <= 395);
      assert.equal(region.x + region.width, 400, 'the right edge is clipped to the frame');
    });

    it('frames of different sizes change as a whole', () => {
      assert.deepEqual(changedRegion(solidFrame(10, 10), solidFrame(20, 10)), { x: 0, y: 0, width: 20, height: 10 });
    });
  });

  describe('changedRegions', () => {
    it('a caret that moved and a status bar far below are separate boxes, each of its own rows', () => {
      const before = solidFrame(400, 300);
      const after = paintRect(paintRect(paintRect(before, { x: 40, y: 30, width: 2, height: 14 }), { x: 200, y: 120, width: 2, height: 14 }), { x: 300, y: 280, width: 60, height: 12 });
      const regions = changedRegions(before, after);
      assert.deepEqual(regions.map((r) => [r.y, r.height]), [[30, 14], [120, 14], [280, 12]]);
      assert.ok(regions[0]!.x <= 40 && regions[0]!.width <= 32, `first box ${JSON.stringify(regions[0])}`);
      assert.deepEqual(changedRegion(before, after), { x: 32, y: 30, width: 336, height: 262 }, 'changedRegion is still the one box around all');
    });

    it('changes closer than the gap are one box', () => {
      const before = solidFrame(200, 100);
      const after = paintRect(paintRect(before, { x: 10, y: 10, width: 5, height: 5 }), { x: 10, y: 40, width: 5, height: 5 });
      assert.deepEqual(changedRegions(before, after).map((r) => [r.y, r.height]), [[10, 35]]);
      assert.equal(changedRegions(before, after, 8).length, 2);
    });

    it('a scrollbar strip changed in every row stays apart from a caret far to its left', () => {
      const before = solidFrame(600, 400);
      const after = paintRect(paintRect(before, { x: 580, y: 0, width: 12, height: 400 }), { x: 40, y: 200, width: 2, height: 16 });
      const regions = changedRegions(before, after);
      assert.equal(regions.length, 2, JSON.stringify(regions));
      assert.ok(regions.every((r) => r.width <= 32), JSON.stringify(regions));
    });
  });

  describe('crop', () => {
    it('copies a region given in screen coordinates and keeps its origin', () => {
      const frame = paintRect(solidFrame(50, 40), { x: 12, y: 7, width: 1, height: 1 }, [1, 2, 3, 255]);
      const part = crop(frame, { x: 10, y: 5, width: 8, height: 6 });
      assert.deepEqual([part.width, part.height, part.origin], [8, 6, { x: 10, y: 5 }]);
      assert.equal(part.data.length, 8 * 6 * 4);
      assert.deepEqual(pixel(part, 2, 2), [1, 2, 3, 255]);
      assert.deepEqual(pixel(part, 0, 0), [240, 240, 240, 255]);
      // A crop of a crop still speaks screen coordinates.
      const inner = crop(part, { x: 12, y: 7, width: 2, height: 2 });
      assert.deepEqual(pixel(inner, 0, 0), [1, 2, 3, 255]);
      assert.deepEqual(inner.origin, { x: 12, y: 7 });
    });
  });
});

describe('ScreenReader', () => {
  const hello: WordSpec = { text: 'Hello', x: 20, y: 20, w: 50, h: 16 };
  const world: WordSpec = { text: 'World', x: 600, y: 500, w: 50, h: 16 };
  const status: WordSpec = { text: 'Status', x: 300, y: 250, w: 60, h: 16 };
  const statusBox: BBox = { x: 300, y: 250, width: 60, height: 16 };
  let screen: FakeScreen;
  let ocr: FakeOcr;
  let reader: ScreenReader;

  beforeEach(() => {
    screen = new FakeScreen(800, 600);
    ocr = new FakeOcr(ocrWords([hello, world, status]));
    reader = new ScreenReader(screen, ocr);
  });

  const texts = (level: 'word' | 'line', analysis: { elements: Array<{ text: string; level: string }> }): string[] =>
    analysis.elements.filter((e) => e.level === level).map((e) => e.text);

  it('reads the whole screen first', async () => {
    const reading = await reader.read();
    assert.equal(reading.ocr, 'full');
    assert.equal(ocr.calls, 1);
    assert.deepEqual([ocr.images[0]?.width, ocr.images[0]?.height], [800, 600]);
    assert.deepEqual(texts('word', reading.analysis).sort(), ['Hello', 'Status', 'World']);
  });

  it('serves an unchanged screen from the cache without OCR', async () => {
    const first = await reader.read();
    const second = await reader.read();
    assert.equal(second.ocr, 'cached');
    assert.equal(ocr.calls, 1);
    assert.deepEqual(second.analysis, first.analysis);
  });

  it('re-reads only the changed region after a small change, keeping the rest', async () => {
    await reader.read();
    screen.paint(statusBox);
    ocr.analysis = ocrWords([hello, world, { ...status, text: 'Ready' }]);
    const reading = await reader.read();
    assert.equal(reading.ocr, 'partial');
    assert.equal(ocr.calls, 2);
    const image = ocr.images[1]!;
    // The re-read image is a crop around the change (changed block plus a margin).
    assert.ok(image.width < 800 / 2 && image.height < 600 / 2, `${image.width}x${image.height}`);
    assert.ok(image.origin.x <= 300 && image.origin.x >= 300 - 16 - 24, `origin x ${image.origin.x}`);
    assert.ok(image.origin.y <= 250 && image.origin.y >= 250 - 24, `origin y ${image.origin.y}`);
    assert.ok(image.origin.x + image.width >= 360 && image.origin.y + image.height >= 266);
    assert.deepEqual(texts('word', reading.analysis), ['Hello', 'Ready', 'World']);
    assert.deepEqual(texts('line', reading.analysis), ['Hello', 'Ready', 'World']);
    assert.equal(reading.analysis.fullText, 'Hello\nReady\nWorld');
  });

  it('a cached reading after a partial one stays merged', async () => {
    await reader.read();
    screen.paint(statusBox);
    ocr.analysis = ocrWords([hello, world, { ...status, text: 'Ready' }]);
    await reader.read();
    const again = await reader.read();
    assert.equal(again.ocr, 'cached');
    assert.deepEqual(texts('word', again.analysis), ['Hello', 'Ready', 'World']);
  });

  it('reads two changes far apart as two small crops, not the band between them', async () => {
    const top: WordSpec = { text: 'Top', x: 20, y: 60, w: 40, h: 16 };
    const bottom: WordSpec = { text: 'Line', x: 620, y: 560, w: 40, h: 16 };
    ocr.analysis = ocrWords([hello, world, status, top, bottom]);
    await reader.read();
    screen.paint({ x: 20, y: 60, width: 40, height: 16 });
    screen.paint({ x: 620, y: 560, width: 40, height: 16 });
    ocr.analysis = ocrWords([hello, world, status, { ...top, text: 'Tip' }, { ...bottom, text: 'Lane' }]);
    const reading = await reader.read();
    assert.equal(reading.ocr, 'partial');
    assert.equal(ocr.calls, 3, 'one OCR call per changed patch');
    for (const image of ocr.images.slice(1)) assert.ok(image.width * image.height < 200 * 100, `a crop of ${image.width}x${image.height}`);
    assert.deepEqual(texts('word', reading.analysis).sort(), ['Hello', 'Lane', 'Status', 'Tip', 'World']);
  });

  it('latestSeen is the newest reading of a window or of the screen, a new object each time, its image where it was read', async () => {
    assert.equal(reader.latestSeen(), undefined);
    const window = { id: '0x1', title: 'Editor', appName: 'editor', bounds: { x: 280, y: 230, width: 120, height: 60 } };
    await reader.readWindow(window);
    const seen = reader.latestSeen();
    assert.ok(seen);
    assert.deepEqual([seen.image.origin, seen.image.width, seen.image.height], [{ x: 280, y: 230 }, 120, 60]);
    await reader.readWindow(window); // unchanged: served from the cache, seen again all the same
    assert.notEqual(reader.latestSeen(), seen);
    assert.equal(ocr.calls, 1);
    await reader.read();
    assert.equal(reader.latestSeen(), reader.latest(), 'a full reading is the newest seen');
  });

  it('re-reads the whole screen after a big change', async () => {
    await reader.read();
    screen.paint({ x: 0, y: 0, width: 700, height: 500 });
    ocr.analysis = ocrWords([{ text: 'Dialog', x: 100, y: 100, w: 60, h: 16 }, world]);
    const reading = await reader.read();
    assert.equal(reading.ocr, 'full');
    assert.deepEqual([ocr.images[1]?.width, ocr.images[1]?.height, ocr.images[1]?.origin], [800, 600, { x: 0, y: 0 }]);
    assert.deepEqual(texts('word', reading.analysis), ['Dialog', 'World'], 'nothing of the old reading survives');
  });

  it('a region read grabs and reads only that region and leaves the cache alone', async () => {
    await reader.read();
    const region = { x: 290, y: 240, width: 100, height: 40 };
    const reading = await reader.read({ region });
    assert.equal(reading.ocr, 'full');
    assert.deepEqual(screen.grabs.at(-1), region);
    assert.deepEqual(ocr.images[1]?.origin, { x: 290, y: 240 });
    assert.deepEqual(texts('word', reading.analysis), ['Status']);
    assert.equal((await reader.read()).ocr, 'cached');
  });

  it('reset forgets the cached reading', async () => {
    await reader.read();
    reader.reset();
    assert.equal((await reader.read()).ocr, 'full');
    assert.equal(ocr.calls, 2);
  });

  it('a window that changes its whole look with the focus and back is read from the cache the second time round', async () => {
    const window = { id: '0x2', title: 'Calculator', appName: 'calc', bounds: { x: 100, y: 100, width: 300, height: 200 } };
    const focused = screen.frame;
    assert.equal((await reader.readWindow(window)).ocr, 'full');
    screen.paint({ x: 100, y: 100, width: 300, height: 200 }, [230, 230, 230, 255]); // GTK's backdrop: every label greyed
    assert.equal((await reader.readWindow(window)).ocr, 'full');
    screen.setFrame(focused);
    assert.equal((await reader.readWindow(window)).ocr, 'cached', 'the focused look was kept beside the backdrop one');
    screen.paint({ x: 100, y: 100, width: 300, height: 200 }, [230, 230, 230, 255]);
    assert.equal((await reader.readWindow(window)).ocr, 'cached', 'and the backdrop look beside the focused one');
    assert.equal(ocr.calls, 2);
  });

  it('what another window shows over a window is painted over: its changes are no reason to read the window again, nor its text this window\'s', async () => {
    const window = { id: '0x3', title: 'Writer', appName: 'writer', bounds: { x: 0, y: 0, width: 800, height: 600 } };
    const over = { x: 560, y: 0, width: 240, height: 600 }; // a browser's edge over the right of it
    ocr.analysis = ocrWords([hello, status]);
    await reader.readWindow(window, { covered: [over] });
    const [first] = ocr.images;
    assert.deepEqual(pixel(first!, 600, 300), [128, 128, 128, 255], 'the covered part reaches OCR painted flat');
    screen.paint({ x: 580, y: 0, width: 200, height: 600 }); // the other window redraws, or goes below and comes back
    assert.equal((await reader.readWindow(window, { covered: [over] })).ocr, 'cached');
    assert.notEqual((await reader.readWindow(window)).ocr, 'cached', 'uncovered, the change there is read');
    assert.equal(ocr.calls, 2);
  });

  it('a partial re-read keeps the unchanged words of a partly changed line in the line text', async () => {
    const line = (time: string): WordSpec[] => [
      { text: 'File', x: 100, y: 300, w: 40, h: 16 },
      { text: 'saved', x: 146, y: 300, w: 50, h: 16 },
      { text: 'at', x: 202, y: 300, w: 20, h: 16 },
      { text: time, x: 228, y: 300, w: 50, h: 16 },
    ];
    ocr.analysis = ocrWords([hello, ...line('10:32')]);
    await reader.read();
    screen.paint({ x: 228, y: 300, width: 50, height: 16 });
    ocr.analysis = ocrWords([hello, ...line('10:33')]);
    const reading = await reader.read();
    assert.equal(reading.ocr, 'partial');
    assert.match(reading.analysis.fullText, /File saved at 10:33/);
  });
});
