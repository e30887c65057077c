// Click by text on GTK 4 / libadwaita applications nobody here wrote (issue 19): gnome-calculator
// in two modes and gnome-text-editor with a document, beside galculator (GTK 3, the same digits)
// on one 1920x1080 screen. Every label of each app's window, a menu (a popover) and a dialog is
// asked of the target locator without clicking; its point must lie in the label's box or it
// must say it will not click. Ground truth: atspiTruth.py's own GTK 4 reading. Then real clicks
// on the calculator's keys (×, ÷, π among them) through the click tool.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { TargetLocator } from '../../src/desktop/grounding/targetLocator';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { delay, type GroundTruthLabel } from './support/realApps/appWindow';
import { AtspiApp } from './support/realApps/atspiApps';
import { Gtk4App } from './support/realApps/gtk4Apps';
import { add, boxesByText, describeAnswer, emptyTally, foldLabel, judge, summary, type Tally } from './support/realApps/labelScore';

const display = suiteDisplay();
const PROGRAMS = ['gnome-calculator', 'gnome-text-editor', 'galculator'];
const GOAL = { landed: 0.98, misclicks: 0 };
// The document's words are text inside a document, not named controls, scored apart as for
// mousepad in realApps.test.ts. Measured 18 of 19 on 2026-11-27: "notes" is also the stem of the
// file name "notes.txt" in the header bar, which OCR reads as "notes." there, so it is answered
// ambiguous (no misclick).
const HOLDS_NOW: Record<string, { landed: number; misclicks: number }> = {
  'gnome-text-editor words': { landed: 0.94, misclicks: 0 },
};

const LAYOUT = {
  editor: { x: 40, y: 40, width: 820, height: 560 },
  // Advanced mode widens the calculator to about 670 px by itself.
  calculator: { x: 1000, y: 60, width: 360, height: 500 },
  galculator: { x: 40, y: 660, width: 480, height: 380 },
} as const;

describe('GTK 4 applications beside a GTK 3 one: every label', function () {
  this.timeout(900_000);
  let rig: DesktopRig;
  let locator: TargetLocator;
  let editor: Gtk4App;
  let calculator: Gtk4App;
  let galculator: AtspiApp;
  const tallies = new Map<string, Tally>();

  before(async function () {
    const missing = PROGRAMS.filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs them)`);
      this.skip();
    }
    galculator = await AtspiApp.start('galculator', display.env, LAYOUT.galculator);
    editor = await Gtk4App.start('gnome-text-editor', display.env, LAYOUT.editor);
    calculator = await Gtk4App.start('gnome-calculator', display.env, LAYOUT.calculator);
    rig = createDesktopRig(display.env);
    locator = new TargetLocator(rig.services);
  });
  after(async () => {
    for (const [name, tally] of tallies) console.log(`      ${summary(name, tally).split('\n')[0]}`);
    await rig?.dispose();
    for (const app of [calculator, editor, galculator]) await app?.stop();
  });

  /** Asks the locator for every label; `context` are the app's other labels (duplicates of the same text land on any). */
  async function tryLabels(name: string, labels: GroundTruthLabel[], context: GroundTruthLabel[] = []): Promise<Tally> {
    const tally = tallies.get(name) ?? emptyTally();
    tallies.set(name, tally);
    const boxes = boxesByText([...labels, ...context]);
    for (const label of labels) {
      const sameText = boxes.get(foldLabel(label.text)) ?? [label.bbox];
      const started = performance.now();
      const result = await locator.locate(label.text);
      add(tally, { label, outcome: judge(result, label, sameText), duplicates: sameText.length - 1, answer: describeAnswer(result), ms: performance.now() - started });
    }
    return tally;
  }

  function check(name: string): void {
    const tally = tallies.get(name)!;
    console.log(summary(name, tally));
    assert.ok(tally.tried >= 10, `${name}: only ${tally.tried} labels in the ground truth`);
    const holds = HOLDS_NOW[name] ?? GOAL;
    assert.ok(tally.misclicked <= holds.misclicks, `${name}: ${tally.misclicked} misclicks (a point outside the label's box):\n${summary(name, tally)}`);
    const share = tally.landed / tally.tried;
    assert.ok(share >= holds.landed, `${name}: ${(100 * share).toFixed(1)}% landed, floor ${100 * holds.landed}%:\n${summary(name, tally)}`);
  }

  it('computes 2 × π ÷ 4 on gnome-calculator by clicking its keys, its tree shows 1.570796327, then "=" is in the history too and is not clicked', async () => {
    await calculator.activate();
    await delay(300);
    for (const key of ['2', '×', 'π', '÷', '4', '=']) {
      const clicked = await rig.run('click', { text: key });
      assert.equal(clicked.success, true, `${key}: ${clicked.error}`);
      await delay(200);
    }
    await delay(300);
    const tree = rig.services.desktop.accessibility!;
    const shown = (await tree.elements({ activeWindowOnly: true, fresh: true })).map((e) => e.text ?? e.name).join(' | ');
    assert.match(shown, /1\.570796327/, `gnome-calculator shows: ${shown}`);
    // The history now shows "2×π÷4 = 1.57…": a second "=" on the screen, so asking for "=" is ambiguous.
    const again = await locator.locate('=');
    assert.equal(again.status, 'ambiguous', describeAnswer(again));
  });

  it('gnome-text-editor: every named element of the window, its primary menu and Preferences', async () => {
    await editor.activate();
    await delay(300);
    const main = await editor.groundTruth();
    await tryLabels('gnome-text-editor', main.filter((l) => l.role !== 'word'));
    const words = main.filter((l) => l.role === 'word');
    assert.ok(words.length >= 10, `the document shows ${words.length} words`);
    await tryLabels('gnome-text-editor words', words);
    const menu = await editor.openMenu();
    await tryLabels('gnome-text-editor', menu, main);
    await editor.closePopups();
    const dialog = await editor.openDialog();
    await tryLabels('gnome-text-editor', dialog, main);
    await editor.closePopups();
    check('gnome-text-editor');
    check('gnome-text-editor words');
  });

  it('gnome-calculator in Basic mode: every label of the window, its mode menu and Preferences', async () => {
    await calculator.activate();
    await delay(300);
    const main = await calculator.groundTruth();
    await tryLabels('gnome-calculator basic', main);
    // The glyph keys OCR cannot read are answered by GTK 4's own tree, inside their keys.
    for (const glyph of ['π', '÷', '√', '×', '−']) {
      const key = main.find((l) => l.text === glyph);
      assert.ok(key, `the ground truth has the ${glyph} key`);
      const answer = await locator.locate(glyph);
      assert.equal(answer.status === 'found' && answer.source, 'accessibility', `${glyph}: ${describeAnswer(answer)}`);
      assert.equal(judge(answer, key, [key.bbox]), 'landed', `${glyph}: ${describeAnswer(answer)}`);
    }
    const menu = await calculator.openMenu();
    // The mode menu is a popover: read from the tree as a popup, drawn above the window.
    const advanced = await locator.locate('Advanced');
    assert.equal(advanced.status === 'found' && advanced.source, 'accessibility', describeAnswer(advanced));
    await tryLabels('gnome-calculator basic', menu, main);
    await calculator.closePopups();
    const dialog = await calculator.openDialog();
    await tryLabels('gnome-calculator basic', dialog, main);
    await calculator.closePopups();
    check('gnome-calculator basic');
  });

  it('gnome-calculator in Advanced mode: every label of the window and its mode menu', async () => {
    const main = await calculator.switchMode('Advanced');
    assert.ok(main.some((l) => l.text === 'cos'), 'Advanced mode shows its function keys');
    await tryLabels('gnome-calculator advanced', main);
    const menu = await calculator.openMenu();
    await tryLabels('gnome-calculator advanced', menu, main);
    await calculator.closePopups();
    check('gnome-calculator advanced');
  });
});
