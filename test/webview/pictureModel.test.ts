// The screen picture's geometry, without a DOM: boxes and points in picture pixels, clipped to the
// picture, and markers sized relative to the picture.
import { strict as assert } from 'node:assert';
import type { ScreenPicture } from '../../src/shared/protocol';
import { buildPictureModel, markerRadius, MAX_BOXES, outlineGap } from '../../src/webview/render/pictureModel';

const SRC = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==';

function picture(overrides: Partial<ScreenPicture> = {}): ScreenPicture {
  return {
    src: SRC,
    width: 1280,
    height: 800,
    boxes: [
      { x: 10, y: 20, width: 100, height: 18, text: 'File' },
      { x: 200, y: 20, width: 80, height: 18, text: 'Edit' },
      { x: 400, y: 300, width: 120, height: 30, text: 'Save' },
    ],
    points: [
      { x: 460, y: 315, label: 'Save', kind: 'click' },
      { x: 50, y: 29, label: 'File (1)', kind: 'candidate' },
      { x: 240, y: 29, label: 'Edit (2)', kind: 'candidate' },
    ],
    ...overrides,
  };
}

describe('webview screen picture model', () => {
  it('keeps every box and point, in picture pixels, with a matching viewBox', () => {
    const model = buildPictureModel(picture());
    assert.ok(model);
    assert.equal(model.viewBox, '0 0 1280 800');
    assert.equal(model.src, SRC);
    assert.equal(model.boxes.length, 3);
    assert.deepEqual(model.boxes[2], { x: 400, y: 300, width: 120, height: 30, text: 'Save', target: false, outline: { x: 396.8, y: 296.8, width: 126.4, height: 36.4 } });
    assert.equal(model.points.length, 3);
    assert.deepEqual(
      model.points.map((p) => [p.kind, p.cx, p.cy, p.number]),
      [
        ['click', 460, 315, 0],
        ['candidate', 50, 29, 1],
        ['candidate', 240, 29, 2],
      ],
    );
    assert.equal(model.omitted, 0);
    assert.equal(model.description, 'Screenshot 1280×800, 3 text boxes, 1 click, 2 candidates');
  });

  it('sizes markers relative to the picture, so they look alike at any screenshot size', () => {
    const big = buildPictureModel(picture());
    const small = buildPictureModel(picture({ width: 320, height: 200, boxes: [], points: [{ x: 10, y: 10, label: 'a', kind: 'click' }] }));
    assert.ok(big && small);
    assert.equal(big.points[0]?.r, 16); // 1280 / 80
    assert.equal(small.points[0]?.r, 4); // 320 / 80
    // Same fraction of the picture width, so the same size on screen when both fill a column.
    assert.equal((big.points[0]?.r ?? 0) / big.width, (small.points[0]?.r ?? 0) / small.width);
    assert.equal(markerRadius(100, 50), 3); // never smaller than 3 px
    assert.equal(markerRadius(600, 1600), 20); // the longer side counts
  });

  it('places candidate numbers inside the picture', () => {
    const model = buildPictureModel(picture({ width: 320, height: 200, boxes: [], points: [
      { x: 100, y: 100, label: 'middle', kind: 'candidate' },
      { x: 10, y: 2, label: 'top edge', kind: 'candidate' },
      { x: 319, y: 100, label: 'right edge', kind: 'candidate' },
    ] }));
    assert.ok(model);
    const [middle, top, right] = model.points;
    assert.ok(middle && top && right);
    assert.ok(middle.labelY < middle.cy, 'above the marker when there is room');
    assert.ok(top.labelY > top.cy && top.labelY - top.badgeR >= 0, 'below the marker at the top edge');
    for (const point of model.points) {
      assert.ok(point.labelX - point.badgeR >= 0 && point.labelX + point.badgeR <= model.width, `${point.label}: x ${point.labelX}`);
      assert.ok(point.labelY - point.badgeR >= 0 && point.labelY + point.badgeR <= model.height, `${point.label}: y ${point.labelY}`);
      // The badge sits beside the ring, not on the candidate's centre (the text under it stays visible).
      assert.ok(Math.hypot(point.labelX - point.cx, point.labelY - point.cy) >= point.r, `${point.label}: badge off the centre`);
    }
  });

  it('clips boxes and points to the picture and drops invalid ones', () => {
    const model = buildPictureModel(
      picture({
        width: 100,
        height: 50,
        boxes: [
          { x: -10, y: 40, width: 30, height: 30, text: 'clipped' },
          { x: 200, y: 10, width: 10, height: 10, text: 'outside' },
          { x: 10, y: 10, width: 0, height: 10, text: 'empty' },
          { x: Number.NaN, y: 0, width: 5, height: 5, text: 'nan' },
        ],
        points: [
          { x: 150, y: -5, label: 'far', kind: 'click' },
          { x: Number.POSITIVE_INFINITY, y: 1, label: 'inf', kind: 'candidate' },
        ],
      }),
    );
    assert.ok(model);
    assert.deepEqual(model.boxes, [{ x: 0, y: 40, width: 20, height: 10, text: 'clipped', target: false, outline: { x: -2, y: 38, width: 24, height: 14 } }]);
    assert.deepEqual(
      model.points.map((p) => [p.cx, p.cy]),
      [[100, 0]],
    );
    assert.equal(model.omitted, 4);
  });

  it('draws OCR outlines outside their text boxes, with a gap wider than half the stroke at thumbnail and full size', () => {
    const model = buildPictureModel(picture());
    assert.ok(model);
    const gap = outlineGap(model.width, model.height);
    assert.equal(gap, 3.2); // 1280 / 400
    for (const box of model.boxes) {
      const o = box.outline;
      assert.ok(o.x < box.x && o.y < box.y, `${box.text}: outline starts before the box`);
      assert.ok(o.x + o.width > box.x + box.width && o.y + o.height > box.y + box.height, `${box.text}: outline ends after the box`);
      assert.ok(Math.abs(box.x - o.x - gap) < 0.01, `${box.text}: left gap`);
      assert.ok(Math.abs(o.x + o.width - (box.x + box.width) - gap) < 0.01, `${box.text}: right gap`);
    }
    // The stroke is 1 screen pixel (non-scaling): half of it reaches 0.5 px inwards. Shown at
    // 260 px wide (a sidebar thumbnail) and at 100%, that stays off the text.
    for (const shownWidth of [260, 1280]) {
      const screenPxPerPicturePx = shownWidth / model.width;
      assert.ok(gap * screenPxPerPicturePx > 0.5, `gap at ${shownWidth} px`);
    }
    assert.equal(outlineGap(200, 100), 2); // never less than 2 picture pixels
  });

  it('numbers the candidates of an ambiguous click 1, 2, 3 in their order, and only them', () => {
    const model = buildPictureModel(picture({ boxes: [], points: [
      { x: 100, y: 100, label: 'OK', kind: 'candidate' },
      { x: 500, y: 500, label: 'clicked', kind: 'click' },
      { x: 200, y: 100, label: 'OK', kind: 'candidate' },
      { x: 300, y: 100, label: 'OK', kind: 'candidate' },
    ] }));
    assert.ok(model);
    assert.deepEqual(model.points.map((p) => [p.kind, p.number]), [['candidate', 1], ['click', 0], ['candidate', 2], ['candidate', 3]]);
    assert.equal(model.description, 'Screenshot 1280×800, 0 text boxes, 1 click, 3 candidates');
  });

  it('caps the number of boxes', () => {
    const boxes = Array.from({ length: MAX_BOXES + 10 }, (_, i) => ({ x: i % 1000, y: 1, width: 5, height: 5, text: `w${i}` }));
    const model = buildPictureModel(picture({ boxes }));
    assert.equal(model?.boxes.length, MAX_BOXES);
    assert.equal(model?.omitted, 10);
  });

  it('draws no image for a src that is not an inline raster image, and nothing without a size', () => {
    for (const src of ['https://example.com/a.jpg', 'data:image/svg+xml;base64,PHN2Zz4=', 'data:text/html;base64,PHA+', `${SRC}"`, 'javascript:alert(1)']) {
      assert.equal(buildPictureModel(picture({ src }))?.src, undefined, src);
    }
    assert.equal(buildPictureModel(picture({ width: 0 })), undefined);
    assert.equal(buildPictureModel(picture({ height: Number.NaN })), undefined);
  });
});
