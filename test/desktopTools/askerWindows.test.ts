import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BBox } from '../../src/common/geometry';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import { isAskerWindow, type Asker } from '../../src/desktop/grounding/askerWindows';
import type { TargetResult } from '../../src/desktop/grounding/locateTypes';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { askedFrom } from '../../src/platform/linux/askedFrom';
import { ancestorPids } from '../../src/platform/linux/procScan';
import { createFakeDesktop, ocrWords, type WordSpec } from '../support/fakeDesktop';
import { StackedWindows, WindowTree } from '../support/fakeTrees';

// The window GAI was asked from (the terminal where `gai click Save` was typed, VS Code with the
// chat) shows the request's own words: click by text looks past it, even when it is the active
// window, and says so when the label is nowhere else. Real terminal: askerWindow desktop test.

const TERMINAL: WindowInfo = { id: '0x400003', title: 'bash — ~/work', appName: 'xterm', pid: 77, bounds: { x: 900, y: 500, width: 700, height: 400 }, type: 'normal' };
const EDITOR: WindowInfo = { id: '0x1', title: 'notes.txt', appName: 'editor', pid: 10, bounds: { x: 0, y: 0, width: 800, height: 600 }, type: 'normal' };
const CALC: WindowInfo = { id: '0x2', title: 'Calculator', appName: 'calc', pid: 20, bounds: { x: 1000, y: 0, width: 300, height: 400 }, type: 'normal' };
const ASKER: Asker = { pids: [4000, 77, 30], windowIds: [] };



function el(name: string, bbox: BBox, window: WindowInfo, active: boolean): AccessibleElement {
  return { name, role: 'push button', bbox, states: ['enabled', 'showing'], window: { name: window.title, role: 'frame', active }, pid: window.pid, app: window.appName };
}

/** The request as the person's shell shows it, in the terminal. */
const TYPED = (label: string): WordSpec[] => [
  { text: '$', x: 910, y: 520, w: 8, h: 14 },
  { text: 'gai', x: 924, y: 520, w: 24, h: 14 },
  { text: 'click', x: 954, y: 520, w: 40, h: 14 },
  { text: label, x: 1000, y: 520, w: 10 * label.length, h: 14 },
];

function locator(windows: WindowInfo[], words: WordSpec[], tree: AccessibleElement[], asker: Asker | undefined) {
  const fake = createFakeDesktop({ width: 1920, height: 1080, analysis: ocrWords(words) });
  (fake as { windows: unknown }).windows = new StackedWindows(windows);
  if (tree.length > 0) fake.accessibility = new WindowTree(tree);
  for (const w of words) fake.screen.paint({ x: w.x + 1, y: w.y + 1, width: Math.max(1, w.w - 2), height: Math.max(1, w.h - 2) });
  for (const e of tree) fake.screen.paint({ x: e.bbox.x + 4, y: e.bbox.y + 4, width: 6, height: 4 });
  return { fake, locator: createDesktopServices(fake, asker ? { asker } : {}).locator };
}

function pointOf(result: TargetResult): { x: number; y: number } {
  assert.equal(result.status, 'found', JSON.stringify(result));
  return (result as Extract<TargetResult, { status: 'found' }>).point;
}

describe('the window GAI was asked from', () => {
  it('tells the asker\'s windows by a process above GAI or by the id its terminal names (any base)', () => {
    assert.equal(isAskerWindow(TERMINAL, ASKER), true);
    assert.equal(isAskerWindow(EDITOR, ASKER), false);
    assert.equal(isAskerWindow(EDITOR, undefined), false);
    assert.equal(isAskerWindow({ ...EDITOR, id: '0x400003' }, { pids: [], windowIds: ['4194307'] }), true);
    assert.equal(isAskerWindow({ ...EDITOR, id: '0x400004' }, { pids: [], windowIds: ['4194307'] }), false);
  });

  it('a label typed in the active terminal is clicked in the window behind, not on the command line', async () => {
    const save = el('Save', { x: 40, y: 40, width: 60, height: 30 }, EDITOR, false);
    const words = [...TYPED('Save'), { text: 'Save', x: 50, y: 48, w: 36, h: 14 }];
    const before = locator([TERMINAL, EDITOR], words, [save], undefined);
    assert.deepEqual(pointOf(await before.locator.locate('Save')), { x: 1020, y: 527 }, 'without knowing the asker, the echo in the terminal wins');
    const now = locator([TERMINAL, EDITOR], words, [save], ASKER);
    assert.deepEqual(pointOf(await now.locator.locate('Save')), { x: 70, y: 55 });
    assert.deepEqual(now.locator.lastTrace?.steps, ['tree-all'], 'neither the terminal\'s tree nor its pixels were read');
    assert.equal(now.fake.ocr.calls, 0);
  });

  it('a key of one character in a window without a tree is clicked from its pixels while the terminal is active', async () => {
    const words = [...TYPED('7'), { text: '7', x: 1050, y: 100, w: 10, h: 14 }];
    const { locator: asked } = locator([TERMINAL, CALC], words, [], ASKER);
    assert.deepEqual(pointOf(await asked.locate('7')), { x: 1055, y: 107 });
  });

  it('a label the terminal alone shows is not found, and the answer says the terminal was not searched', async () => {
    const { locator: asked } = locator([TERMINAL, EDITOR], TYPED('Deploy'), [], ASKER);
    const result = await asked.locate('Deploy');
    assert.equal(result.status, 'not_found', JSON.stringify(result));
    assert.match((result as { reason?: string }).reason ?? '', /"bash — ~\/work", where GAI was asked from, is not searched: it shows the request itself/);
  });

  it('the terminal\'s own controls are not targets either, when another window is active', async () => {
    const tree = [el('Close', { x: 1500, y: 510, width: 40, height: 20 }, TERMINAL, false), el('Close', { x: 600, y: 500, width: 60, height: 30 }, EDITOR, true)];
    const { locator: asked } = locator([EDITOR, TERMINAL], [], tree, ASKER);
    assert.deepEqual(pointOf(await asked.locate('Close')), { x: 630, y: 515 });
  });
});

describe('ancestorPids (/proc)', () => {
  it('climbs the parents to init, reading the parent past a command name with spaces and parentheses', () => {
    const root = mkdtempSync(join(tmpdir(), 'gai-proc-'));
    try {
      const stat = (pid: number, name: string, ppid: number): void => {
        mkdirSync(join(root, String(pid)));
        writeFileSync(join(root, String(pid), 'stat'), `${pid} (${name}) S ${ppid} ${pid} ${pid} 0 -1 4194304\n`);
      };
      stat(300, 'node', 200);
      stat(200, 'a (b) c', 100);
      stat(100, 'xterm', 1);
      assert.deepEqual(ancestorPids(300, root), [200, 100]);
      assert.deepEqual(ancestorPids(999, root), []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('this process\'s parent is among its ancestors; a terminal\'s WINDOWID counts only on the display it names', function () {
    if (process.platform !== 'linux') this.skip();
    assert.equal(ancestorPids()[0], process.ppid);
    const terminal = { DISPLAY: ':0', WINDOWID: '4194307' };
    assert.deepEqual(askedFrom(terminal).windowIds, ['4194307']);
    assert.deepEqual(askedFrom(terminal, { DISPLAY: ':0' }).windowIds, ['4194307']);
    assert.deepEqual(askedFrom(terminal, { DISPLAY: ':7' }).windowIds, [], 'a private display of its own (gai demo)');
    assert.equal(askedFrom(terminal).pids[0], process.ppid);
  });
});
