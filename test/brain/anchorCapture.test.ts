// The anchors of one click read from an in-memory screen: the landmarks that place an unnamed
// field (mousepad's "Replace with" entry) must survive a theme or a font size, so they keep only
// the words of a line and prefer the field's own label.
import * as assert from 'node:assert/strict';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { captureAnchors } from '../../src/navigation/recording/anchorCapture';
import { createFakeDesktop, makeServices, ocrWords } from '../support/fakeDesktop';

const dialog: WindowInfo = { title: 'Find and Replace', appName: 'Mousepad', bounds: { x: 0, y: 0, width: 500, height: 200 }, id: '0x5' };

describe('anchors of a click', () => {
  it("place an unnamed field by its label and the words near it, not by the glyphs read beside them, and mark a click in an open menu", async () => {
    const fake = createFakeDesktop({
      width: 800,
      height: 600,
      analysis: ocrWords([
        { text: 'Replace', x: 20, y: 60, w: 52, h: 14 },
        { text: 'with:', x: 76, y: 60, w: 34, h: 14 },
        // A check box's box read as "4", a combo's arrow as "w": nearer than the label.
        { text: '4', x: 150, y: 100, w: 8, h: 14 },
        { text: 'Wrap', x: 162, y: 100, w: 34, h: 14 },
        { text: 'around', x: 200, y: 100, w: 50, h: 14 },
        { text: 'Down', x: 300, y: 30, w: 40, h: 14 },
        { text: 'w', x: 346, y: 30, w: 10, h: 14 },
      ]),
    });
    const services = makeServices(fake);
    const frame = await fake.screen.grab();
    const point = { x: 240, y: 67 };
    const anchors = await captureAnchors({ services, snapshot: { frame, elements: [], windows: [dialog], takenAt: 0 }, point, crop: false });
    assert.deepEqual(
      anchors.landmarks.map((l) => [l.text, l.dx, l.dy, l.width]),
      [
        ['Replace with:', 175, 0, 90],
        ['Wrap around', 34, -40, 88],
      ],
    );
    assert.deepEqual(anchors.window, { app: 'Mousepad', title: 'Find and Replace' });

    const menu: WindowInfo = { title: '', appName: 'Mousepad', type: 'popup_menu', bounds: { x: 200, y: 50, width: 150, height: 100 }, id: '0x9' };
    const inMenu = await captureAnchors({ services, snapshot: { frame, elements: [], windows: [menu, dialog], takenAt: 0 }, point, crop: false });
    assert.equal(inMenu.window?.popup, true);
  });
});
