// OcrEngine over tesseract.js (WASM in a worker thread): one worker, started on first use and
// reused, fed greyscale PGM, with offline language data from @tesseract.js-data/<lang>.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as Tesseract from 'tesseract.js';
import type { OcrAnalysis } from '../../core/types';
import { abortError, elementsFromLines, prepareForOcr, readingOrderText, type EngineLine } from '../ocrHelpers';
import type { OcrEngine, OcrLayout, OcrOptions } from '../ports/ocrPort';
import type { ScreenImage } from '../ports/screenPort';
import { repairLetterCase } from '../textRegions';

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

interface RunningWorker {
  worker: Tesseract.Worker;
  /** The worker_threads handle, to unref it while idle. */
  thread: ThreadHandle | undefined;
  psm: string;
  /** Rejects the job in flight when the thread dies. */
  died: Promise<never>;
}

interface ThreadHandle {
  ref(): void;
  unref(): void;
  once(event: 'exit', listener: (code: number) => void): unknown;
}

export class TesseractJsOcr implements OcrEngine {
  readonly name = 'tesseract.js';
  private readonly language: string;
  private readonly langPathOption: string | undefined;
  private readonly startTimeoutMs: number;
  private readonly recognizeTimeoutMs: number;
  private starting: Promise<RunningWorker> | undefined;
  /** The started worker behind `starting`, once it is up. */
  private current: RunningWorker | undefined;
  /** Jobs run one after another on the one worker; this is the tail of that chain. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(options: TesseractJsOcrOptions = {}) {
    this.language = options.language ?? 'eng';
    this.langPathOption = options.langPath;
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.recognizeTimeoutMs = options.recognizeTimeoutMs ?? DEFAULT_RECOGNIZE_TIMEOUT_MS;
  }

  /** Starts the worker now instead of on the first recognize (hides the cold start). */
  async warmUp(): Promise<void> {
    await this.enqueue(undefined, async () => {
      await this.running();
    });
  }

  recognize(image: ScreenImage, options: OcrOptions = {}): Promise<OcrAnalysis> {
    if (this.disposed) return Promise.reject(new Error('tesseract.js OCR engine was disposed'));
    // Tesseract rejects empty images; an empty crop simply holds no text.
    if (image.width <= 0 || image.height <= 0) return Promise.resolve({ fullText: '', elements: [] });
    // Pixel preparation runs before queueing: it does not need the worker.
    const prepared = prepareForOcr(image, options.scale);
    const psm = PSM_BY_LAYOUT[options.layout ?? 'sparse'];
    return this.enqueue(options.signal, async () => {
      const running = await this.running();
      const job = async (): Promise<Tesseract.RecognizeResult> => {
        // Posted back to back (the worker handles messages in order): waiting for the
        // setParameters reply first would delay the recognize by a round trip, during which
        // LayeredOcr keeps this thread busy with its region search.
        const switched = running.psm === psm ? undefined : running.worker.setParameters({ tessedit_pageseg_mode: psm as Tesseract.PSM });
        running.psm = psm;
        const recognized = running.worker.recognize(prepared.pgm, {}, { blocks: true, text: false });
        try {
          const [, result] = await Promise.all([switched, recognized]);
          return result;
        } catch (error) {
          running.psm = ''; // unknown now: set it again next time
          // The worker rejects with the message string, not an Error.
          throw error instanceof Error ? error : new Error(`tesseract.js: ${String(error)}`);
        }
      };
      const page = await this.withJobGuards(running, options.signal, job());
      const lines = linesOf(page.data);
      repairLetterCase(lines, prepared.grey);
      const elements = elementsFromLines(lines, prepared.scale, prepared.origin);
      return { fullText: readingOrderText(elements), elements };
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const starting = this.starting;
    this.starting = undefined;
    if (!starting) return;
    const running = await starting.catch(() => undefined);
    if (running) await running.worker.terminate();
  }

  private enqueue<T>(signal: AbortSignal | undefined, job: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (signal?.aborted) throw abortError(signal);
      if (this.disposed) throw new Error('tesseract.js OCR engine was disposed');
      return job();
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private running(): Promise<RunningWorker> {
    if (!this.starting) {
      const starting = this.start();
      this.starting = starting;
      // A failed start is not cached: the next call tries again (e.g. after a timeout).
      starting.catch(() => {
        if (this.starting === starting) this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async start(): Promise<RunningWorker> {
    const { langPath, gzip } = resolveLanguageData(this.language, this.langPathOption);
    // Loaded on first use. From the CommonJS bundle this is a native import() of a CommonJS
    // package: `default` is its module.exports, the named exports depend on Node's guesswork.
    const loaded = await import('tesseract.js');
    const tesseract = loaded.default ?? loaded;
    let startError: string | undefined;
    const created = tesseract.createWorker(this.language, tesseract.OEM.LSTM_ONLY, {
      langPath,
      gzip,
      // The default cache reads and writes ./<lang>.traineddata in the current directory.
      cacheMethod: 'none',
      // Without an errorHandler a rejected job throws inside tesseract.js's message handler,
      // an uncaught exception that ends the process. (`logger` must be left out, not undefined.)
      errorHandler: (error: unknown) => {
        startError ??= String(error);
      },
    });
    const configured = created.then(async (worker) => {
      await worker.setParameters(INIT_PARAMETERS);
      return worker;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // If it starts after all, do not leak its thread.
        void created.then((late) => late.terminate()).catch(() => undefined);
        const detail = startError ? ` Last error: ${startError}.` : '';
        reject(new Error(`tesseract.js worker did not start within ${this.startTimeoutMs} ms (language ${this.language}, langPath ${langPath}).${detail}`));
      }, this.startTimeoutMs);
    });
    let worker: Tesseract.Worker;
    try {
      worker = await Promise.race([configured, timeout]);
    } finally {
      clearTimeout(timer);
    }
    const thread = threadOf(worker);
    // Idle, the worker does not keep the process alive; a running job refs it (withJobGuards).
    thread?.unref();
    const died = new Promise<never>((_, reject) => {
      thread?.once('exit', (code) => {
        // Only forget this worker, not one started after it.
        if (this.current !== undefined && this.current === running) {
          this.current = undefined;
          this.starting = undefined;
        }
        reject(new Error(`tesseract.js worker thread exited (code ${code})`));
      });
    });
    const running: RunningWorker = { worker, thread, psm: PSM_BY_LAYOUT.sparse, died };
    running.died.catch(() => undefined);
    this.current = running;
    return running;
  }

  private restart(): void {
    const stale = this.starting;
    this.starting = undefined;
    this.current = undefined;
    void stale?.then((r) => r.worker.terminate()).catch(() => undefined);
  }

  /** Keeps the process alive while a job runs, and gives up on aborts, timeouts and dead threads. */
  private async withJobGuards<T>(running: RunningWorker, signal: AbortSignal | undefined, job: Promise<T>): Promise<T> {
    running.thread?.ref();
    let jobFailed = false;
    const watched = job.catch((error: unknown) => {
      jobFailed = true;
      throw error;
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`tesseract.js recognize took longer than ${this.recognizeTimeoutMs} ms`)), this.recognizeTimeoutMs);
      onAbort = () => reject(abortError(signal as AbortSignal));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([watched, stop, running.died]);
    } catch (error) {
      // The worker cannot cancel a job: after an abort, a timeout or a dead thread, drop the
      // worker and start afresh on the next call. A job's own error leaves the worker usable.
      watched.catch(() => undefined);
      if (!jobFailed) this.restart();
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      running.thread?.unref();
    }
  }
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

function threadOf(worker: Tesseract.Worker): ThreadHandle | undefined {
  // tesseract.js exposes its worker_threads Worker as `worker.worker` (not in its typings).
  const thread = (worker as unknown as { worker?: Partial<ThreadHandle> }).worker;
  if (thread && typeof thread.ref === 'function' && typeof thread.unref === 'function' && typeof thread.once === 'function') {
    return thread as ThreadHandle;
  }
  return undefined;
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
