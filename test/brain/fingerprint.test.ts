// Fingerprints of screen readings: volatile text dropped, the similarity threshold tested
// from both sides.
import * as assert from 'node:assert/strict';
import type { OcrElement } from '../../src/desktop/ocr/ocrTypes';
import { buildFingerprint, readingFromOcr, similarity, SIMILARITY_THRESHOLD, stateHashOf, type ScreenText } from '../../src/navigation/recognition/fingerprint';
import { stableTokens } from '../../src/navigation/recognition/volatileText';
import { displayPage, folderPage, homePage, networkPage, proxyPage } from './support/brainFixtures';

const state = (reading: ScreenText) => ({ programName: reading.programName, fingerprint: buildFingerprint(reading) });
const score = (a: ScreenText, b: ScreenText) => similarity(state(a), state(b));
const withoutHeadings = (reading: ScreenText): ScreenText => ({ ...reading, headings: [] });

describe('brain fingerprint', function () {
  it('drops clock times, dates, counters, sizes, durations, relative times and ids', function () {
    const cases: Array<[string, string[]]> = [
      ['12:34', []],
      ['12:34:56', []],
      ['3:05 PM', []],
      ['3:05pm', []],
      ['Tue 12:34', []],
      ['Monday, 3 March 2025', []],
      ['2025-03-05', []],
      ['05/03/2025', []],
      ['Mar 5, 2025', []],
      ['March 5th', []],
      ['Updated 5 minutes ago', ['updated']],
      ['Edited an hour ago', ['edited']],
      ['Saved just now', ['saved']],
      ['Downloads (42)', ['downloads']],
      ['Battery 87%', ['battery']],
      ['1.2 MB of 3 GB', ['of']],
      ['512 KiB', []],
      ['Elapsed 2h 15m', ['elapsed']],
      ['Duration 3.5 s', ['duration']],
      ['Build a3f9c2e1d', ['build']],
      ['Order #123456789', ['order']],
      ['id 0f8fad5b-d9cb-469f-a165-70867728950e', ['id']],
      ['Page 3 of 10', ['page', 'of']],
      ['Wi-Fi', ['wi', 'fi']],
      ['Accede to facade', ['accede', 'to', 'facade']],
      ['네트워크 설정', ['네트워크', '설정']],
      ['Save   As…', ['save', 'as']],
    ];
    for (const [text, expected] of cases) assert.deepEqual(stableTokens(text), expected, text);
  });

  it('builds a bounded fingerprint of stable, unique, normalised lines', function () {
    const fingerprint = buildFingerprint({ programName: 'x', windowTitle: 'Inbox (3) — Mail', lines: ['Inbox', 'INBOX', '12:00', ...Array.from({ length: 400 }, (_, i) => `Message ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} ${'ab'.repeat(200)}`)] });
    assert.equal(fingerprint.title, 'inbox mail');
    assert.equal(fingerprint.lines[0], 'inbox');
    assert.ok(fingerprint.lines.length < 120 && fingerprint.lines.length > 30, String(fingerprint.lines.length));
    assert.ok(fingerprint.lines.every((l) => l.length <= 100));
    assert.ok(fingerprint.lines.join('').length <= 4000);
    const many = buildFingerprint({ programName: 'x', windowTitle: '', lines: Array.from({ length: 400 }, (_, i) => `Row ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`) });
    assert.equal(many.lines.length, 120);
  });

  it(`same page with another clock: similarity 1 and the same state hash (threshold ${SIMILARITY_THRESHOLD})`, function () {
    assert.equal(score(networkPage('12:34'), networkPage('3:07')), 1);
    const hash = (reading: ScreenText) => stateHashOf(reading.programName, buildFingerprint(reading));
    assert.equal(hash(networkPage('12:34')), hash(networkPage('23:59')));
    assert.match(hash(networkPage()), /^[0-9a-f]{12}$/);
    assert.equal(score(folderPage(10, '09:15'), folderPage(10, '17:42')), 1, 'sizes and "n hours ago" too');
  });

  it('same page with one more line in a list stays above the threshold (another hash)', function () {
    const extra = score(networkPage(), networkPage('12:34', ['Bluetooth tethering']));
    assert.ok(extra >= SIMILARITY_THRESHOLD && extra < 1, `extra line: ${extra}`);
    const grown = score(folderPage(10), folderPage(11, '09:16'));
    assert.ok(grown >= SIMILARITY_THRESHOLD, `folder with one more file: ${grown}`);
    const changed = folderPage(10);
    changed.lines[14] = 'report-omega.pdf 3 KB 1 hours ago';
    assert.ok(score(folderPage(10), changed) >= SIMILARITY_THRESHOLD, 'one file renamed');
    assert.ok(score(withoutHeadings(networkPage()), withoutHeadings(networkPage('1:00', ['Bluetooth tethering']))) >= SIMILARITY_THRESHOLD);
    const hash = (reading: ScreenText) => stateHashOf(reading.programName, buildFingerprint(reading));
    assert.notEqual(hash(networkPage()), hash(networkPage('12:34', ['Bluetooth tethering'])));
  });

  it('another page of the same app (other heading and buttons) falls below the threshold', function () {
    for (const [name, page] of [['display', displayPage()], ['home', homePage()], ['proxy', proxyPage()]] as const) {
      const s = score(networkPage(), page);
      assert.ok(s < SIMILARITY_THRESHOLD, `${name}: ${s}`);
    }
    // Without heading information (plain text lines) the content alone still separates the pages.
    assert.ok(score(withoutHeadings(networkPage()), withoutHeadings(displayPage())) < SIMILARITY_THRESHOLD);
    assert.ok(score(withoutHeadings(networkPage()), withoutHeadings(homePage())) < SIMILARITY_THRESHOLD);
  });

  it('another program or another window scores 0', function () {
    assert.equal(score(networkPage(), { ...networkPage(), programName: 'other-app' }), 0);
    assert.equal(score(networkPage(), { ...networkPage(), programName: 'GAI-Settings ' }), 1, 'program names compare case-insensitively');
    assert.equal(score(networkPage(), { ...networkPage(), windowTitle: 'Preferences — Keyboard' }), 0);
    assert.equal(score(networkPage(), { ...networkPage(), windowTitle: 'Settings (2)' }), 1, 'counters in titles are volatile');
  });

  it('reads an OCR analysis: lines inside the window in reading order, tall lines as headings', function () {
    const line = (text: string, x: number, y: number, height = 14, confidence = 0.9): OcrElement => ({ text, confidence, bbox: { x, y, width: 100, height }, level: 'line' });
    const word = (text: string, x: number, y: number): OcrElement => ({ text, confidence: 0.9, bbox: { x, y, width: 40, height: 14 }, level: 'word' });
    const analysis = {
      fullText: '',
      elements: [
        line('Apply', 300, 500),
        line('Network', 300, 100, 28),
        word('Network', 300, 100),
        line('General', 20, 120),
        line('Wi-Fi', 300, 150),
        line('%%~~', 300, 170, 14, 0.2),
        line('12:34', 1800, 5), // the desktop panel's clock, outside the window
      ],
    };
    const reading = readingFromOcr({ appName: 'gai-settings', title: 'Settings' }, analysis, { bounds: { x: 0, y: 50, width: 1000, height: 700 } });
    assert.deepEqual(reading, { programName: 'gai-settings', windowTitle: 'Settings', lines: ['Network', 'General', 'Wi-Fi', 'Apply'], headings: ['Network'] });
    const wordsOnly = readingFromOcr({ appName: 'a', title: 't' }, { fullText: 'One two\n\nThree', elements: [word('One', 0, 0)] });
    assert.deepEqual(wordsOnly.lines, ['One two', 'Three']);
  });
});
