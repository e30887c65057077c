import { strict as assert } from 'node:assert';
import type { BBox } from '../../src/common/geometry';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { AccessibilityPort, AccessibilityQueryOptions, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import { compileWindowTitles } from '../../src/desktop/reading/privateWindows';
import { judgeOcr } from '../../src/desktop/grounding/targetRules';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import type { TargetResult } from '../../src/desktop/grounding/locateTypes';
import type { Candidate } from '../../src/desktop/grounding/candidate';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { createFakeDesktop, ocrWords, runTool, type FakeDesktop, type WordSpec } from '../support/fakeDesktop';

// The decision layer of click by text: tree first (no OCR), then the active window's pixels,
// then the others; duplicates prefer the focused window and the dialog; doubtful matches and
// short queries inside longer labels are never clicked.

/** Windows with a stacking list (topmost first), like the X11 bridge. */
class StackedWindows implements WindowPort {
  constructor(
    public windows: WindowInfo[],
    public active: WindowInfo | undefined,
  ) {}
  async activeWindow(): Promise<WindowInfo | undefined> {
    return this.active;
  }
  async listWindows(): Promise<WindowInfo[]> {
    return this.windows;
  }
}

/** A tree that answers per window: elements carry the window they are in. */
class FakeTree implements AccessibilityPort {
  readonly name = 'fake-tree';
  readonly queries: Array<AccessibilityQueryOptions & { fresh?: boolean }> = [];
  constructor(public all: AccessibleElement[]) {}
  async available(): Promise<boolean> {
    return true;
  }
  async elements(options: AccessibilityQueryOptions & { fresh?: boolean } = {}): Promise<AccessibleElement[]> {
    this.queries.push(options);
    return options.activeWindowOnly === false ? this.all : this.all.filter((e) => e.window?.active);
  }
}

const MAIN: WindowInfo = { id: '0x1', title: 'Editor', appName: 'editor', pid: 10, bounds: { x: 0, y: 0, width: 500, height: 600 }, type: 'normal' };
const DIALOG: WindowInfo = { id: '0x2', title: 'Save changes?', appName: 'editor', pid: 10, bounds: { x: 150, y: 200, width: 300, height: 150 }, type: 'dialog' };
const OTHER: WindowInfo = { id: '0x3', title: 'Calculator', appName: 'calc', pid: 20, bounds: { x: 500, y: 0, width: 300, height: 600 }, type: 'normal' };

function el(name: string, bbox: BBox, window: WindowInfo, active: boolean, role = 'push button'): AccessibleElement {
  return { name, role, bbox, states: ['enabled', 'showing'], window: { name: window.title, role: window.type === 'dialog' ? 'dialog' : 'frame', active }, pid: window.pid, app: window.appName };
}

function setUp(options: { windows?: WindowInfo[]; active?: WindowInfo; words?: WordSpec[]; tree?: AccessibleElement[]; privateTitles?: string[] } = {}): {
  fake: FakeDesktop;
  locator: TargetLocator;
  tree?: FakeTree;
  services: ReturnType<typeof createDesktopServices>;
} {
  const fake = createFakeDesktop({ analysis: ocrWords(options.words ?? []) });
  const windows = options.windows ?? [MAIN];
  (fake as { windows: unknown }).windows = new StackedWindows(windows, options.active ?? windows[0]);
  const tree = options.tree ? new FakeTree(options.tree) : undefined;
  if (tree) fake.accessibility = tree;
  // Every label is drawn: a dark mark inside each box, so no box counts as blank.
  for (const w of options.words ?? []) fake.screen.paint({ x: w.x + 1, y: w.y + 1, width: Math.max(1, w.w - 2), height: Math.max(1, w.h - 2) });
  for (const e of options.tree ?? []) fake.screen.paint({ x: e.bbox.x + 4, y: e.bbox.y + 4, width: 6, height: 4 });
  const services = createDesktopServices(fake, { privateWindowTitles: compileWindowTitles(options.privateTitles ?? [], 'test') });
  return { fake, locator: services.locator, tree, services };
}

function found(result: TargetResult): Extract<TargetResult, { status: 'found' }> {
  assert.equal(result.status, 'found', JSON.stringify(result));
  return result as Extract<TargetResult, { status: 'found' }>;
}

describe('TargetLocator', () => {
  it('answers from the tree without any OCR when the active window has the label exactly', async () => {
    const { fake, locator } = setUp({ tree: [el('Bold', { x: 40, y: 40, width: 30, height: 30 }, MAIN, true)], words: [{ text: 'Bold', x: 300, y: 500, w: 40, h: 14 }] });
    const hit = found(await locator.locate('bold'));
    assert.equal(hit.source, 'accessibility');
    assert.deepEqual(hit.point, { x: 55, y: 55 });
    assert.equal(fake.ocr.calls, 0);
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active']);
  });

  it('does not trust a tree box where nothing is drawn: asks the tree afresh, then reads the pixels', async () => {
    const { fake, locator, tree } = setUp({ words: [{ text: 'Open', x: 300, y: 500, w: 40, h: 14 }] });
    const stale = new FakeTree([el('Open', { x: 40, y: 40, width: 60, height: 30 }, MAIN, true)]);
    fake.accessibility = stale;
    assert.equal(tree, undefined);
    const hit = found(await locator.locate('Open'));
    assert.equal(hit.source, 'ocr');
    assert.deepEqual(hit.point, { x: 320, y: 507 });
    assert.ok(stale.queries.some((q) => q.fresh === true), 'the tree was asked again, fresh');
  });

  it('reads the active window first and only it when the label is there', async () => {
    const { fake, locator } = setUp({
      windows: [MAIN, OTHER],
      words: [{ text: 'Cancel', x: 100, y: 100, w: 50, h: 14 }, { text: 'Cancel', x: 600, y: 100, w: 50, h: 14 }],
    });
    const hit = found(await locator.locate('Cancel'));
    assert.deepEqual(hit.point, { x: 125, y: 107 });
    assert.equal(fake.ocr.calls, 1);
    assert.deepEqual(fake.ocr.images[0]!.origin, { x: 0, y: 0 });
    assert.equal(fake.ocr.images[0]!.width, 500, 'only the active window was read');
  });

  it('looks in the other windows when the active one lacks the label', async () => {
    const { fake, locator } = setUp({ windows: [MAIN, OTHER], words: [{ text: 'Clear', x: 600, y: 100, w: 50, h: 14 }] });
    const hit = found(await locator.locate('Clear'));
    assert.deepEqual(hit.point, { x: 625, y: 107 });
    assert.equal(fake.ocr.calls, 2);
    assert.deepEqual(locator.lastTrace?.steps, ['ocr-active', 'ocr-window']);
  });

  it('keeps each window reading with its pixels: switching back to an unchanged window is no OCR, a change only its part', async () => {
    const { fake, locator } = setUp({ windows: [MAIN, OTHER], words: [{ text: 'Undo', x: 100, y: 100, w: 40, h: 14 }, { text: 'Clear', x: 600, y: 100, w: 50, h: 14 }] });
    const windows = fake.windows as unknown as StackedWindows;
    found(await locator.locate('Undo'));
    windows.active = OTHER;
    found(await locator.locate('Clear'));
    windows.active = MAIN;
    found(await locator.locate('Undo'));
    assert.equal(fake.ocr.calls, 2, 'each window was read once');
    fake.screen.paint({ x: 200, y: 300, width: 20, height: 20 });
    found(await locator.locate('Undo'));
    assert.equal(fake.ocr.calls, 3, 'a changed window is read again');
    const partial = fake.ocr.images[2]!;
    assert.ok(partial.width < 100 && partial.height < 100, `only the changed part is read (${partial.width}x${partial.height})`);
  });

  it('never clicks a one- or two-character query found only inside a longer label, and lets the tree answer', async () => {
    const words = [{ text: '<-', x: 100, y: 100, w: 16, h: 14 }, { text: '+/-', x: 200, y: 100, w: 24, h: 14 }];
    const alone = setUp({ words });
    assert.equal((await alone.locator.locate('-')).status, 'not_found');
    assert.equal((await alone.locator.locate('+')).status, 'not_found');
    const withTree = setUp({ words, tree: [el('<-', { x: 95, y: 95, width: 26, height: 24 }, MAIN, true), el('-', { x: 300, y: 95, width: 26, height: 24 }, MAIN, true)] });
    const hit = found(await withTree.locator.locate('-'));
    assert.equal(hit.source, 'accessibility');
    assert.deepEqual(hit.point, { x: 313, y: 107 });
    // Inside the tree too: "+" is not the button "+/-".
    const treeOnly = setUp({ tree: [el('+/-', { x: 95, y: 95, width: 26, height: 24 }, MAIN, true)] });
    assert.equal((await treeOnly.locator.locate('+')).status, 'not_found');
  });

  it('prefers the focused dialog when a label is in it and in the window below', async () => {
    const { locator } = setUp({
      windows: [DIALOG, MAIN],
      active: DIALOG,
      tree: [el('Save', { x: 10, y: 10, width: 40, height: 24 }, MAIN, false), el('Save', { x: 350, y: 300, width: 60, height: 24 }, DIALOG, true)],
    });
    const hit = found(await locator.locate('Save'));
    assert.deepEqual(hit.point, { x: 380, y: 312 });
    assert.equal(hit.source, 'accessibility');
  });

  it('prefers the dialog among other windows that show a label, and asks when none is a dialog', async () => {
    const words = [{ text: 'Save', x: 20, y: 20, w: 40, h: 14 }, { text: 'Save', x: 360, y: 300, w: 40, h: 14 }];
    const focusElsewhere = setUp({ windows: [DIALOG, MAIN, OTHER], active: OTHER, words });
    assert.deepEqual(found(await focusElsewhere.locator.locate('Save')).point, { x: 380, y: 307 });
    const twoNormal = setUp({ windows: [MAIN, OTHER], active: undefined, words: [{ text: 'Edit', x: 20, y: 20, w: 40, h: 14 }, { text: 'Edit', x: 620, y: 20, w: 40, h: 14 }] });
    (twoNormal.fake.windows as unknown as StackedWindows).active = { ...DIALOG, id: '0x9', title: 'Elsewhere', bounds: { x: 0, y: 590, width: 10, height: 10 } };
    assert.equal((await twoNormal.locator.locate('Edit')).status, 'ambiguous');
  });

  it('ignores tree elements under another window and in private windows', async () => {
    const covered = setUp({ windows: [DIALOG, MAIN], active: DIALOG, tree: [el('Apply', { x: 200, y: 250, width: 60, height: 24 }, MAIN, false)] });
    assert.notEqual((await covered.locator.locate('Apply')).status, 'found');
    const secret = setUp({ windows: [MAIN, OTHER], active: OTHER, privateTitles: ['Editor'], tree: [el('Reveal', { x: 20, y: 20, width: 60, height: 24 }, MAIN, false)], words: [{ text: 'Reveal', x: 20, y: 60, w: 50, h: 14 }] });
    const result = await secret.locator.locate('Reveal');
    assert.equal(result.status, 'not_found');
    assert.match((result as { reason?: string }).reason ?? '', /private windows are not read \("Editor"\)/);
    assert.ok(secret.fake.ocr.images.every((i) => i.origin.x >= 500), 'the private window was never read');
  });

  it('answers low_confidence for an unsure reading and a fuzzy short word, and clicks a surely read long one', async () => {
    const unsure = setUp({ words: [{ text: 'Apply', x: 20, y: 20, w: 50, h: 14, confidence: 0.3 }] });
    const low = await unsure.locator.locate('Apply');
    assert.equal(low.status, 'low_confidence');
    assert.match((low as { reason: string }).reason, /Not sure: best match 'Apply' \(confidence 0\.30\)/);
    const fuzzy = setUp({ words: [{ text: 'Saue', x: 20, y: 20, w: 40, h: 14, confidence: 0.9 }] });
    assert.equal((await fuzzy.locator.locate('Save')).status, 'low_confidence');
    const long = setUp({ words: [{ text: 'Setlings', x: 20, y: 20, w: 70, h: 14, confidence: 0.9 }] });
    const hit = found(await long.locator.locate('Settings'));
    assert.equal(hit.kind, 'fuzzy');
  });

  it('lets an exact tree answer in another window beat an inexact reading of the active one', async () => {
    const { locator } = setUp({
      windows: [MAIN, OTHER],
      words: [{ text: 'Setlings', x: 20, y: 20, w: 70, h: 14, confidence: 0.9 }],
      tree: [el('Settings', { x: 600, y: 40, width: 80, height: 24 }, OTHER, false)],
    });
    const hit = found(await locator.locate('Settings'));
    assert.equal(hit.source, 'accessibility');
    assert.deepEqual(hit.point, { x: 640, y: 52 });
  });

  it('sorts OCR candidates by the rules (short glyphs whole only, substrings only when most of the word)', () => {
    const c = (text: string, kind: Candidate['kind'], whole: boolean, confidence = 0.9): Candidate => ({
      text,
      kind,
      whole,
      confidence,
      bbox: { x: 0, y: 0, width: 10, height: 10 },
      point: { x: 5, y: 5 },
      source: 'ocr',
    });
    assert.deepEqual(judgeOcr('-', [c('-', 'exact', false), c('<-', 'substring', false)]), { sure: [], doubtful: [] });
    assert.equal(judgeOcr('if', [c('if', 'exact', false)]).sure.length, 1, 'a short word inside a line of code is a word');
    assert.equal(judgeOcr('I', [c('I', 'exact', true, 0.5)]).doubtful.length, 1);
    assert.equal(judgeOcr('save', [c('Autosave', 'substring', false)]).doubtful.length, 1);
    assert.equal(judgeOcr('preferences', [c('Preferences…', 'substring', false)]).sure.length, 1);
    assert.equal(judgeOcr('send me product updates', [c('(send me product updates', 'exact', true, 0.33)]).sure.length, 1, 'a phrase read exactly');
    // A part between punctuation: sure, and narrowed to where it is.
    const word = { ...c('Partial<Settings>', 'substring', false), bbox: { x: 100, y: 10, width: 170, height: 18 } };
    const [part] = judgeOcr('Partial', [word]).sure;
    assert.deepEqual(part?.bbox, { x: 100, y: 10, width: 70, height: 18 });
    assert.deepEqual(part?.point, { x: 135, y: 19 });
    assert.equal(judgeOcr('fs', [{ ...c("'node:fs';", 'substring', false), bbox: { x: 0, y: 0, width: 100, height: 18 } }]).sure[0]?.point.x, 70);
  });

  it('finds a name OCR split at a dot or glued to punctuation, on that part only, never inside a word', async () => {
    const words = [
      { text: 'path.', x: 100, y: 100, w: 50, h: 16 },
      { text: 'join(folder,', x: 160, y: 100, w: 120, h: 16 },
      { text: '.exec(line.trim());', x: 100, y: 140, w: 190, h: 16 },
      { text: 'autosave', x: 100, y: 180, w: 80, h: 16 },
    ];
    const { locator } = setUp({ words });
    const join = found(await locator.locate('path.join'));
    assert.ok(join.point.x >= 100 && join.point.x < 200, `path.join at ${join.point.x}`);
    const exec = found(await locator.locate('exec'));
    assert.ok(exec.point.x >= 110 && exec.point.x < 150, `exec at ${exec.point.x}`);
    const trim = found(await locator.locate('line.trim'));
    assert.ok(trim.point.x >= 150 && trim.point.x < 250, `line.trim at ${trim.point.x}`);
    assert.notEqual((await locator.locate('tosa')).status, 'found', 'not inside a word');
  });

  it('takes a label over the field it names, and clicks a wide cell on its text', async () => {
    const label = el('Billing cycle', { x: 30, y: 290, width: 200, height: 15 }, MAIN, true, 'label');
    const field = el('Billing cycle', { x: 30, y: 310, width: 300, height: 28 }, MAIN, true, 'combo box');
    const cell = el('Active', { x: 20, y: 400, width: 200, height: 24 }, MAIN, true, 'table cell');
    const text = el('Active', { x: 24, y: 404, width: 50, height: 16 }, MAIN, true, 'static');
    const { locator } = setUp({ tree: [label, field, cell, text] });
    assert.deepEqual(found(await locator.locate('Billing cycle')).point, { x: 130, y: 298 });
    assert.deepEqual(found(await locator.locate('Active')).point, { x: 49, y: 412 });
  });

  it('takes a lone OCR "x" for "×" only where the tree does not name a letter x there (a calculator\'s variable key)', async () => {
    const words = [{ text: 'x', x: 100, y: 100, w: 8, h: 10 }, { text: 'Exit', x: 300, y: 100, w: 30, h: 10 }];
    const bare = setUp({ words });
    assert.deepEqual(found(await bare.locator.locate('×')).point, { x: 104, y: 105 });
    const variable = el('x', { x: 80, y: 90, width: 50, height: 30 }, MAIN, true);
    const { locator } = setUp({ words, tree: [variable] });
    assert.equal((await locator.locate('×')).status, 'not_found', 'the key is named "x": a letter');
    assert.equal(found(await locator.locate('x')).source, 'accessibility');
  });

  it('does not click a glyph found only in a window other than the active one', async () => {
    const { locator, fake } = setUp({ windows: [MAIN, OTHER], tree: [el('−', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false)] });
    const result = await locator.locate('−');
    assert.equal(result.status, 'low_confidence');
    assert.match((result as { reason: string }).reason, /found only in "Calculator", not in the active window "Editor"/);
    (fake.windows as unknown as StackedWindows).active = OTHER;
    assert.equal((await locator.locate('−')).status, 'found', 'with its window active it is clicked');
  });

  it('clicks a glyph in another window when the active window\'s tree holds what its pixels show', async () => {
    const names = ['File', 'Edit', 'View', 'Search', 'Help'];
    const words = names.map((text, i) => ({ text, x: 10 + i * 60, y: 10, w: 40, h: 14 }));
    const menu = names.map((name, i) => el(name, { x: 6 + i * 60, y: 6, width: 50, height: 22 }, MAIN, true, 'menu item'));
    const glyph = el('−', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false);
    const complete = setUp({ windows: [MAIN, OTHER], words, tree: [...menu, glyph] });
    assert.deepEqual(found(await complete.locator.locate('−')).point, { x: 620, y: 515 });
    // The same words with no tree behind them: the active window may draw a "−" OCR cannot read.
    const bare = setUp({ windows: [MAIN, OTHER], words, tree: [glyph] });
    assert.equal((await bare.locator.locate('−')).status, 'low_confidence');
  });

  it('skips the active window\'s pixels once its tree was seen to hold them, when another window\'s tree answers', async () => {
    const names = ['File', 'Edit', 'View', 'Search', 'Help'];
    const words = names.map((text, i) => ({ text, x: 10 + i * 60, y: 10, w: 40, h: 14 }));
    const menu = names.map((name, i) => el(name, { x: 6 + i * 60, y: 6, width: 50, height: 22 }, MAIN, true, 'menu item'));
    const equals = el('Equals', { x: 600, y: 500, width: 60, height: 30 }, OTHER, false);
    const { fake, services } = setUp({ windows: [MAIN, OTHER], words, tree: [...menu, equals] });
    const locator = new TargetLocator(services, { pixelCheck: false }); // what a whole reading teaches
    found(await locator.locate('Help')); // the tree answers: the active window is not read
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active']);
    found(await locator.locate('Equals')); // not in the active tree: its pixels are read once, coverage learned
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'ocr-active', 'tree-all']);
    fake.screen.paint({ x: 10, y: 40, width: 30, height: 10 }); // the active window changed a little since
    const ocrCalls = fake.ocr.calls;
    assert.deepEqual(found(await locator.locate('Equals')).point, { x: 630, y: 515 });
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'tree-all'], 'no OCR of the active window');
    assert.equal(fake.ocr.calls, ocrCalls);
  });

  it('a glyph is looked for in the active window\'s pixels even when its tree holds the rest (a "−" button named "Zoom out")', async () => {
    const names = ['File', 'Edit', 'View', 'Search', 'Help'];
    const words = [...names.map((text, i) => ({ text, x: 10 + i * 60, y: 10, w: 40, h: 14 })), { text: '−', x: 400, y: 300, w: 14, h: 14 }];
    const menu = names.map((name, i) => el(name, { x: 6 + i * 60, y: 6, width: 50, height: 22 }, MAIN, true, 'menu item'));
    const zoomOut = el('Zoom out', { x: 392, y: 292, width: 30, height: 30 }, MAIN, true);
    const minus = el('−', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false);
    const { services } = setUp({ windows: [MAIN, OTHER], words, tree: [...menu, zoomOut, minus, el('Equals', { x: 700, y: 500, width: 60, height: 30 }, OTHER, false)] });
    // What a whole reading teaches (the glyph check's reading of glyphs is tested on real pixels: pixelCheck.test.ts).
    const locator = new TargetLocator(services, { pixelCheck: false });
    found(await locator.locate('Equals')); // learns that the active window's tree holds its words
    assert.deepEqual(found(await locator.locate('−')).point, { x: 407, y: 307 }, 'the active window\'s own "−"');
  });

  it('a glyph only another window\'s tree has is not clicked when the active window has a small button whose name OCR did not read', async () => {
    const names = ['File', 'Edit', 'View', 'Search', 'Help'];
    const words = names.map((text, i) => ({ text, x: 10 + i * 60, y: 10, w: 40, h: 14 }));
    const menu = names.map((name, i) => el(name, { x: 6 + i * 60, y: 6, width: 50, height: 22 }, MAIN, true, 'menu item'));
    const zoomOut = el('Zoom out', { x: 392, y: 292, width: 30, height: 30 }, MAIN, true); // draws "−", which OCR missed
    const minus = el('−', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false);
    const { locator } = setUp({ windows: [MAIN, OTHER], words, tree: [...menu, zoomOut, minus] });
    const answer = await locator.locate('−');
    assert.equal(answer.status, 'low_confidence', JSON.stringify(answer));
    // Letters are read by OCR where they are drawn: "MR" only in the other window is clicked there.
    const { locator: again } = setUp({ windows: [MAIN, OTHER], words, tree: [...menu, zoomOut, el('MR', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false)] });
    assert.deepEqual(found(await again.locate('MR')).point, { x: 620, y: 515 });
  });

  it('two letters found only in another window are clicked there unless the active window shows a look-alike; one character never', async () => {
    const code = ['const', 'match', 'exec', 'line', 'trim'].map((text, i) => ({ text, x: 10 + i * 60, y: 100, w: 40, h: 14 }));
    const keys = [el('MS', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false), el('7', { x: 650, y: 500, width: 40, height: 30 }, OTHER, false)];
    const plain = setUp({ windows: [MAIN, OTHER], words: code, tree: keys });
    assert.deepEqual(found(await plain.locator.locate('MS')).point, { x: 620, y: 515 });
    assert.equal((await plain.locator.locate('7')).status, 'low_confidence', 'a lone digit may be drawn where OCR missed it');
    const lookAlike = setUp({ windows: [MAIN, OTHER], words: [...code, { text: 'M5', x: 10, y: 200, w: 30, h: 14, confidence: 0.45 }], tree: keys });
    assert.equal((await lookAlike.locator.locate('MS')).status, 'low_confidence');
  });

  it('a glyph only another window has is clicked there when the active window\'s tree knows its text (an editor\'s document) and none of it has the glyph', async () => {
    const words = ['const', 'match', 'exec', 'line', 'trim', 'split'].map((text, i) => ({ text, x: 10 + i * 60, y: 100, w: 40, h: 14 }));
    const editor = (text: string): AccessibleElement => ({ ...el('', { x: 0, y: 40, width: 500, height: 560 }, MAIN, true, 'text'), text });
    const pi = el('π', { x: 600, y: 500, width: 40, height: 30 }, OTHER, false);
    const known = setUp({ windows: [MAIN, OTHER], words, tree: [editor(words.map((w) => w.text).join(' ')), pi] });
    assert.deepEqual(found(await known.locator.locate('π')).point, { x: 620, y: 515 });
    const mentioned = setUp({ windows: [MAIN, OTHER], words, tree: [editor(`${words.map((w) => w.text).join(' ')} // π`), pi] });
    assert.equal((await mentioned.locator.locate('π')).status, 'low_confidence', 'the document has a π OCR did not read');
  });

  it('still reads the active window first when its tree holds only part of what it shows (a long text cut)', async () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'].map((text, i) => ({ text, x: 10 + i * 60, y: 100, w: 40, h: 14 }));
    const equals = el('Equals', { x: 600, y: 500, width: 60, height: 30 }, OTHER, false);
    // A text view whose text the tree gave only in part: its silence about a label proves nothing.
    const document = { ...el('', { x: 0, y: 40, width: 500, height: 560 }, MAIN, true, 'text'), text: words.map((w) => w.text).join(' '), textCut: true };
    const { locator } = setUp({ windows: [MAIN, OTHER], words, tree: [el('File', { x: 6, y: 6, width: 50, height: 22 }, MAIN, true, 'menu item'), document, equals] });
    found(await locator.locate('Equals'));
    found(await locator.locate('Equals'));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'ocr-active', 'tree-all'], 'the rest of the text may hold the label');
  });

  it('does not read the pixels of another window whose tree is known to name all it shows and does not mention the label', async () => {
    const top: WindowInfo = { ...MAIN, bounds: { x: 0, y: 0, width: 500, height: 300 } };
    const notes: WindowInfo = { id: '0x4', title: 'Notes', appName: 'notes', pid: 30, bounds: { x: 0, y: 300, width: 500, height: 300 }, type: 'normal' };
    const names = ['Seven', 'Eight', 'Nine', 'Clear', 'Equals', 'Minus'];
    const keys = (active: boolean): AccessibleElement[] => names.map((name, i) => el(name, { x: 510, y: 20 + i * 40, width: 80, height: 30 }, OTHER, active));
    const words: WordSpec[] = [...names.map((text, i) => ({ text, x: 515, y: 27 + i * 40, w: 60, h: 14 })), { text: 'Rotterdam', x: 40, y: 400, w: 80, h: 14 }, { text: 'Editor', x: 40, y: 40, w: 60, h: 14 }];
    const { tree, fake, services } = setUp({ windows: [OTHER, top, notes], active: OTHER, words, tree: keys(true) });
    const locator = new TargetLocator(services, { pixelCheck: false }); // what a whole reading teaches
    const stack = fake.windows as unknown as StackedWindows;
    // While the calculator is active its pixels are read once: its tree names every word it shows.
    found(await locator.locate('Rotterdam'));
    stack.active = top;
    stack.windows = [top, OTHER, notes];
    tree!.all = [...keys(false), el('File', { x: 6, y: 6, width: 50, height: 22 }, top, true, 'menu item')];
    assert.deepEqual(found(await locator.locate('Rotterdam')).point, { x: 80, y: 407 });
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'ocr-active', 'tree-all', 'ocr-window'], 'the notes are read, the calculator is not');
    // Its tree mentions the label (a longer name): then it may show it, and is read.
    tree!.all = [...tree!.all, el('Rotterdam office', { x: 510, y: 300, width: 120, height: 30 }, OTHER, false)];
    found(await locator.locate('Rotterdam'));
    assert.deepEqual(locator.lastTrace?.steps, ['tree-active', 'ocr-active', 'tree-all', 'ocr-window', 'ocr-window']);
  });

  it('waits a moment for the focus to land on a window rather than reading the whole screen', async () => {
    const { locator, fake } = setUp({ windows: [MAIN, OTHER], words: [{ text: 'Rotterdam', x: 40, y: 400, w: 80, h: 14 }] });
    const stack = fake.windows as unknown as StackedWindows;
    stack.active = undefined; // the focus is moving to the window just clicked
    setTimeout(() => (stack.active = MAIN), 30);
    found(await locator.locate('Rotterdam'));
    assert.deepEqual(locator.lastTrace?.steps, ['ocr-active']);
    stack.active = undefined; // and where no window ever takes it, the screen is read
    found(await locator.locate('Rotterdam'));
    assert.deepEqual(locator.lastTrace?.steps, ['ocr-screen']);
  });

  it('the click tool clicks nothing when unsure, and says why', async () => {
    const { fake, services } = setUp({ words: [{ text: 'Saue', x: 20, y: 20, w: 40, h: 14, confidence: 0.41 }] });
    const result = await runTool(new ClickTool(services), { text: 'Save' });
    assert.equal(result.code, 'FAILED');
    assert.equal((result.data as { reason: string }).reason, 'low_confidence');
    assert.match(result.observation, /Not sure: best match 'Saue' \(fuzzy, confidence 0\.41\)/);
    assert.deepEqual(fake.input.calls, []);
  });
});
