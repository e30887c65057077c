// OCR on a real screen: the Tk fixture on the suite's virtual display, grabbed through the
// product's own screen adapter (nut-js; nothing outside ensureDeps' packages), read by the engines.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../src/common/geometry';
import type { OcrAnalysis, OcrElement } from '../../src/desktop/ocr/ocrTypes';
import { NativeTesseractOcr, parseTsv } from '../../src/platform/ocr/nativeTesseractOcr';
import { NutScreen } from '../../src/platform/nut/nutScreen';
import { TesseractJsOcr, type TesseractJsOcrOptions } from '../../src/platform/ocr/tesseractJsOcr';
import { LayeredOcr, merge } from '../../src/desktop/ocr/layeredOcr';
import { recognizeInBands } from '../../src/desktop/ocr/ocrBands';
import { elementsFromLines, readingOrderText, toScreenBox, upscaleGrey, type EngineLine } from '../../src/desktop/ocr/ocrHelpers';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import { findTextRegions, repairLetterCase } from '../../src/desktop/ocr/textRegions';
import { launchFixture, suiteDisplay, type Fixture, type SuiteDisplay, type WidgetGeometry } from './support/fixture';

const repoRoot = path.resolve(__dirname, '..', '..');

/**
 * The whole screen as RGBA through the product's screen port. nut-js captures the display
 * named by DISPLAY, which scripts/test.mjs set to the suite's display (suiteDisplay checks it).
 */
async function grabScreen(width = 1920, height = 1080): Promise<ScreenImage> {
  const image = await new NutScreen().grab();
  if (image.width !== width || image.height !== height || image.data.length !== width * height * 4) {
    throw new Error(`grab is ${image.width}x${image.height} with ${image.data.length} bytes, expected ${width}x${height} RGBA`);
  }
  return image;
}

/** A rectangle of a grab, keeping screen coordinates through `origin`. */
function crop(image: ScreenImage, box: BBox): ScreenImage {
  const data = Buffer.alloc(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y - image.origin.y + y) * image.width + (box.x - image.origin.x)) * 4;
    image.data.copy(data, y * box.width * 4, from, from + box.width * 4);
  }
  return { width: box.width, height: box.height, data, origin: { x: box.x, y: box.y } };
}

function grow(box: BBox, margin: number): BBox {
  return { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin };
}

function centreIn(inner: BBox, outer: BBox): boolean {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return cx >= outer.x && cx <= outer.x + outer.width && cy >= outer.y && cy <= outer.y + outer.height;
}

/** Words whose centres fall inside the widget, left to right, joined (case folded). */
function textIn(widget: BBox, result: OcrAnalysis): string {
  return result.elements
    .filter((e) => e.level === 'word' && centreIn(e.bbox, widget))
    .sort((a, b) => a.bbox.x - b.bbox.x)
    .map((e) => e.text)
    .join(' ')
    .toLowerCase();
}

/** The label was read inside its widget (as a whole word sequence, ignoring case). */
function reads(widget: WidgetGeometry, result: OcrAnalysis): boolean {
  return ` ${textIn(widget, result)} `.includes(` ${(widget.label ?? '').toLowerCase()} `);
}

/** No two words share a place (each one's centre inside the other). */
function assertNoDuplicateWords(result: OcrAnalysis): void {
  const words = result.elements.filter((e) => e.level === 'word');
  for (const [i, a] of words.entries()) {
    const twin = words.slice(i + 1).find((b) => centreIn(a.bbox, b.bbox) && centreIn(b.bbox, a.bbox));
    assert.ok(!twin, `"${a.text}" and "${twin?.text}" at the same place ${JSON.stringify(a.bbox)}`);
  }
}

function findWord(result: OcrAnalysis, text: string): OcrElement | undefined {
  return result.elements.find((e) => e.level === 'word' && e.text.toLowerCase() === text.toLowerCase());
}

/** Runs a snippet in a fresh node (with tsx) and resolves with its exit code, output and duration. */
function runNode(code: string, timeoutMs: number): Promise<{ code: number | null; output: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, output, ms: Date.now() - started });
    });
  });
}

const WORD_LABELS = ['save_button', 'cancel_button', 'open_file_button', 'save_as_button', 'apply_button', 'name_label', 'email_label', 'status_label'];
const GLYPH_BUTTONS = ['plus_button', 'minus_button', 'equals_button', 'x_button', 'back_button'];

describe('OCR on the desktop', function () {
  this.timeout(60000);
  let display: SuiteDisplay;
  let fixture: Fixture;
  let screen: ScreenImage;
  let engine: TesseractJsOcr;
  let plain: OcrAnalysis;

  before(async function () {
    display = suiteDisplay();
    fixture = await launchFixture(display);
    // Let Tk finish drawing before the grab.
    await new Promise((resolve) => setTimeout(resolve, 300));
    screen = await grabScreen();
    engine = new TesseractJsOcr();
    plain = await engine.recognize(screen);
  });

  /** Engines with their own options, disposed at the end. */
  const ownEngines: TesseractJsOcr[] = [];
  const ownEngine = (options: TesseractJsOcrOptions): TesseractJsOcr => ownEngines[ownEngines.push(new TesseractJsOcr(options)) - 1]!;

  after(async function () {
    await Promise.all([engine, ...ownEngines].map((e) => e?.dispose()));
    await fixture?.close();
  });

  /** Widgets with a visible label (entries carry their field's name, but show no text). */
  function labelledWidgets(): Array<[string, WidgetGeometry]> {
    return Object.entries(fixture.ready.widgets).filter(([name, w]) => w.label !== null && !name.endsWith('_entry'));
  }

  describe('TesseractJsOcr', function () {
    it('reads the labels of the Tk window, with word boxes whose centres are inside the widgets', function () {
      const missed = WORD_LABELS.filter((name) => !reads(fixture.widget(name), plain));
      assert.deepEqual(missed, [], `missed: ${missed.map((n) => `${n} (read "${textIn(fixture.widget(n), plain)}")`).join(', ')}`);
      const cancel = findWord(plain, 'Cancel');
      assert.ok(cancel && centreIn(cancel.bbox, fixture.widget('cancel_button')), `Cancel at ${JSON.stringify(cancel?.bbox)}`);
      for (const e of plain.elements) assert.ok(e.confidence >= 0 && e.confidence <= 1, `confidence ${e.confidence} of "${e.text}"`);
    });

    it('returns line elements around their words, and the full text in reading order', function () {
      const lines = plain.elements.filter((e) => e.level === 'line');
      assert.ok(lines.length > 0, 'no line elements');
      const openFile = lines.find((l) => /open file/i.test(l.text));
      assert.ok(openFile, `no line with "Open File" among: ${lines.map((l) => l.text).join(' | ')}`);
      const open = findWord(plain, 'Open');
      assert.ok(open && centreIn(open.bbox, openFile.bbox), 'the line box holds its words');
      const text = plain.fullText.toLowerCase();
      assert.ok(text.indexOf('cancel') >= 0 && text.indexOf('cancel') < text.indexOf('status'), `reading order:\n${plain.fullText}`);
    });

    it('maps boxes back to screen pixels when upscaling and for images with an origin', async function () {
      const widget = fixture.widget('cancel_button');
      // Inside the button's relief: in line mode its border would be read as part of the word.
      const region = crop(screen, grow(widget, -3));
      const at1 = findWord(await engine.recognize(region, { layout: 'line' }), 'Cancel');
      const at3 = findWord(await engine.recognize(region, { layout: 'line', scale: 3 }), 'Cancel');
      assert.ok(at1 && at3, 'Cancel read at both scales');
      assert.ok(centreIn(at1.bbox, widget) && centreIn(at3.bbox, widget), `boxes ${JSON.stringify([at1.bbox, at3.bbox])} in ${JSON.stringify(widget)}`);
      for (const key of ['x', 'y', 'width', 'height'] as const) {
        assert.ok(Math.abs(at1.bbox[key] - at3.bbox[key]) <= 2, `${key}: ${at1.bbox[key]} at 1x vs ${at3.bbox[key]} at 3x`);
      }
      const full = findWord(plain, 'Cancel');
      assert.ok(full && Math.abs(full.bbox.x - at1.bbox.x) <= 2 && Math.abs(full.bbox.y - at1.bbox.y) <= 2, 'same box as in the full-screen pass');
    });

    it('reads one glyph with the char layout, and concurrent calls in mixed layouts on its workers', async function () {
      const crops = ['equals_button', 'plus_button', 'save_button', 'apply_button'].map((name) => crop(screen, grow(fixture.widget(name), -3)));
      // More calls than workers, page modes mixed: each worker switches its own (sparse again
      // for the LayeredOcr tests below).
      const layouts = [{ layout: 'char', scale: 2 }, { layout: 'char', scale: 2 }, { layout: 'word' }, { layout: 'line' }] as const;
      for (let round = 0; round < 2; round++) {
        const read = await Promise.all(crops.map((image, i) => engine.recognize(image, layouts[i])));
        assert.deepEqual(read.map((r) => r.elements.find((e) => e.level === 'word')?.text.toLowerCase()), ['=', '+', 'save', 'apply']);
      }
    });

    it('gives up on a call that takes too long and reads the next on a fresh worker', async function () {
      const hasty = ownEngine({ workers: 1, recognizeTimeoutMs: 30 });
      await hasty.warmUp();
      await assert.rejects(hasty.recognize(screen), /took longer than 30 ms/);
      const read = await hasty.recognize(crop(screen, grow(fixture.widget('apply_button'), -3)), { layout: 'word' });
      assert.equal(read.elements.find((e) => e.level === 'word')?.text, 'Apply');
    });

    it('rejects aborted calls, queued ones at once, without disturbing the others', async function () {
      const controller = new AbortController();
      controller.abort();
      const apply = crop(screen, grow(fixture.widget('apply_button'), -3));
      await assert.rejects(engine.recognize(apply, { signal: controller.signal }), { name: 'AbortError' });
      // One worker, busy with the screen: the next call waits in the queue when it is aborted.
      const one = ownEngine({ workers: 1 });
      const busy = one.recognize(screen);
      const waiting = new AbortController();
      const queued = one.recognize(apply, { layout: 'word', signal: waiting.signal });
      const started = performance.now();
      waiting.abort();
      await assert.rejects(queued, { name: 'AbortError' });
      assert.ok(performance.now() - started < 50, 'rejected at once');
      assert.ok(reads(fixture.widget('cancel_button'), await busy), 'the running call is not disturbed');
      assert.equal((await one.recognize(apply, { layout: 'word' })).elements.find((e) => e.level === 'word')?.text, 'Apply');
    });
  });

  describe('LayeredOcr', function () {
    let layered: LayeredOcr;
    let result: OcrAnalysis;

    before(async function () {
      // Shares the workers; disposing the layered engine would end them, so only the outer after
      // does. Two bands whatever this machine's core count, so the band path is what is tested.
      layered = new LayeredOcr(engine, { bands: 2 });
      result = await layered.recognize(screen);
      assert.equal(layered.lastStats?.bands, 2);
    });

    it('finds the single-glyph buttons and the small label that plain sparse OCR misses', function () {
      const targets = [...GLYPH_BUTTONS, 'small_label'];
      const missedByPlain = targets.filter((name) => !reads(fixture.widget(name), plain));
      const missedByLayered = targets.filter((name) => !reads(fixture.widget(name), result));
      assert.deepEqual(missedByLayered, [], `layered missed ${missedByLayered.map((n) => `${fixture.widget(n).label} (read "${textIn(fixture.widget(n), result)}")`).join(', ')}`);
      // The point of the second pass: on this screen plain OCR misses at least one of them.
      assert.ok(missedByPlain.length > 0, 'plain OCR read every glyph button; the second pass is not needed here');
      for (const [glyph, name] of [['=', 'equals_button'], ['+', 'plus_button']] as const) {
        const widget = fixture.widget(name);
        const word = result.elements.find((e) => e.level === 'word' && e.text === glyph && centreIn(e.bbox, widget));
        assert.ok(word, `no "${glyph}" word inside ${name} ${JSON.stringify(widget)}`);
        assert.ok(word.bbox.width < widget.width / 2 && word.bbox.height < widget.height, `a glyph-sized box: ${JSON.stringify(word.bbox)}`);
      }
    });

    it('reads at least 98% of the fixture labels inside their widgets', function () {
      const widgets = labelledWidgets();
      const missed = widgets.filter(([, w]) => !reads(w, result)).map(([name, w]) => `${name} "${w.label}" (read "${textIn(w, result)}")`);
      const recall = (widgets.length - missed.length) / widgets.length;
      assert.ok(recall >= 0.98, `recall ${(recall * 100).toFixed(1)}% of ${widgets.length}; missed: ${missed.join(', ')}`);
    });

    it('merges without duplicates and keeps what the first pass read', function () {
      assertNoDuplicateWords(result);
      for (const name of WORD_LABELS) assert.ok(reads(fixture.widget(name), result), `${name} kept`);
      assert.ok(result.elements.some((e) => e.level === 'line' && e.text.includes('<-')), 'pass-2 words come with a line');
    });

    it('reads text cut by band edges once, whole, in the band that holds its centre', async function () {
      // Eight bands over the window, cut where the text balances (not in gaps): through labels.
      const window = crop(screen, fixture.ready.geometry);
      const banded = await recognizeInBands(engine, window, 8, 40, {}, 0);
      const whole = await engine.recognize(window);
      const missed = WORD_LABELS.filter((name) => !reads(fixture.widget(name), banded));
      assert.deepEqual(missed, [], `missed: ${missed.map((n) => `${n} (read "${textIn(fixture.widget(n), banded)}")`).join(', ')}`);
      assertNoDuplicateWords(banded);
      const [inBands, inOne] = [banded, whole].map((r) => r.elements.filter((e) => e.level === 'word').length);
      assert.ok(Math.abs(inBands! - inOne!) <= 0.1 * inOne!, `${inBands} words in bands, ${inOne} in one read`);
    });

    it('answers a repeated call from its region cache', async function () {
      const again = await layered.recognize(screen);
      const stats = layered.lastStats;
      assert.ok(stats && stats.recognized === 0 && stats.cached > 0, `stats ${JSON.stringify(stats)}`);
      assert.deepEqual(
        again.elements.filter((e) => e.level === 'word').map((e) => e.text),
        result.elements.filter((e) => e.level === 'word').map((e) => e.text),
      );
    });

    it('finds candidate regions for every label of the fixture', function () {
      const regions = findTextRegions(screen);
      const missing = labelledWidgets().filter(([, w]) => !regions.some((r) => centreIn(r.bbox, w)));
      assert.deepEqual(missing.map(([name]) => name), []);
      const glyph = regions.find((r) => centreIn(r.bbox, fixture.widget('equals_button')));
      assert.equal(glyph?.layout, 'char');
    });
  });

  describe('NativeTesseractOcr', function () {
    it('reads the same labels as tesseract.js, when the tesseract CLI is installed', async function () {
      if (!(await NativeTesseractOcr.available())) {
        this.test!.title += ' (skipped: no `tesseract` with eng data on PATH; `node scripts/ensureDeps.mjs` installs tesseract-ocr on Debian)';
        this.skip();
      }
      const native = await new NativeTesseractOcr().recognize(screen);
      const byJs = WORD_LABELS.filter((name) => reads(fixture.widget(name), plain));
      const byNative = WORD_LABELS.filter((name) => reads(fixture.widget(name), native));
      assert.deepEqual(byNative, byJs, `native read: ${WORD_LABELS.map((n) => textIn(fixture.widget(n), native)).join(' | ')}`);
      assert.ok(native.elements.some((e) => e.level === 'line'), 'native lines too');
    });
  });
});

describe('TesseractJsOcr start-up and shutdown', function () {
  this.timeout(30000);
  const image: ScreenImage = { width: 40, height: 20, data: Buffer.alloc(40 * 20 * 4, 255), origin: { x: 0, y: 0 } };

  it('fails clearly when the language data folder is empty', async function () {
    const empty = mkdtempSync(path.join(tmpdir(), 'gai-ocr-empty-'));
    const ocr = new TesseractJsOcr({ langPath: empty, startTimeoutMs: 5000 });
    try {
      const started = Date.now();
      await assert.rejects(ocr.recognize(image), (error: Error) => error.message.includes('eng.traineddata') && error.message.includes(empty));
      assert.ok(Date.now() - started < 2000, 'fails before any timeout');
    } finally {
      await ocr.dispose();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('names the package to install for a language that is not there', async function () {
    const ocr = new TesseractJsOcr({ language: 'xyz' });
    await assert.rejects(ocr.recognize(image), /npm install @tesseract\.js-data\/xyz/);
    await ocr.dispose();
  });

  it('gives up on a worker that does not start in time, without keeping the process alive', async function () {
    const run = await runNode(
      `const { TesseractJsOcr } = require('./src/platform/ocr/tesseractJsOcr.ts');
       const image = { width: 40, height: 20, data: Buffer.alloc(3200, 255), origin: { x: 0, y: 0 } };
       new TesseractJsOcr({ startTimeoutMs: 1 }).recognize(image).then(() => console.log('started?!'), (e) => console.log('ERR ' + e.message));`,
      20000,
    );
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /ERR tesseract\.js worker did not start within 1 ms/);
  });

  it('lets the process exit after dispose(), and with idle workers never disposed', async function () {
    const run = await runNode(
      `const { TesseractJsOcr } = require('./src/platform/ocr/tesseractJsOcr.ts');
       const [ocr, kept] = [new TesseractJsOcr(), new TesseractJsOcr({ workers: 2 })];
       const image = { width: 40, height: 20, data: Buffer.alloc(3200, 255), origin: { x: 0, y: 0 } };
       const both = kept.warmUp().then(() => Promise.all([kept.recognize(image), kept.recognize(image, { layout: 'word' })]));
       Promise.all([ocr.recognize(image), both]).then(async () => { await ocr.dispose(); console.log('disposed'); });`,
      20000,
    );
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, /disposed/);
  });

  it('disposes an engine that never started, and refuses work afterwards', async function () {
    const ocr = new TesseractJsOcr();
    await ocr.dispose();
    await assert.rejects(ocr.recognize(image), /disposed/);
  });
});

describe('OCR result assembly', function () {
  const word = (text: string, x: number, y: number, confidence = 0.9): OcrElement => ({ text, confidence, bbox: { x, y, width: 20, height: 10 }, level: 'word' });

  it('maps engine boxes through the upscale factor and the image origin', function () {
    assert.deepEqual(toScreenBox(30, 60, 90, 90, 3, { x: 100, y: 200 }), { x: 110, y: 220, width: 20, height: 10 });
    const grey = upscaleGrey({ width: 3, height: 2, data: new Uint8Array([0, 100, 200, 0, 100, 200]) }, 2);
    assert.deepEqual([grey.width, grey.height, grey.data[0], grey.data[11]], [6, 4, 0, 200]);
  });

  it('groups TSV words into lines by block, paragraph and line', function () {
    const row = (block: number, line: number, word: number, left: number, conf: number, text: string) =>
      ['5', '1', String(block), '1', String(line), String(word), String(left), '10', '30', '12', String(conf), text].join('\t');
    const tsv = ['level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext', '4\t1\t1\t1\t1\t0\t0\t0\t1\t1\t-1\t',
      row(1, 1, 1, 10, 90, 'Open'), row(1, 1, 2, 50, 70, 'File'), row(2, 1, 1, 300, 95, 'Cancel'), row(2, 1, 2, 340, 95, ' ')].join('\n');
    const lines = parseTsv(tsv);
    assert.deepEqual(lines.map((l) => [l.words.map((w) => w.text).join(' '), l.confidence]), [['Open File', 80], ['Cancel', 95]]);
    const elements = elementsFromLines(lines, 2, { x: 1000, y: 0 });
    assert.deepEqual(elements.filter((e) => e.level === 'line').map((e) => [e.text, e.bbox.x, e.confidence]), [['Open File', 1005, 0.8], ['Cancel', 1150, 0.95]]);
  });

  it('orders the full text in rows, left to right', function () {
    const line = (text: string, x: number, y: number): OcrElement => ({ ...word(text, x, y), level: 'line' });
    assert.equal(readingOrderText([line('b', 300, 12), line('c', 10, 60), line('a', 10, 10)]), 'a  b\nc');
  });

  it('lets a second-pass word replace the junk it overlaps and rebuilds the line', function () {
    const junk = word('[ez]', 100, 50, 0.4);
    const save = word('Save', 10, 50);
    const line: OcrElement = { text: 'Save [ez]', confidence: 0.6, bbox: { x: 10, y: 50, width: 110, height: 10 }, level: 'line' };
    const ok = word('OK', 102, 50, 0.6);
    const merged = merge([save, junk, line], [[ok]]);
    assert.deepEqual(merged.map((e) => `${e.level}:${e.text}`).sort(), ['line:OK', 'line:Save', 'word:OK', 'word:Save']);
  });

  it('sets the case of c, o, s, u, v, w, x, z from glyph heights', function () {
    // Glyphs as dark bars on white, 3 px wide and 2 px apart, bottoms on one baseline.
    const width = 60;
    const height = 20;
    const data = new Uint8Array(width * height).fill(255);
    const draw = (heights: number[], y1: number): EngineLine['words'][number] => {
      heights.forEach((h, i) => {
        for (let y = y1 - h; y < y1; y++) for (let x = 5 + i * 5; x < 8 + i * 5; x++) data[y * width + x] = 0;
      });
      return { text: '', confidence: 90, x0: 5, y0: y1 - Math.max(...heights), x1: 5 + heights.length * 5 - 2, y1 };
    };
    const cancel = { ...draw([10, 7, 7, 7, 7, 10], 12), text: 'cancel' };
    const lines: EngineLine[] = [{ confidence: 90, words: [cancel] }];
    repairLetterCase(lines, { width, height, data });
    assert.equal(lines[0]!.words[0]!.text, 'Cancel');
  });
});
