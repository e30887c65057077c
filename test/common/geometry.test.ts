import { strict as assert } from 'node:assert';
import {
  boxArea,
  boxGap,
  centreInside,
  centreOf,
  centreY,
  clampBox,
  clampPoint,
  clipBox,
  containsBox,
  containsPoint,
  containsPointInclusive,
  distance,
  exactCentreOf,
  imageBounds,
  intersectionArea,
  intersects,
  offsetBox,
  overlapRatio,
  padBox,
  sameBox,
  union,
} from '../../src/common/geometry';

// The edges are what a misclick turns on: each helper's edge semantics pinned here.

const box = { x: 10, y: 20, width: 30, height: 10 };

describe('geometry', () => {
  it('containsPoint is the pixel grid: left and top edges in, right and bottom edges out', () => {
    assert.equal(containsPoint(box, { x: 10, y: 20 }), true);
    assert.equal(containsPoint(box, { x: 39, y: 29 }), true);
    assert.equal(containsPoint(box, { x: 40, y: 25 }), false, 'x + width is the next box');
    assert.equal(containsPoint(box, { x: 20, y: 30 }), false, 'y + height is the next box');
    assert.equal(containsPoint(box, { x: 9.5, y: 25 }), false);
    // Two windows side by side: the shared edge pixel belongs to exactly one.
    const right = { x: 40, y: 20, width: 30, height: 10 };
    const edge = { x: 40, y: 25 };
    assert.equal([box, right].filter((b) => containsPoint(b, edge)).length, 1);
  });

  it('containsPointInclusive takes all four edges', () => {
    assert.equal(containsPointInclusive(box, { x: 40, y: 30 }), true);
    assert.equal(containsPointInclusive(box, { x: 10, y: 20 }), true);
    assert.equal(containsPointInclusive(box, { x: 40.5, y: 25 }), false);
    assert.equal(containsPointInclusive(box, { x: 25, y: 19.9 }), false);
  });

  it('centreOf rounds to the pixel a click lands on; exactCentreOf keeps the halves', () => {
    const odd = { x: 0, y: 0, width: 5, height: 3 };
    assert.deepEqual(centreOf(odd), { x: 3, y: 2 }, 'Math.round: 2.5 → 3, 1.5 → 2');
    assert.deepEqual(exactCentreOf(odd), { x: 2.5, y: 1.5 });
    assert.equal(centreY(odd), 1.5);
    assert.deepEqual(centreOf({ x: -5, y: -3, width: 5, height: 3 }), { x: -2, y: -1 }, 'Math.round: -2.5 → -2');
  });

  it('centreInside uses the exact centre and includes the edges', () => {
    // The word's exact centre (40, 25) is on the line's right edge: inside.
    assert.equal(centreInside({ x: 39, y: 24, width: 2, height: 2 }, box), true);
    // Its centre (40.5, 25) is half a pixel past the edge; rounding would have put it at 41 or on the edge.
    assert.equal(centreInside({ x: 40, y: 24, width: 1, height: 2 }, box), false);
  });

  it('containsBox includes touching edges and allows a slack past them', () => {
    assert.equal(containsBox(box, box), true);
    assert.equal(containsBox(box, { x: 10, y: 20, width: 31, height: 10 }), false);
    assert.equal(containsBox(box, { x: 8, y: 18, width: 34, height: 14 }, 2), true);
    assert.equal(containsBox(box, { x: 7, y: 18, width: 34, height: 14 }, 2), false);
  });

  it('intersects and intersectionArea: boxes that only touch share nothing', () => {
    const touching = { x: 40, y: 20, width: 10, height: 10 };
    assert.equal(intersects(box, touching), false);
    assert.equal(intersectionArea(box, touching), 0);
    const crossing = { x: 35, y: 25, width: 10, height: 10 };
    assert.equal(intersects(box, crossing), true);
    assert.equal(intersectionArea(box, crossing), 25);
    assert.equal(intersectionArea(box, { x: 100, y: 100, width: 5, height: 5 }), 0, 'apart: 0, never a negative product');
    assert.equal(intersectionArea({ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 20, width: 10, height: 10 }), 0, 'both spans negative: still 0');
  });

  it('overlapRatio is the shared area over the smaller box', () => {
    assert.equal(overlapRatio(box, { x: 15, y: 22, width: 5, height: 5 }), 1, 'a box inside another');
    assert.equal(overlapRatio(box, { x: 35, y: 20, width: 10, height: 10 }), 0.5);
    assert.equal(overlapRatio(box, { x: 40, y: 20, width: 10, height: 10 }), 0);
  });

  it('union holds every box; sameBox compares all four numbers', () => {
    assert.deepEqual(union([box, { x: 0, y: 25, width: 5, height: 20 }]), { x: 0, y: 20, width: 40, height: 25 });
    assert.deepEqual(union([box]), box);
    assert.equal(sameBox(box, { ...box }), true);
    assert.equal(sameBox(box, { ...box, height: 11 }), false);
    assert.equal(boxArea(box), 300);
  });

  it('distance between points, boxGap between box edges (0 when touching)', () => {
    assert.equal(distance({ x: 0, y: 0 }, { x: 3, y: 4 }), 5);
    assert.equal(boxGap(box, { x: 40, y: 20, width: 5, height: 5 }), 0);
    assert.equal(boxGap(box, { x: 43, y: 34, width: 5, height: 5 }), 5, 'diagonal: 3 across, 4 down');
    assert.equal(boxGap(box, { x: 12, y: 22, width: 2, height: 2 }), 0);
  });

  it('padBox grows every side, and with a limit stops at its edges without rounding', () => {
    assert.deepEqual(padBox(box, 2), { x: 8, y: 18, width: 34, height: 14 });
    assert.deepEqual(padBox(box, 8, { x: 5, y: 0, width: 40, height: 100 }), { x: 5, y: 12, width: 40, height: 26 });
    assert.deepEqual(padBox({ x: 1.5, y: 1.5, width: 1, height: 1 }, 0.25, { x: 0, y: 0, width: 10, height: 10 }), { x: 1.25, y: 1.25, width: 1.5, height: 1.5 });
    assert.deepEqual(offsetBox(box, -10, 5), { x: 0, y: 25, width: 30, height: 10 });
  });

  it('clipBox grows to whole pixels outward, cuts to the limit, and is undefined when nothing is left', () => {
    const screen = { x: 0, y: 0, width: 100, height: 50 };
    assert.deepEqual(clipBox({ x: 10.6, y: 5.2, width: 4.8, height: 3 }, screen), { x: 10, y: 5, width: 6, height: 4 }, 'floor the start, ceil the end');
    assert.deepEqual(clipBox({ x: -20, y: 40, width: 50, height: 30 }, screen), { x: 0, y: 40, width: 30, height: 10 });
    assert.equal(clipBox({ x: 100, y: 0, width: 10, height: 10 }, screen), undefined, 'starting at the right edge: nothing on screen');
    assert.equal(clipBox({ x: 10, y: 10, width: 0, height: 5 }, screen), undefined, 'empty');
  });

  it('clampBox never gives up: a box outside comes back empty at the nearest edge', () => {
    const limit = { x: 0, y: 0, width: 100, height: 50 };
    assert.deepEqual(clampBox({ x: 10.6, y: 5.2, width: 4.8, height: 3 }, limit), { x: 10, y: 5, width: 6, height: 4 });
    assert.deepEqual(clampBox({ x: 120, y: -30, width: 10, height: 10 }, limit), { x: 100, y: 0, width: 0, height: 0 });
  });

  it('clampPoint keeps a point on the box: its last pixel is x + width - 1', () => {
    const screen = { x: 0, y: 0, width: 1920, height: 1080 };
    assert.deepEqual(clampPoint({ x: 1920, y: 1080 }, screen), { x: 1919, y: 1079 });
    assert.deepEqual(clampPoint({ x: -4, y: 500 }, screen), { x: 0, y: 500 });
    assert.ok(containsPoint(screen, clampPoint({ x: 5000, y: -1 }, screen)));
  });

  it('imageBounds is the screen area of an image at its origin', () => {
    assert.deepEqual(imageBounds({ origin: { x: 7, y: 9 }, width: 3, height: 4 }), { x: 7, y: 9, width: 3, height: 4 });
  });
});
