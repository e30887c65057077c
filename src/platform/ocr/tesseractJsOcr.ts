// OcrEngine over tesseract.js (WASM in worker threads): a small pool of workers (see
// tesseractJsWorkers.ts), fed greyscale PGM, with offline language data from @tesseract.js-data/<lang>.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type * as Tesseract from 'tesseract.js';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import { abortError, elementsFromLines, prepareForOcr, readingOrderText, type EngineLine } from '../../desktop/ocr/ocrHelpers';
import type { OcrEngine, OcrLayout, OcrOptions } from '../../desktop/ports/ocrPort';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import { repairLetterCase } from '../../desktop/ocr/textRegions';
import { TesseractWorkerPool } from './tesseractJsWorkers';
import { primerImage } from './ocrPrimer';

export interface TesseractJsOcrOptions {
  /** Tesseract language code(s), e.g. `eng` or `eng+deu`; default `eng`. */
  language?: string;
  /**
   * Folder holding `<lang>.traineddata.gz` (or `.traineddata`). Default: the `4.0.0_best_int`
   * folder of the installed `@tesseract.js-data/<lang>` package (smaller and faster than `4.0.0`).
   */
  langPath?: string;
  /** createWorker never settles when it cannot load its data, so it is raced against this. */
  startTimeoutMs?: number;
  /** A worker that died mid-job never answers; a job taking longer than this restarts it. */
  recognizeTimeoutMs?: number;
  /**
   * Workers (WASM threads) reading in parallel, each started on first need; default
   * `min(2, os.availableParallelism())`. Each costs a model's memory and a start-up.
   */
  workers?: number;
}

const DEFAULT_START_TIMEOUT_MS = 20_000;
const DEFAULT_RECOGNIZE_TIMEOUT_MS = 60_000;
const DATA_FOLDER = '4.0.0_best_int';

export const PSM_BY_LAYOUT: Readonly<Record<OcrLayout, string>> = { sparse: '11', line: '7', word: '8', char: '10' };

/** Set once at start: Sauvola-style local thresholding copes with UI gradients (see the notes). */
const INIT_PARAMETERS: Readonly<Record<string, string>> = {
  thresholding_method: '2',
  tessedit_pageseg_mode: PSM_BY_LAYOUT.sparse,
  // Tesseract's diagnostics ("Estimating resolution as ...", statistics dumps) would go to
  // our stdout, which the CLI uses for results.
  debug_file: '/dev/null',
};

export class TesseractJsOcr implements OcrEngine {
  readonly name = 'tesseract.js';
  /** How many images it reads at once (one worker each); LayeredOcr splits its first pass by it. */
  readonly parallelism: number;
  private readonly pool: TesseractWorkerPool;
  private disposed = false;

  constructor(options: TesseractJsOcrOptions = {}) {
    const language = options.language ?? 'eng';
    const langPath = options.langPath;
    this.parallelism = Math.max(1, Math.floor(options.workers ?? defaultWorkers()));
    this.pool = new TesseractWorkerPool({
      language,
      languageData: () => resolveLanguageData(language, langPath),
      initParameters: INIT_PARAMETERS,
      initialPsm: PSM_BY_LAYOUT.sparse,
      size: this.parallelism,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      recognizeTimeoutMs: options.recognizeTimeoutMs ?? DEFAULT_RECOGNIZE_TIMEOUT_MS,
    });
  }

  /** Starts all workers now instead of on first use, and has each read once (hides the cold start). */
  async warmUp(): Promise<void> {
    if (this.disposed) throw new Error('tesseract.js OCR engine was disposed');
    await this.pool.warmUp();
    // One reading per worker, all at once: each idle worker takes one (ocrPrimer.ts). One that
    // fails (a worker given too short a time) is no failure to start: the next job says so.
    const primer = primerImage();
    await Promise.all(Array.from({ length: this.parallelism }, () => this.recognize(primer, { scale: 2 }).catch(() => undefined)));
  }

  async recognize(image: ScreenImage, options: OcrOptions = {}): Promise<OcrAnalysis> {
    if (this.disposed) throw new Error('tesseract.js OCR engine was disposed');
    if (options.signal?.aborted) throw abortError(options.signal);
    // Tesseract rejects empty images; an empty crop simply holds no text.
    if (image.width <= 0 || image.height <= 0) return { fullText: '', elements: [] };
    // Pixel preparation runs here, not in the worker: the workers only run tesseract.
    const prepared = prepareForOcr(image, options.scale);
    const page = await this.pool.recognize(prepared.pgm, PSM_BY_LAYOUT[options.layout ?? 'sparse'], options.signal);
    const lines = linesOf(page);
    repairLetterCase(lines, prepared.grey);
    const elements = elementsFromLines(lines, prepared.scale, prepared.origin);
    return { fullText: readingOrderText(elements), elements };
  }

  dispose(): Promise<void> {
    this.disposed = true;
    return this.pool.dispose();
  }
}

/**
 * One worker per core, two at most: each is one WASM thread with its own model and heap
 * (~60-90 MB RSS each, measured), and LayeredOcr cuts a 1080p first pass in two.
 */
function defaultWorkers(): number {
  return Math.min(2, availableParallelism());
}

/** Finds the folder with the traineddata for each language, failing with the package to install. */
export function resolveLanguageData(language: string, langPath: string | undefined): { langPath: string; gzip: boolean } {
  const codes = language.split('+').filter((code) => code.length > 0);
  if (codes.length === 0) throw new Error(`no OCR language given (got "${language}")`);
  let folder = langPath;
  if (folder === undefined) {
    const folders = [...new Set(codes.map(packageDataFolder))];
    if (folders.length > 1) {
      throw new Error(`OCR languages "${language}" come from different packages; copy their .traineddata.gz files into one folder and pass it as langPath`);
    }
    folder = folders[0]!;
  }
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`OCR langPath ${folder} is not a folder`);
  // createWorker hangs (and leaks its thread) on a missing file, so check before starting it.
  const files = new Set(readdirSync(folder));
  const missing = codes.filter((code) => !files.has(`${code}.traineddata.gz`) && !files.has(`${code}.traineddata`));
  if (missing.length > 0) {
    throw new Error(`OCR language data not found: ${missing.map((code) => `${code}.traineddata(.gz)`).join(', ')} is missing in ${folder}`);
  }
  const gzip = codes.every((code) => files.has(`${code}.traineddata.gz`));
  if (!gzip && codes.some((code) => !files.has(`${code}.traineddata`))) {
    throw new Error(`OCR language data in ${folder} mixes .traineddata and .traineddata.gz; use one kind`);
  }
  return { langPath: folder, gzip };
}

function packageDataFolder(code: string): string {
  const packageName = `@tesseract.js-data/${code}`;
  let packageJson: string;
  try {
    // Resolved at run time from wherever node_modules is (the bundle in dist/ has no source path).
    packageJson = require.resolve(`${packageName}/package.json`);
  } catch {
    throw new Error(`OCR language "${code}" is not installed: npm install ${packageName}`);
  }
  const base = dirname(packageJson);
  const best = join(base, DATA_FOLDER);
  if (existsSync(best)) return best;
  // Other versions of the data packages may use another layout; take any folder with the file.
  const candidates = readdirSync(base).filter((entry) => existsSync(join(base, entry, `${code}.traineddata.gz`)));
  if (candidates[0] !== undefined) return join(base, candidates[0]);
  throw new Error(`${packageName} has no ${DATA_FOLDER}/${code}.traineddata.gz; reinstall it`);
}

function linesOf(page: Tesseract.Page): EngineLine[] {
  const lines: EngineLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        lines.push({
          confidence: line.confidence,
          words: line.words.map((w) => ({ text: w.text, confidence: w.confidence, x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1 })),
        });
      }
    }
  }
  return lines;
}
