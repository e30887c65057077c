// The picture panel's zoom and pan as numbers: fit, zoom about a point, pan, kept in view.
import { strict as assert } from 'node:assert';
import { actualSize, fitViewport, MAX_SCALE, panBy, viewBoxOf, zoomAt } from '../../src/webview/picture/viewport';

const PICTURE = { width: 1920, height: 1080 };
const STAGE = { width: 960, height: 720 };

describe('picture panel viewport', () => {
  it('fits the whole picture, centred along the axis with room to spare', () => {
    const view = fitViewport(PICTURE, STAGE);
    assert.equal(view.scale, 0.5);
    assert.equal(view.x, 0);
    // 720 stage px show 1440 picture px: the 1080-px picture is centred (180 px above and below).
    assert.equal(view.y, -180);
    assert.equal(viewBoxOf(view, STAGE), '0 -180 1920 1440');
  });

  it('zooms about the pointer: the picture pixel under it stays under it', () => {
    const fit = fitViewport(PICTURE, STAGE);
    const px = 300;
    const py = 200;
    const under = { x: fit.x + px / fit.scale, y: fit.y + py / fit.scale };
    const zoomed = zoomAt(fit, 2, px, py, PICTURE, STAGE);
    assert.equal(zoomed.scale, 1);
    assert.ok(Math.abs(zoomed.x + px / zoomed.scale - under.x) < 1e-9);
    assert.ok(Math.abs(zoomed.y + py / zoomed.scale - under.y) < 1e-9);
    assert.equal(zoomAt(fit, 1e6, 0, 0, PICTURE, STAGE).scale, MAX_SCALE);
  });

  it('pans by a drag and keeps the picture in view', () => {
    const view = actualSize(fitViewport(PICTURE, STAGE), PICTURE, STAGE);
    assert.equal(view.scale, 1);
    const moved = panBy(view, -100, -50, PICTURE, STAGE);
    assert.deepEqual([moved.x - view.x, moved.y - view.y], [100, 50]);
    // Dragged far right and down: stops at the picture's top-left corner.
    assert.deepEqual(panBy(view, 10_000, 10_000, PICTURE, STAGE), { scale: 1, x: 0, y: 0 });
    // Dragged far left and up: stops at its bottom-right corner.
    assert.deepEqual(panBy(view, -10_000, -10_000, PICTURE, STAGE), { scale: 1, x: 960, y: 360 });
  });
});
