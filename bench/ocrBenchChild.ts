// Runs inside the bench's private 1920x1080 display (started by ocrBench.ts): start-up,
// full-screen and window timings of tesseract.js (plain sparse and layered), the tesseract CLI
// beside it, and label recall on the Tk fixture and on a real galculator window. Screens are
// grabbed through the product's screen adapter, which captures the display named by DISPLAY.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../src/common/geometry';
import type { OcrAnalysis } from '../src/desktop/ocr/ocrTypes';
import { NativeTesseractOcr } from '../src/platform/ocr/nativeTesseractOcr';
import { TesseractJsOcr } from '../src/platform/ocr/tesseractJsOcr';
import { LayeredOcr } from '../src/desktop/ocr/layeredOcr';
import type { OcrEngine } from '../src/desktop/ports/ocrPort';
import { NutScreen } from '../src/platform/nut/nutScreen';
import type { ScreenImage } from '../src/desktop/ports/screenPort';
import { ScreenReader } from '../src/desktop/reading/screenReader';
import { findTextRegions } from '../src/desktop/ocr/textRegions';
import { launchFixture, type DisplayEnv, type Fixture } from '../test/desktop/support/fixture';
import { median, type BenchRow } from './benchReport';
import { hardCaseRows } from './ocrHardCasesBench';

const WIDTH = 1920;
const HEIGHT = 1080;
const RUNS = 5;
const screenPort = new NutScreen();

/** galculator 2.x basic mode, GTK3 default theme: button centres from the client area's corner. */
const GALCULATOR_BUTTONS: ReadonlyArray<{ text: string; x: number; y: number; tall?: boolean }> = [
  { text: 'C', x: 185, y: 113 }, { text: 'AC', x: 243, y: 113 }, { text: '<-', x: 298, y: 113 },
  { text: '(', x: 35, y: 159 }, { text: ')', x: 100, y: 159 }, { text: 'MS', x: 166, y: 159 }, { text: 'MR', x: 230, y: 159 }, { text: 'M+', x: 296, y: 159 },
  { text: '7', x: 35, y: 199 }, { text: '8', x: 100, y: 199 }, { text: '9', x: 165, y: 199 }, { text: '/', x: 230, y: 199 }, { text: 'sqrt', x: 295, y: 199 },
  { text: '4', x: 35, y: 239 }, { text: '5', x: 100, y: 239 }, { text: '6', x: 165, y: 239 }, { text: '*', x: 230, y: 239 }, { text: '%', x: 295, y: 239 },
  { text: '1', x: 35, y: 279 }, { text: '2', x: 100, y: 279 }, { text: '3', x: 165, y: 279 }, { text: '-', x: 230, y: 279 }, { text: '=', x: 295, y: 299, tall: true },
  { text: '0', x: 35, y: 319 }, { text: '.', x: 100, y: 319 }, { text: '+/-', x: 165, y: 319 }, { text: '+', x: 230, y: 319 },
];
const GALCULATOR_CLIENT = { width: 331, height: 343 };

async function main(): Promise<void> {
  const display: DisplayEnv = { env: process.env };
  // Other work on the machine slows every figure: the load says how much to trust them.
  const rows: BenchRow[] = [{ name: 'ocr: machine load (1/5 min average at start)', value: loadavg()[0]!, unit: '', note: `5 min ${loadavg()[1]!.toFixed(2)}` }];
  const engine = new TesseractJsOcr();
  try {
    rows.push(...(await startUp()));
    await engine.warmUp();
    const fixture = await launchFixture(display);
    try {
      await delay(300);
      rows.push(...(await fixtureRows(display, fixture, engine)));
      rows.push(...(await workerRows(await grab())));
    } finally {
      await fixture.close();
    }
    rows.push(...(await galculatorRows(display, engine)));
    rows.push(...(await hardCaseRows(display.env, engine)));
  } finally {
    await engine.dispose();
  }
  process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
}

async function startUp(): Promise<BenchRow[]> {
  const cold: number[] = [];
  const first: number[] = [];
  const blank: ScreenImage = { width: WIDTH, height: HEIGHT, data: Buffer.alloc(WIDTH * HEIGHT * 4, 255), origin: { x: 0, y: 0 } };
  for (let i = 0; i < 3; i++) {
    const ocr = new TesseractJsOcr();
    cold.push(await time(() => ocr.warmUp()));
    first.push(await time(() => ocr.recognize(blank)));
    await ocr.dispose();
  }
  return [
    { name: 'ocr: tesseract.js worker start (createWorker + eng best_int)', value: median(cold), unit: 'ms', note: `runs ${cold.map(round).join(', ')}` },
    { name: 'ocr: first recognize after start (blank 1920x1080)', value: median(first), unit: 'ms' },
  ];
}

async function fixtureRows(display: DisplayEnv, fixture: Fixture, engine: TesseractJsOcr): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const screen = await grab();
  const labels = Object.entries(fixture.ready.widgets)
    .filter(([name, w]) => w.label !== null && !name.endsWith('_entry'))
    .map(([, w]) => ({ text: w.label!, box: { x: w.x, y: w.y, width: w.width, height: w.height } }));

  await engine.recognize(screen); // the first full-screen call is slower (allocations in the worker)
  const plainTimes: number[] = [];
  let plain: OcrAnalysis | undefined;
  for (let i = 0; i < RUNS; i++) plainTimes.push(await time(async () => (plain = await engine.recognize(screen))));
  rows.push({ name: 'ocr: full screen, tesseract.js plain sparse (warm)', value: median(plainTimes), unit: 'ms', note: 'fixture screen, one call (one worker)' });

  const uncached = new LayeredOcr(engine, { cacheSize: 0 });
  const layeredTimes: number[] = [];
  let layered: OcrAnalysis | undefined;
  for (let i = 0; i < 3; i++) layeredTimes.push(await time(async () => (layered = await uncached.recognize(screen))));
  const stats = uncached.lastStats!;
  rows.push({
    name: 'ocr: full screen, layered (warm, no region cache)',
    value: median(layeredTimes),
    unit: 'ms',
    note: `${engine.parallelism} workers, pass1 ${round(stats.pass1Ms)} ms in ${stats.bands} bands, regions ${round(stats.regionsMs)} ms (during pass 1), pass2 ${round(stats.pass2Ms)} ms: ${stats.uncovered}/${stats.regions} regions, ${stats.recognized} crops read`,
  });
  const cached = new LayeredOcr(engine);
  await cached.recognize(screen);
  const cachedTimes: number[] = [];
  for (let i = 0; i < 3; i++) cachedTimes.push(await time(() => cached.recognize(screen)));
  rows.push({ name: 'ocr: full screen, layered (region cache warm)', value: median(cachedTimes), unit: 'ms' });
  rows.push({ name: 'ocr: text region search, full screen', value: median(await repeat(RUNS, () => findTextRegions(screen))), unit: 'ms', note: 'runs on the main thread while pass 1 runs in the workers' });

  const window = cropImage(screen, fixtureWindow(fixture));
  const windowPlain = await repeat(RUNS, () => engine.recognize(window));
  rows.push({ name: `ocr: fixture window ${window.width}x${window.height}, plain`, value: median(windowPlain), unit: 'ms' });
  const windowLayered = new LayeredOcr(engine, { cacheSize: 0 });
  rows.push({ name: `ocr: fixture window ${window.width}x${window.height}, layered (no cache)`, value: median(await repeat(3, () => windowLayered.recognize(window))), unit: 'ms' });

  rows.push(recallRow('ocr: fixture label recall, plain', labels, plain!));
  rows.push(recallRow('ocr: fixture label recall, layered', labels, layered!, '>= 98'));

  if (await NativeTesseractOcr.available()) {
    const native = new NativeTesseractOcr();
    let nativeResult: OcrAnalysis | undefined;
    const nativeTimes = await repeat(3, async () => (nativeResult = await native.recognize(screen)));
    rows.push({ name: 'ocr: full screen, tesseract CLI (OMP_THREAD_LIMIT=1)', value: median(nativeTimes), unit: 'ms' });
    rows.push(recallRow('ocr: fixture label recall, tesseract CLI', labels, nativeResult!));
    const cancel = fixture.widget('cancel_button');
    const small = cropImage(screen, { x: cancel.x + 3, y: cancel.y + 3, width: cancel.width - 6, height: cancel.height - 6 });
    rows.push({ name: 'ocr: one button crop, tesseract CLI (process + model load)', value: median(await repeat(3, () => native.recognize(small, { layout: 'word' }))), unit: 'ms' });
    rows.push({ name: 'ocr: one button crop, tesseract.js', value: median(await repeat(RUNS, () => engine.recognize(small, { layout: 'word' }))), unit: 'ms' });
    // Layered over the CLI: every crop pays a process start and a model load.
    const nativeLayered = new LayeredOcr(native, { cacheSize: 0 });
    let nativeLayeredResult: OcrAnalysis | undefined;
    const nativeLayeredMs = await time(async () => (nativeLayeredResult = await nativeLayered.recognize(screen)));
    rows.push({ name: 'ocr: full screen, layered over tesseract CLI', value: nativeLayeredMs, unit: 'ms', note: `${nativeLayered.lastStats?.recognized} crops read` });
    rows.push(recallRow('ocr: fixture label recall, layered over tesseract CLI', labels, nativeLayeredResult!));
  } else {
    rows.push({ name: 'ocr: tesseract CLI', value: NaN, unit: 'ms', note: 'not installed' });
  }
  rows.push(...(await readerRows(display, fixture, engine)));
  return rows;
}

/**
 * The click-by-text path as the tools run it: ScreenReader over layered OCR, warm. An
 * unchanged screen is served from the last reading; after a click only the changed part
 * (the status label) is read again.
 */
async function readerRows(display: DisplayEnv, fixture: Fixture, engine: OcrEngine): Promise<BenchRow[]> {
  const reader = new ScreenReader(screenPort, new LayeredOcr(engine));
  const first = await reader.read();
  const same = await reader.read();
  const save = fixture.widget('save_button');
  await execFileText('xdotool', ['mousemove', '--sync', String(save.x + 10), String(save.y + 10), 'click', '1'], display.env);
  await fixture.waitFor((event) => event.event === 'click');
  await delay(200);
  const after = await reader.read();
  const found = after.analysis.elements.some((e) => e.level === 'word' && /clicked/i.test(e.text));
  return [
    { name: 'ocr: screen reader, first read (layered)', value: first.ocrMs, unit: 'ms', note: first.ocr },
    { name: 'ocr: screen reader, unchanged screen', value: same.ocrMs, unit: 'ms', goal: '< 250', met: same.ocrMs < 250, note: same.ocr },
    { name: 'ocr: screen reader, after a click (changed part only)', value: after.ocrMs, unit: 'ms', goal: '< 250', met: after.ocrMs < 250, note: `${after.ocr}; "clicked" read: ${found}` },
  ];
}

async function galculatorRows(display: DisplayEnv, engine: TesseractJsOcr): Promise<BenchRow[]> {
  // A private config dir: galculator remembers its mode and size, which would move the buttons.
  const home = mkdtempSync(path.join(tmpdir(), 'gai-galculator-'));
  let child: ChildProcess | undefined;
  try {
    child = spawn('galculator', [], { env: { ...display.env, HOME: home, XDG_CONFIG_HOME: home }, stdio: 'ignore' });
    const started = await new Promise<boolean>((resolve) => {
      child!.once('error', () => resolve(false));
      child!.once('spawn', () => resolve(true));
    });
    if (!started) return [{ name: 'ocr: galculator recall', value: NaN, unit: '%', note: 'galculator not installed' }];
    const id = (await execFileText('xdotool', ['search', '--sync', '--onlyvisible', '--class', 'galculator'], display.env)).trim().split('\n')[0]!;
    await delay(500);
    const info = await execFileText('xwininfo', ['-id', id], display.env);
    const client = {
      x: Number(/Absolute upper-left X:\s+(-?\d+)/.exec(info)?.[1]),
      y: Number(/Absolute upper-left Y:\s+(-?\d+)/.exec(info)?.[1]),
      width: Number(/Width:\s+(\d+)/.exec(info)?.[1]),
      height: Number(/Height:\s+(\d+)/.exec(info)?.[1]),
    };
    const layoutNote = client.width === GALCULATOR_CLIENT.width && client.height === GALCULATOR_CLIENT.height ? '' : ` (window ${client.width}x${client.height}, expected ${GALCULATOR_CLIENT.width}x${GALCULATOR_CLIENT.height}: positions may be off)`;
    const labels = GALCULATOR_BUTTONS.map((b) => ({
      text: b.text,
      box: { x: client.x + b.x - 28, y: client.y + b.y - (b.tall ? 38 : 18), width: 56, height: b.tall ? 76 : 36 },
    }));
    const screen = await grab();
    const plain = await engine.recognize(screen);
    const layeredEngine = new LayeredOcr(engine, { cacheSize: 0 });
    let layered: OcrAnalysis | undefined;
    const ms = await time(async () => (layered = await layeredEngine.recognize(screen)));
    const native = (await NativeTesseractOcr.available()) ? await new NativeTesseractOcr().recognize(screen) : undefined;
    return [
      recallRow(`ocr: galculator button recall, plain${layoutNote}`, labels, plain),
      ...(native ? [recallRow(`ocr: galculator button recall, tesseract CLI${layoutNote}`, labels, native)] : []),
      recallRow(`ocr: galculator button recall, layered${layoutNote}`, labels, layered!),
      { name: 'ocr: full screen with galculator, layered (no cache)', value: ms, unit: 'ms' },
    ];
  } finally {
    child?.kill('SIGTERM');
    await delay(200);
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Layered full-screen OCR with 1 and 2 workers, each in a fresh process so that its memory
 * (RSS, worker threads included) is its own. Runs alternate between the two counts.
 */
async function workerRows(screen: ScreenImage): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gai-ocr-bench-'));
  try {
    const file = path.join(dir, 'screen.rgba');
    writeFileSync(file, screen.data);
    const counts = [1, 2];
    const results = new Map<number, WorkerChildResult[]>(counts.map((n) => [n, []]));
    for (let pass = 0; pass < 2; pass++) {
      for (const n of counts) results.get(n)!.push(await runWorkerChild(file, n));
    }
    return counts.flatMap((n) => {
      const runs = results.get(n)!;
      const ms = runs.flatMap((r) => r.ms);
      return [
        { name: `ocr: full screen, layered, ${n} worker${n > 1 ? 's' : ''} (fresh process)`, value: median(ms), unit: 'ms', note: `pass1 ${round(median(runs.flatMap((r) => r.pass1Ms)))} ms; runs ${ms.map(round).join(', ')}` },
        { name: `ocr: memory with ${n} worker${n > 1 ? 's' : ''} (RSS after the reads)`, value: median(runs.map((r) => r.rssMb)), unit: 'MB', note: `peak ${round(median(runs.map((r) => r.maxRssMb)))} MB; before OCR ${round(median(runs.map((r) => r.baseRssMb)))} MB` },
      ];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface WorkerChildResult {
  ms: number[];
  pass1Ms: number[];
  baseRssMb: number;
  rssMb: number;
  maxRssMb: number;
}

function runWorkerChild(file: string, workers: number): Promise<WorkerChildResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import=tsx', __filename, '--worker-child', file, String(workers)], { timeout: 120_000 }, (error, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('WORKER_CHILD '));
      if (error || !line) reject(new Error(`worker bench child failed: ${error?.message ?? 'no result'}\n${stderr}`));
      else resolve(JSON.parse(line.slice('WORKER_CHILD '.length)) as WorkerChildResult);
    });
  });
}

/** The child: warm start, one untimed read, then timed layered reads of the saved screen. */
async function workerChild(file: string, workers: number): Promise<void> {
  const screen: ScreenImage = { width: WIDTH, height: HEIGHT, data: readFileSync(file), origin: { x: 0, y: 0 } };
  const mb = (bytes: number): number => bytes / 1024 / 1024;
  const baseRssMb = mb(process.memoryUsage().rss);
  const engine = new TesseractJsOcr({ workers });
  try {
    await engine.warmUp();
    const layered = new LayeredOcr(engine, { cacheSize: 0 });
    await layered.recognize(screen);
    const ms: number[] = [];
    const pass1Ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ms.push(await time(() => layered.recognize(screen)));
      pass1Ms.push(layered.lastStats!.pass1Ms);
    }
    const result: WorkerChildResult = { ms, pass1Ms, baseRssMb, rssMb: mb(process.memoryUsage().rss), maxRssMb: process.resourceUsage().maxRSS / 1024 };
    process.stdout.write(`WORKER_CHILD ${JSON.stringify(result)}\n`);
  } finally {
    await engine.dispose();
  }
}

function recallRow(name: string, labels: ReadonlyArray<{ text: string; box: BBox }>, result: OcrAnalysis, goal?: string): BenchRow {
  const missed = labels.filter((label) => !readsInside(label.text, label.box, result));
  const recall = (100 * (labels.length - missed.length)) / labels.length;
  const row: BenchRow = {
    name,
    value: recall,
    unit: '%',
    note: `${labels.length - missed.length}/${labels.length}${missed.length ? `; missed ${missed.map((m) => JSON.stringify(m.text)).join(' ')}` : ''}`,
  };
  if (goal) {
    row.goal = goal;
    row.met = recall >= Number(goal.replace(/[^\d.]/g, ''));
  }
  return row;
}

/** The label's words, in order and ignoring case, among the words centred inside the box. */
function readsInside(text: string, box: BBox, result: OcrAnalysis): boolean {
  const words = result.elements
    .filter((e) => e.level === 'word')
    .filter((e) => {
      const cx = e.bbox.x + e.bbox.width / 2;
      const cy = e.bbox.y + e.bbox.height / 2;
      return cx >= box.x && cx <= box.x + box.width && cy >= box.y && cy <= box.y + box.height;
    })
    .sort((a, b) => a.bbox.x - b.bbox.x)
    .map((e) => e.text.toLowerCase());
  return ` ${words.join(' ')} `.includes(` ${text.toLowerCase()} `);
}

function fixtureWindow(fixture: Fixture): BBox {
  const g = fixture.ready.geometry;
  return { x: g.x, y: g.y, width: Math.min(g.width, WIDTH - g.x), height: Math.min(g.height, HEIGHT - g.y) };
}

async function grab(): Promise<ScreenImage> {
  const image = await screenPort.grab();
  if (image.width !== WIDTH || image.height !== HEIGHT) throw new Error(`grab is ${image.width}x${image.height}, expected ${WIDTH}x${HEIGHT}`);
  return image;
}

function cropImage(image: ScreenImage, box: BBox): ScreenImage {
  const data = Buffer.alloc(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * image.width + box.x) * 4;
    image.data.copy(data, y * box.width * 4, from, from + box.width * 4);
  }
  return { width: box.width, height: box.height, data, origin: { x: box.x, y: box.y } };
}

function execFileText(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: 15000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

async function time(run: () => unknown): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function repeat(runs: number, run: () => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await time(run));
  return times;
}

function round(value: number): number {
  return Math.round(value);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

if (require.main === module) {
  const run = process.argv[2] === '--worker-child' ? workerChild(process.argv[3]!, Number(process.argv[4])) : main();
  run.catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
