// OcrEngine over the system `tesseract` CLI (e.g. Debian's tesseract-ocr): one process a call,
// greyscale PGM on stdin, TSV on stdout. An alternative where tesseract is installed natively.
import { execFile, spawn } from 'node:child_process';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import { abortError, elementsFromLines, prepareForOcr, readingOrderText, type EngineLine } from '../../desktop/ocr/ocrHelpers';
import type { OcrEngine, OcrOptions } from '../../desktop/ports/ocrPort';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import { repairLetterCase } from '../../desktop/ocr/textRegions';
import { PSM_BY_LAYOUT } from './tesseractJsOcr';

export interface NativeTesseractOcrOptions {
  /** The executable; default `tesseract` from PATH. */
  command?: string;
  /** Tesseract language code(s), e.g. `eng` or `eng+deu`; default `eng`. */
  language?: string;
  /** A call taking longer than this is killed. */
  timeoutMs?: number;
  /** Processes run at once; more only compete for the same cores. */
  maxConcurrent?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class NativeTesseractOcr implements OcrEngine {
  readonly name = 'tesseract-cli';
  private readonly command: string;
  private readonly language: string;
  private readonly timeoutMs: number;
  private readonly maxConcurrent: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private disposed = false;

  constructor(options: NativeTesseractOcrOptions = {}) {
    this.command = options.command ?? 'tesseract';
    this.language = options.language ?? 'eng';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 1);
  }

  /** True when the command runs and has the language's data installed. */
  static async available(options: Pick<NativeTesseractOcrOptions, 'command' | 'language'> = {}): Promise<boolean> {
    const command = options.command ?? 'tesseract';
    const codes = (options.language ?? 'eng').split('+');
    const listed = await new Promise<string | undefined>((resolve) => {
      execFile(command, ['--list-langs'], { timeout: 5000 }, (error, stdout, stderr) => resolve(error ? undefined : `${stdout}\n${stderr}`));
    });
    if (listed === undefined) return false;
    const installed = new Set(listed.split(/\r?\n/).map((line) => line.trim()));
    return codes.every((code) => installed.has(code));
  }

  async recognize(image: ScreenImage, options: OcrOptions = {}): Promise<OcrAnalysis> {
    if (this.disposed) throw new Error('tesseract CLI OCR engine was disposed');
    // Tesseract rejects empty images; an empty crop simply holds no text.
    if (image.width <= 0 || image.height <= 0) return { fullText: '', elements: [] };
    const prepared = prepareForOcr(image, options.scale);
    const psm = PSM_BY_LAYOUT[options.layout ?? 'sparse'];
    await this.acquire(options.signal);
    try {
      const tsv = await this.run(['stdin', 'stdout', '-l', this.language, '--psm', psm, '-c', 'thresholding_method=2', 'tsv'], prepared.pgm, options.signal);
      const lines = parseTsv(tsv);
      repairLetterCase(lines, prepared.grey);
      const elements = elementsFromLines(lines, prepared.scale, prepared.origin);
      return { fullText: readingOrderText(elements), elements };
    } finally {
      this.release();
    }
  }

  async dispose(): Promise<void> {
    // Nothing stays running between calls; only refuse new work.
    this.disposed = true;
  }

  private async acquire(signal: AbortSignal | undefined): Promise<void> {
    while (this.running >= this.maxConcurrent) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (signal?.aborted) throw abortError(signal);
    }
    this.running++;
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }

  private run(args: string[], input: Buffer, signal: AbortSignal | undefined): Promise<string> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      // One OpenMP thread: measured 190-250 ms a full screen, against 450-630 ms with OpenMP
      // spreading over 2 busy cores.
      const child = spawn(this.command, args, { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let failure: Error | undefined;
      const stop = (error: Error): void => {
        failure ??= error;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop(new Error(`tesseract took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
      const onAbort = (): void => stop(abortError(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      // EPIPE when tesseract exits before reading all of stdin; the exit code tells the story.
      child.stdin.on('error', () => undefined);
      child.on('error', (error) => stop(new Error(`could not run ${this.command}: ${error.message}`)));
      child.on('close', (code) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (failure) return reject(failure);
        if (code !== 0) {
          const message = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-3).join(' ');
          return reject(new Error(`tesseract exited with code ${code}: ${message}`));
        }
        resolve(Buffer.concat(stdout).toString('utf8'));
      });
      child.stdin.end(input);
    });
  }
}

/**
 * Tesseract's TSV: level, page, block, par, line, word, left, top, width, height, conf, text.
 * Level 5 rows are words; a line is the words sharing block, paragraph and line numbers. The TSV
 * has no line confidence, so a line gets the mean of its words'.
 */
export function parseTsv(tsv: string): EngineLine[] {
  const lines = new Map<string, EngineLine>();
  for (const row of tsv.split(/\r?\n/)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const [, page, block, par, line, , left, top, width, height, conf] = cells.map(Number);
    const text = cells.slice(11).join('\t');
    if (text.trim().length === 0 || [left, top, width, height].some((v) => v === undefined || !Number.isFinite(v))) continue;
    const key = `${page}:${block}:${par}:${line}`;
    let entry = lines.get(key);
    if (!entry) {
      entry = { words: [], confidence: 0 };
      lines.set(key, entry);
    }
    entry.words.push({ text, confidence: Math.max(0, conf ?? 0), x0: left!, y0: top!, x1: left! + width!, y1: top! + height! });
  }
  for (const line of lines.values()) line.confidence = line.words.reduce((sum, w) => sum + w.confidence, 0) / line.words.length;
  return [...lines.values()];
}
