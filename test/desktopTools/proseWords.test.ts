import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { TargetResult } from '../../src/desktop/grounding/locateTypes';
import { isProseWord } from '../../src/desktop/grounding/targetRules';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { createFakeDesktop, ocrWords, type WordSpec } from '../support/fakeDesktop';
import { StackedWindows, WindowTree } from '../support/fakeTrees';

// A word of a sentence is not the control a label names (found with transmission-gtk, whose
// first-run dialog says "Transmission is a file sharing program. When you run a torrent, …"
// over its menu bar): "File" asked while that dialog is active is the menu, not the "file" of
// the sentence. The sentence's word is still clicked when nothing else has the label.

const MAIN: WindowInfo = { id: '0x1', title: 'Transmission', appName: 'transmission-gtk', pid: 10, bounds: { x: 0, y: 0, width: 1000, height: 700 }, type: 'normal' };
const DIALOG: WindowInfo = { id: '0x2', title: '', appName: 'transmission-gtk', pid: 10, bounds: { x: 0, y: 200, width: 540, height: 140 }, type: 'dialog' };



const MENU_FILE: AccessibleElement = { name: 'File', role: 'menu', bbox: { x: 20, y: 40, width: 40, height: 24 }, states: ['enabled', 'showing'], window: { name: 'Transmission', role: 'frame', active: false }, pid: 10, app: 'transmission-gtk' };

/** "Transmission is a file sharing program." on one line of the dialog. */
const SENTENCE: WordSpec[] = ['Transmission', 'is', 'a', 'file', 'sharing', 'program.'].map((text, i, all) => {
  const x = 20 + all.slice(0, i).reduce((sum, w) => sum + 9 * w.length + 6, 0);
  return { text, x, y: 230, w: 9 * text.length, h: 14 };
});

function locate(words: WordSpec[], tree: AccessibleElement[], text: string): Promise<TargetResult> {
  const fake = createFakeDesktop({ width: 1920, height: 1080, analysis: ocrWords(words) });
  (fake as { windows: unknown }).windows = new StackedWindows([DIALOG, MAIN]);
  if (tree.length > 0) fake.accessibility = new WindowTree(tree);
  for (const w of words) fake.screen.paint({ x: w.x + 1, y: w.y + 1, width: Math.max(1, w.w - 2), height: Math.max(1, w.h - 2) });
  for (const e of tree) fake.screen.paint({ x: e.bbox.x + 4, y: e.bbox.y + 4, width: 6, height: 4 });
  return createDesktopServices(fake).locator.locate(text);
}

function found(result: TargetResult): { point: { x: number; y: number }; source: string } {
  assert.equal(result.status, 'found', JSON.stringify(result));
  return result as Extract<TargetResult, { status: 'found' }>;
}

const box = (x: number, y: number): BBox => ({ x, y, width: 30, height: 14 });

describe('a word of prose is not the control a label names', () => {
  it('tells a word inside a longer line, in another case than asked, from a label', () => {
    const at = { bbox: box(0, 0), point: { x: 15, y: 7 }, confidence: 0.95, kind: 'exact' as const, source: 'ocr' as const };
    assert.equal(isProseWord('File', { ...at, text: 'file', whole: false }), true);
    assert.equal(isProseWord('Torrent', { ...at, text: 'torrent,', whole: false }), true);
    assert.equal(isProseWord('File', { ...at, text: 'File', whole: false }), false, 'the same case: as asked');
    assert.equal(isProseWord('File', { ...at, text: 'file', whole: true }), false, 'a label of its own');
    assert.equal(isProseWord('file', { ...at, text: 'File', whole: false, source: 'accessibility' }), false);
  });

  it('"File" asked while a dialog says "a file sharing program" is the menu of the window behind', async () => {
    const hit = found(await locate(SENTENCE, [MENU_FILE], 'File'));
    assert.equal(hit.source, 'accessibility');
    assert.deepEqual(hit.point, { x: 40, y: 52 });
  });

  it('the sentence\'s word is clicked when nothing else has the label, and as asked in its own case', async () => {
    const fileWord = SENTENCE[3]!;
    const centre = { x: fileWord.x + fileWord.w / 2, y: fileWord.y + fileWord.h / 2 };
    const alone = found(await locate(SENTENCE, [], 'File'));
    assert.equal(alone.source, 'ocr');
    assert.deepEqual(alone.point, centre);
    assert.deepEqual(found(await locate(SENTENCE, [MENU_FILE], 'file')).point, centre, 'asked as written in the sentence, the active dialog answers first');
  });
});
