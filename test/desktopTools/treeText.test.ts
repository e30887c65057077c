import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { AccessibilityPort, AccessibilityQueryOptions, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import type { TargetResult } from '../../src/desktop/grounding/locateTypes';
import { TreeKnowledge } from '../../src/desktop/grounding/treeKnowledge';
import { compileWindowTitles } from '../../src/desktop/reading/privateWindows';
import { createFakeDesktop, ocrWords, type WordSpec } from '../support/fakeDesktop';

// The text the tree's paragraphs and editors show: a word in it is placed by the toolkit
// (textBoxes) with no OCR, and a window whose tree is known to hold all the text it shows, and
// none of it the label, is not read for that label. (Real apps: realAppsTreeText.test.ts.)

const EDITOR: WindowInfo = { id: '0x1', title: 'memo.txt', appName: 'editor', pid: 10, bounds: { x: 0, y: 0, width: 500, height: 600 }, type: 'normal' };
const CALC: WindowInfo = { id: '0x3', title: 'Calculator', appName: 'calc', pid: 20, bounds: { x: 500, y: 0, width: 300, height: 600 }, type: 'normal' };

function el(name: string, bbox: BBox, window: WindowInfo, active: boolean, role = 'push button', extra: Partial<AccessibleElement> = {}): AccessibleElement {
  return { name, role, bbox, states: ['enabled', 'showing'], window: { name: window.title, role: 'frame', active }, pid: window.pid, app: window.appName, ...extra };
}

class Windows implements WindowPort {
  constructor(public windows: WindowInfo[]) {}
  async activeWindow(): Promise<WindowInfo | undefined> {
    return this.windows[0];
  }
  async listWindows(): Promise<WindowInfo[]> {
    return this.windows;
  }
}

/** A tree whose text elements place a word where `words` says (as AT-SPI's range extents would). */
class TextTree implements AccessibilityPort {
  readonly name = 'text-tree';
  readonly asked: string[] = [];
  constructor(
    public all: AccessibleElement[],
    private readonly words: Record<string, AccessibleElement[]> = {},
  ) {}
  async available(): Promise<boolean> {
    return true;
  }
  async elements(options: AccessibilityQueryOptions = {}): Promise<AccessibleElement[]> {
    return options.activeWindowOnly === false ? this.all : this.all.filter((e) => e.window?.active);
  }
  async textBoxes(text: string, options: AccessibilityQueryOptions = {}): Promise<AccessibleElement[]> {
    this.asked.push(text);
    const boxes = this.words[text.toLowerCase()] ?? [];
    return options.activeWindowOnly === false ? boxes : boxes.filter((e) => e.window?.active);
  }
}

/** `pixelCheck: false` where a test is about what a whole reading of the editor teaches. */
function setUp(tree: TextTree, words: WordSpec[], options: { pixelCheck?: false } = {}) {
  const fake = createFakeDesktop({ analysis: ocrWords(words) });
  (fake as { windows: unknown }).windows = new Windows([EDITOR, CALC]);
  fake.accessibility = tree;
  for (const w of words) fake.screen.paint({ x: w.x + 1, y: w.y + 1, width: Math.max(1, w.w - 2), height: Math.max(1, w.h - 2) });
  for (const e of [...tree.all, ...Object.values(tree['words']).flat()]) fake.screen.paint({ x: e.bbox.x + 2, y: e.bbox.y + 2, width: 4, height: 4 });
  const services = createDesktopServices(fake, { privateWindowTitles: compileWindowTitles([], 'test') });
  return options.pixelCheck === false ? new TargetLocator(services, { pixelCheck: false }) : services.locator;
}

function found(result: TargetResult): Extract<TargetResult, { status: 'found' }> {
  assert.equal(result.status, 'found', JSON.stringify(result));
  return result as Extract<TargetResult, { status: 'found' }>;
}

const LINES = ['Shipments from Valencia arrived late', 'because the ferry schedule changed'];
const OCR_WORDS: WordSpec[] = LINES.flatMap((line, row) => line.split(' ').map((text, i) => ({ text, x: 20 + i * 80, y: 60 + row * 20, w: 70, h: 14 })));
const paragraphs = (cut = false): AccessibleElement[] =>
  LINES.map((text, row) => el('', { x: 10, y: 58 + row * 20, width: 480, height: 18 }, EDITOR, true, 'paragraph', { text, ...(cut ? { textCut: true } : {}) }));
const KEYS = ['Seven', 'Eight', 'Equals'].map((name, i) => el(name, { x: 520, y: 100 + i * 40, width: 80, height: 30 }, CALC, false));

describe('tree text: words placed by the toolkit, and windows known by their text', () => {
  it('clicks a word of a paragraph where the toolkit draws it, with no OCR; the paragraph itself is never a target', async () => {
    const late = el('late', { x: 340, y: 60, width: 30, height: 16 }, EDITOR, true, 'text range');
    const tree = new TextTree([...paragraphs(), ...KEYS], { late: [late] });
    const locator = setUp(tree, OCR_WORDS);
    const answer = found(await locator.locate('late'));
    assert.deepEqual(answer.point, { x: 355, y: 68 });
    assert.equal(answer.source, 'accessibility');
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active']);
    // A whole paragraph's text as the query: the paragraph is no place to click; OCR reads the line.
    const line = await locator.locate('Shipments from Valencia arrived late');
    assert.equal(line.status, 'found');
    assert.notEqual((line as { source?: string }).source, 'accessibility');
  });

  it('asks the toolkit for words only when some element\'s text has the label', async () => {
    const tree = new TextTree([...paragraphs(), ...KEYS]);
    const locator = setUp(tree, [...OCR_WORDS, { text: 'Seven', x: 525, y: 107, w: 60, h: 14 }]);
    found(await locator.locate('Seven'));
    found(await locator.locate('ferry'));
    // Asked of the active window (the toolkit gave no box here, and its pixels then had it); never for "Seven", a key by name.
    assert.deepEqual(tree.asked, ['ferry']);
  });

  it('two occurrences of a word are ambiguous, as two buttons of one name are', async () => {
    const twice = ['late', 'late'].map((n, i) => el(n, { x: 40 + i * 200, y: 60, width: 30, height: 16 }, EDITOR, true, 'text range'));
    const locator = setUp(new TextTree(paragraphs(), { late: twice }), OCR_WORDS);
    assert.equal((await locator.locate('late')).status, 'ambiguous');
  });

  it('a label in another window\'s tree is answered without reading the active editor, once its tree was seen to hold all its text', async () => {
    const tree = new TextTree([...paragraphs(), ...KEYS]);
    const calcWords = KEYS.map((k) => ({ text: k.name, x: k.bbox.x + 5, y: k.bbox.y + 7, w: 60, h: 14 }));
    const locator = setUp(tree, [...OCR_WORDS, ...calcWords], { pixelCheck: false });
    found(await locator.locate('Equals')); // reads the editor once: its tree holds every word it shows
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'ocr-active', 'tree-all']);
    found(await locator.locate('Eight'));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'tree-all'], 'the editor\'s pixels are not read again for a label its text lacks');
  });

  it('reads the editor first when its text was cut, when it mentions the label, or when OCR read the label there and the tree lacked it', async () => {
    const calcWords = KEYS.map((k) => ({ text: k.name, x: k.bbox.x + 5, y: k.bbox.y + 7, w: 60, h: 14 }));
    const cut = setUp(new TextTree([...paragraphs(true), ...KEYS]), [...OCR_WORDS, ...calcWords]);
    found(await cut.locate('Equals'));
    found(await cut.locate('Eight'));
    assert.deepEqual(cut.lastTrace?.steps, ['tree-active', 'ocr-active', 'tree-all'], 'cut text');

    const mentioning = [...paragraphs(), el('', { x: 10, y: 98, width: 480, height: 18 }, EDITOR, true, 'paragraph', { text: 'Seven eight nine' })];
    const mentions = setUp(new TextTree([...mentioning, ...KEYS]), [...OCR_WORDS, ...calcWords]);
    found(await mentions.locate('Equals'));
    await mentions.locate('Eight');
    assert.deepEqual(mentions.lastTrace?.steps.slice(0, 2), ['tree-active', 'ocr-active'], 'the editor\'s text mentions "eight"');
  });

  it('TreeKnowledge: silent by names, by text, and never about a word the tree lacked or for a short label', () => {
    const knowledge = new TreeKnowledge();
    const mine = paragraphs();
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'Equals'), undefined, 'never measured');
    knowledge.remember(EDITOR, 0.2, { share: 0.95, unknown: ['rotterdam'] });
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'Equals'), 'text');
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'Rotterdam port'), undefined, 'OCR read "rotterdam" where the tree had nothing');
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'ferry'), undefined, 'the tree mentions it');
    assert.equal(knowledge.silentAbout(EDITOR, mine, '='), undefined, 'one or two characters');
    assert.equal(knowledge.silentAbout(EDITOR, paragraphs(true), 'Equals'), undefined, 'text cut');
    assert.equal(knowledge.silentAbout(EDITOR, [], 'Equals'), undefined, 'no element read this time');
    knowledge.remember(EDITOR, 0.9, { share: 0.5, unknown: [] });
    assert.equal(knowledge.silentAbout(EDITOR, paragraphs(true), 'Equals'), 'names', 'names where drawn need no text');
  });

  it('TreeKnowledge from a glyph check: judges labels as long as the one checked or longer, and never one of the words read outside the tree', () => {
    const knowledge = new TreeKnowledge();
    const mine = paragraphs();
    assert.equal(knowledge.judges(EDITOR, 'Equals'), false, 'never checked');
    knowledge.rememberAccounted(EDITOR, ['Courier', 'Archive'], 6, false);
    assert.equal(knowledge.judges(EDITOR, 'Equals'), true);
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'Equals'), 'names');
    assert.equal(knowledge.judges(EDITOR, 'Sum'), false, 'pieces of fewer than 3 glyphs were not read');
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'Sum'), undefined);
    assert.equal(knowledge.judges(EDITOR, '−'), false, 'glyphs of elements named in words were not read');
    assert.equal(knowledge.silentAbout(EDITOR, mine, 'Archive drafts'), undefined, 'read outside the tree');
  });

  it('TreeKnowledge from a check of every glyph: judges glyph labels too, never a glyph it read', () => {
    const knowledge = new TreeKnowledge();
    const mine = paragraphs();
    knowledge.rememberAccounted(EDITOR, ['Courier', '÷'], 1, true);
    assert.equal(knowledge.judges(EDITOR, '−'), true);
    assert.equal(knowledge.silentAbout(EDITOR, mine, '−'), 'names');
    assert.equal(knowledge.judges(EDITOR, 'Sum'), true, 'longer labels were looked for too');
    assert.equal(knowledge.silentAbout(EDITOR, mine, '÷'), undefined, 'read outside the tree');
    knowledge.remember(EDITOR, 0.95, { share: 0.95, unknown: [] });
    assert.equal(knowledge.judges(EDITOR, '−'), false, 'a whole reading does not tell a glyph button named in words');
    assert.equal(knowledge.silentAbout(EDITOR, mine, '−'), undefined);
  });
});
