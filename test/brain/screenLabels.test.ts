// Screen labels and identity without chrome: menu words never name a node and never split one,
// and an editor with another document open is the same screen.
import * as assert from 'node:assert/strict';
import type { OcrElement } from '../../src/desktop/ocr/ocrTypes';
import { readingFromOcr, type ScreenText } from '../../src/navigation/recognition/fingerprint';
import { documentOfTitle, editorArea, isMenuLine, menuBarRow, stableTitle } from '../../src/navigation/recognition/screenChrome';
import { matchState } from '../../src/navigation/recognition/stateIdentifier';

function line(text: string, x: number, y: number, height = 16): OcrElement {
  return { text, confidence: 0.95, bbox: { x, y, width: text.length * 8, height }, level: 'line' };
}

const WINDOW = { x: 100, y: 50, width: 800, height: 600 };

/** galculator: a menu bar, the display and the keypad (the display's digits are volatile). */
function galculator(menuBar: string[]): ScreenText {
  const elements = [
    ...menuBar.map((word, i) => line(word, 110 + i * 90, 55)),
    line('0', 120, 100, 30),
    line('MS MR M+', 120, 160),
    line('C AC', 120, 200),
    line('sqrt x^2 x^y', 120, 240),
  ];
  return readingFromOcr({ appName: 'galculator', title: 'galculator' }, { fullText: '', elements }, { bounds: WINDOW });
}

/** An editor: menu bar, an Explorer sidebar, a tab strip and the open document's text. */
function editor(open: 'notes.txt' | 'main.py', content: string[]): ScreenText {
  const elements = [
    line('File', 110, 55),
    line('Edit', 170, 55),
    line('View', 230, 55),
    line('Help', 290, 55),
    line('EXPLORER', 110, 90),
    line('notes.txt', 110, 130),
    line('main.py', 110, 150),
    line('Outline', 110, 400),
    line('notes.txt', 330, 90),
    line('main.py', 430, 90),
    ...content.map((text, i) => line(text, 330, 130 + i * 20)),
    line(open === 'main.py' ? 'Python  Ln 1, Col 1' : 'Plain Text  Ln 1, Col 1', 600, 620),
  ];
  return readingFromOcr({ appName: 'gai-editor', title: `${open} — GAI Editor` }, { fullText: '', elements }, { bounds: WINDOW });
}

describe('brain screen labels and chrome', function () {
  it('knows menu words, editor titles and document names', function () {
    assert.equal(isMenuLine('File Edit View Help'), true);
    assert.equal(isMenuLine('Save As…'), true);
    assert.equal(isMenuLine('Network settings'), false);
    assert.equal(documentOfTitle('● main.ts — gai — Visual Studio Code'), 'main.ts');
    assert.equal(documentOfTitle('notes.txt - Mousepad'), 'notes.txt');
    assert.equal(stableTitle('/tmp/work/notes.txt - Mousepad'), 'Mousepad');
    assert.equal(documentOfTitle('Untitled-1 — GAI Editor'), 'Untitled-1');
    assert.equal(documentOfTitle('GAI Pages — Network settings'), undefined);
    assert.equal(documentOfTitle('example.com — Mozilla Firefox'), undefined, 'a host name is a page, not a document');
    assert.equal(stableTitle('● main.ts — gai — Visual Studio Code'), 'gai — Visual Studio Code');
    assert.equal(stableTitle('galculator'), 'galculator');
  });

  it('labels a galculator screen "galculator", never after a menu word, and a menu word apart is the same node', function () {
    const main = matchState(galculator(['Calculator', 'Edit', 'View', 'Help']), []);
    assert.equal(main.node.label, 'galculator');
    assert.deepEqual(main.node.fingerprint.lines, ['ms mr', 'ac', 'sqrt'], 'the menu bar is no part of the fingerprint');
    // The menu bar read with a word missing: the same state hash.
    assert.equal(matchState(galculator(['Calculator', 'Edit', 'Help']), [main.node]).matchedBy, 'hash');
    // Without geometry (a reading of lines only), a screen whose one extra line is a menu word
    // is the main screen too, and were it new its label would not be that word.
    const base: ScreenText = { programName: 'galculator', windowTitle: 'galculator', lines: ['MS MR M+', 'C AC'] };
    const first = matchState(base, []);
    const withHelp = matchState({ ...base, lines: ['Help', ...base.lines] }, [first.node]);
    assert.deepEqual([withHelp.isNew, withHelp.node.key], [false, first.node.key]);
    const popup = matchState({ ...base, lines: ['Help', 'About', 'Quit', 'Preferences'] }, [first.node], { threshold: 1.01 });
    assert.equal(popup.node.label, 'galculator', 'menu words never name a screen');
  });

  it('finds the editor area from the tab strip and leaves the tab strip and the text out', function () {
    const elements = [line('File', 110, 55), line('Edit', 170, 55), line('EXPLORER', 110, 90), line('notes.txt', 330, 90), line('main.py', 430, 90), line('hello', 330, 130)];
    assert.deepEqual(menuBarRow(elements, WINDOW).map((e) => e.text), ['File', 'Edit']);
    const area = editorArea('main.py — GAI Editor', elements, WINDOW);
    assert.ok(area && area.x < 330 && area.x > 200 && area.y < 90 && area.y > 60, JSON.stringify(area));
    assert.equal(editorArea('GAI Pages — Home', elements, WINDOW), undefined);
    assert.deepEqual(editorArea('/home/me/main.py - Mousepad', elements, WINDOW), area, 'a title with the path finds the tab by the file name');
  });

  it('an editor with another document open is the same node, labelled after the editor', function () {
    const notes = editor('notes.txt', ['Buy milk', 'Call the plumber on Monday', 'Read chapter three']);
    const code = editor('main.py', ['import sys', 'def main():', '    print("hello")', 'if __name__ == "__main__":']);
    assert.deepEqual(notes.lines, ['EXPLORER', 'notes.txt', 'main.py', 'Outline']);
    const first = matchState(notes, []);
    assert.equal(first.node.label, 'GAI Editor');
    const second = matchState(code, [first.node]);
    assert.deepEqual([second.isNew, second.matchedBy, second.node.key], [false, 'hash', first.node.key]);
  });

  it('another page of a document-less window is still another node', function () {
    const page = (heading: string, lines: string[]): ScreenText => ({ programName: 'gai-pages', windowTitle: `GAI Pages — ${heading}`, lines: [heading, ...lines], headings: [heading] });
    const home = matchState(page('Home', ['Welcome to GAI Pages', 'Settings', 'Documents', 'Help']), []);
    const network = matchState(page('Network settings', ['Wi-Fi: connected', 'Proxy: none', 'Advanced', 'Back']), [home.node]);
    assert.equal(network.isNew, true);
    assert.equal(network.node.label, 'GAI Pages — Network settings');
    // A heading names its page even when menus use the word too; a button line never beats it.
    const settings = matchState({ programName: 'gai-pages', windowTitle: 'GAI Pages', lines: ['Settings', 'Network', 'Display', 'Back'], headings: ['Settings'] }, [home.node, network.node]);
    assert.equal(settings.node.label, 'GAI Pages — Settings');
  });
});
