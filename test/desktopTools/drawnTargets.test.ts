import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import type { TargetResult } from '../../src/desktop/grounding/locateTypes';
import { popupCovers, underPopup } from '../../src/desktop/grounding/windowScene';
import { compileWindowTitles } from '../../src/desktop/reading/privateWindows';
import { createFakeDesktop, ocrWords, type WordSpec } from '../support/fakeDesktop';

// A tree element is a click target only where it is drawn (issue 19): not under an open menu
// that is part of the same window's tree (Qt), and a toolbar icon named like a drawn label
// (its tooltip) loses to that label; a calculator's key beats the same sign in its history.

const MAIN: WindowInfo = { id: '0x1', title: 'Untitled', appName: 'featherpad', pid: 10, bounds: { x: 0, y: 0, width: 800, height: 600 }, type: 'normal' };
/** An open menu drawn over the toolbar, as Qt exposes it: inside the main window's tree. */
const MENU_BOX: BBox = { x: 6, y: 22, width: 300, height: 200 };

class OneWindow implements WindowPort {
  async activeWindow(): Promise<WindowInfo | undefined> {
    return MAIN;
  }
  async listWindows(): Promise<WindowInfo[]> {
    return [MAIN];
  }
}

class FixedTree implements AccessibilityPort {
  readonly name = 'fixed-tree';
  constructor(private readonly all: AccessibleElement[]) {}
  async available(): Promise<boolean> {
    return true;
  }
  async elements(): Promise<AccessibleElement[]> {
    return this.all;
  }
}

function el(name: string, bbox: BBox, role: string, popups?: BBox[]): AccessibleElement {
  return { name, role, bbox, states: ['enabled', 'showing'], window: { name: MAIN.title, role: 'frame', active: true }, pid: MAIN.pid, app: MAIN.appName, ...(popups ? { popups } : {}) };
}

function locator(tree: AccessibleElement[], words: WordSpec[] = [], privateTitles: string[] = []) {
  const fake = createFakeDesktop({ analysis: ocrWords(words) });
  (fake as { windows: unknown }).windows = new OneWindow();
  fake.accessibility = new FixedTree(tree);
  // Something is drawn in every box (an icon or a label), so no box counts as blank.
  for (const e of tree) fake.screen.paint({ x: e.bbox.x + 4, y: e.bbox.y + 4, width: 6, height: 4 });
  return createDesktopServices(fake, { privateWindowTitles: compileWindowTitles(privateTitles, 'test') }).locator;
}

function foundAt(result: TargetResult): { x: number; y: number } {
  assert.equal(result.status, 'found', JSON.stringify(result));
  return (result as Extract<TargetResult, { status: 'found' }>).point;
}

const TOOLBAR_NEW = el('New', { x: 10, y: 30, width: 32, height: 32 }, 'push button');
const TOOLBAR_FIND = el('Find', { x: 200, y: 30, width: 32, height: 32 }, 'push button');
const MENU_NEW = el('New', { x: 6, y: 70, width: 300, height: 25 }, 'menu item', [MENU_BOX]);

describe('drawn targets: open menus and icon-only buttons', () => {
  it('an element under an open popup it is not in is covered; the popup’s own items are not', () => {
    const covers = popupCovers([TOOLBAR_NEW, MENU_NEW]);
    assert.deepEqual(covers, [MENU_BOX]);
    assert.equal(underPopup(TOOLBAR_NEW, covers), true);
    assert.equal(underPopup(MENU_NEW, covers), false);
    assert.equal(underPopup(el('Help', { x: 400, y: 0, width: 40, height: 20 }, 'menu item'), covers), false);
    // A managed window whose toolkit calls it a popup is placed by the stacking order, not here.
    assert.deepEqual(popupCovers([MENU_NEW], [{ ...MAIN, bounds: MENU_BOX }]), []);
  });

  it('a menu item beats the toolbar icon of the same name that the open menu covers (Qt: both in one window)', async () => {
    const point = foundAt(await locator([TOOLBAR_NEW, MENU_NEW]).locate('New'));
    assert.deepEqual(point, { x: 156, y: 83 });
  });

  it('never answers from the tree for a button hidden under an open menu', async () => {
    const result = await locator([TOOLBAR_FIND, MENU_NEW]).locate('Find');
    assert.notEqual(result.status, 'found', JSON.stringify(result));
  });

  it('an open menu inside a private window’s tree is not read either', async () => {
    const result = await locator([TOOLBAR_NEW, MENU_NEW], [], ['Untitled']).locate('New');
    assert.notEqual(result.status, 'found', JSON.stringify(result));
  });

  it('an icon-only button (no text read in its box) loses to a label whose name is drawn', async () => {
    const label = el('Find', { x: 400, y: 300, width: 60, height: 20 }, 'label');
    const point = foundAt(await locator([TOOLBAR_FIND, label], [{ text: 'Find', x: 405, y: 303, w: 40, h: 14 }]).locate('Find'));
    assert.deepEqual(point, { x: 430, y: 310 });
  });

  it('two buttons that both draw their name stay ambiguous; a lone icon is still clicked by its tooltip name', async () => {
    const other = el('Find', { x: 400, y: 300, width: 60, height: 24 }, 'push button');
    const both = await locator([el('Find', { x: 200, y: 30, width: 60, height: 24 }, 'push button'), other], [
      { text: 'Find', x: 205, y: 33, w: 40, h: 14 },
      { text: 'Find', x: 405, y: 303, w: 40, h: 14 },
    ]).locate('Find');
    assert.equal(both.status, 'ambiguous', JSON.stringify(both));
    assert.deepEqual(foundAt(await locator([TOOLBAR_FIND]).locate('Find')), { x: 216, y: 46 });
  });

  it('a key named in digits or signs beats the same text its history shows; two keys, or a word, stay ambiguous', async () => {
    const key = el('=', { x: 600, y: 500, width: 100, height: 80 }, 'push button');
    const history = el('=', { x: 400, y: 200, width: 60, height: 20 }, 'label');
    assert.deepEqual(foundAt(await locator([history, key]).locate('=')), { x: 650, y: 540 });
    const twoKeys = await locator([history, key, el('=', { x: 100, y: 500, width: 100, height: 80 }, 'push button')]).locate('=');
    assert.equal(twoKeys.status, 'ambiguous', JSON.stringify(twoKeys));
    // "Total" the button and "Total" a heading: a word may be a tooltip-only icon's name, so no preference here.
    const words = await locator([el('Total', { x: 600, y: 500, width: 100, height: 30 }, 'push button'), el('Total', { x: 400, y: 200, width: 60, height: 20 }, 'heading')], [
      { text: 'Total', x: 610, y: 505, w: 40, h: 14 },
      { text: 'Total', x: 405, y: 203, w: 40, h: 14 },
    ]).locate('Total');
    assert.equal(words.status, 'ambiguous', JSON.stringify(words));
  });
});
