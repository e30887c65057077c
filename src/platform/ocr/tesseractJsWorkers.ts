// A small pool of tesseract.js workers (WASM, one thread each): started lazily, reused, one
// job at a time each, jobs handed to whichever worker is idle. Split from tesseractJsOcr.ts,
// which turns images into jobs and results into elements.
import type * as Tesseract from 'tesseract.js';
import { abortError } from '../../desktop/ocr/ocrHelpers';

export interface WorkerPoolOptions {
  language: string;
  /** Where the language data is; called on each start, so a fixed folder is found again. */
  languageData: () => { langPath: string; gzip: boolean };
  /** Set once on each new worker. */
  initParameters: Readonly<Record<string, string>>;
  /** The page mode `initParameters` sets. */
  initialPsm: string;
  size: number;
  startTimeoutMs: number;
  recognizeTimeoutMs: number;
}

interface RunningWorker {
  worker: Tesseract.Worker;
  /** The worker_threads handle, to unref it while idle. */
  thread: ThreadHandle | undefined;
  /** The page mode the worker has now; '' when unknown. */
  psm: string;
  /** Rejects the job in flight when the thread dies. */
  died: Promise<never>;
}

interface ThreadHandle {
  ref(): void;
  unref(): void;
  once(event: 'exit', listener: (code: number) => void): unknown;
}

interface Slot {
  starting: Promise<RunningWorker> | undefined;
  running: RunningWorker | undefined;
  busy: boolean;
}

interface QueuedJob {
  pgm: Buffer;
  psm: string;
  signal: AbortSignal | undefined;
  resolve: (page: Tesseract.Page) => void;
  reject: (error: unknown) => void;
}

/** One abort listener per signal for all its queued jobs (LayeredOcr queues dozens at once). */
interface SignalWatch {
  jobs: number;
  onAbort: () => void;
}

export class TesseractWorkerPool {
  private readonly slots: Slot[];
  private readonly queue: QueuedJob[] = [];
  private readonly watches = new Map<AbortSignal, SignalWatch>();
  private disposed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, Math.floor(options.size)) }, () => ({ starting: undefined, running: undefined, busy: false }));
  }

  /** Starts every worker that is not up yet, and waits for all of them. */
  async warmUp(): Promise<void> {
    if (this.disposed) throw disposedError();
    await Promise.all(this.slots.map((slot) => slot.starting ?? (slot.running ? undefined : this.start(slot))));
  }

  /** Reads one PGM with the given page mode on the first idle worker. */
  recognize(pgm: Buffer, psm: string, signal: AbortSignal | undefined): Promise<Tesseract.Page> {
    if (this.disposed) return Promise.reject(disposedError());
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<Tesseract.Page>((resolve, reject) => {
      const job: QueuedJob = { pgm, psm, signal, resolve, reject };
      if (signal) this.watch(signal);
      this.queue.push(job);
      this.dispatch();
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const job of this.queue.splice(0)) this.fail(job, disposedError());
    const ending = this.slots.map(async (slot) => {
      const starting = slot.starting;
      const running = slot.running;
      slot.starting = undefined;
      slot.running = undefined;
      const worker = running ?? (await starting?.catch(() => undefined));
      if (worker) await worker.worker.terminate().catch(() => undefined);
    });
    await Promise.all(ending);
  }

  /** Jobs still waiting for a worker leave the queue as soon as their signal aborts. */
  private watch(signal: AbortSignal): void {
    const known = this.watches.get(signal);
    if (known) {
      known.jobs++;
      return;
    }
    const onAbort = (): void => {
      this.watches.delete(signal);
      const aborted = this.queue.filter((job) => job.signal === signal);
      for (const job of aborted) this.queue.splice(this.queue.indexOf(job), 1);
      for (const job of aborted) job.reject(abortError(signal));
    };
    this.watches.set(signal, { jobs: 1, onAbort });
    signal.addEventListener('abort', onAbort, { once: true });
  }

  /** The job left the queue (to run or to fail): its signal may need no listener any more. */
  private unwatch(job: QueuedJob): void {
    const watch = job.signal ? this.watches.get(job.signal) : undefined;
    if (!watch || --watch.jobs > 0) return;
    this.watches.delete(job.signal!);
    job.signal!.removeEventListener('abort', watch.onAbort);
  }

  /** Hands queued jobs to idle workers (same page mode first), starting workers while jobs wait. */
  private dispatch(): void {
    while (this.queue.length > 0 && !this.disposed) {
      const idle = this.slots.filter((slot) => slot.running && !slot.busy);
      if (idle.length === 0) break;
      const job = this.queue.shift()!;
      const slot = idle.find((s) => s.running!.psm === job.psm) ?? idle[0]!;
      this.run(slot, job);
    }
    if (this.disposed) return;
    // One more worker for each job that no started or starting worker will take soon.
    let waiting = this.queue.length - this.slots.filter((slot) => slot.starting).length;
    for (const slot of this.slots) {
      if (waiting <= 0) break;
      if (slot.running || slot.starting) continue;
      this.start(slot).catch(() => undefined);
      waiting--;
    }
  }

  private run(slot: Slot, job: QueuedJob): void {
    const running = slot.running!;
    slot.busy = true;
    this.unwatch(job);
    this.execute(slot, running, job)
      .then(job.resolve, job.reject)
      .finally(() => {
        slot.busy = false;
        this.dispatch();
      });
  }

  private async execute(slot: Slot, running: RunningWorker, job: QueuedJob): Promise<Tesseract.Page> {
    // Checked before posting: once posted, an abort costs the worker (it cannot cancel).
    if (job.signal?.aborted) throw abortError(job.signal);
    const recognize = async (): Promise<Tesseract.Page> => {
      // Posted back to back (the worker handles messages in order): waiting for the
      // setParameters reply first would delay the recognize by a round trip.
      const switched = running.psm === job.psm ? undefined : running.worker.setParameters({ tessedit_pageseg_mode: job.psm as Tesseract.PSM });
      running.psm = job.psm;
      const recognized = running.worker.recognize(job.pgm, {}, { blocks: true, text: false });
      try {
        const [, result] = await Promise.all([switched, recognized]);
        return result.data;
      } catch (error) {
        running.psm = ''; // unknown now: set it again next time
        // The worker rejects with the message string, not an Error.
        throw error instanceof Error ? error : new Error(`tesseract.js: ${String(error)}`);
      }
    };
    return this.withJobGuards(slot, running, job.signal, recognize());
  }

  /** Keeps the process alive while a job runs, and gives up on aborts, timeouts and dead threads. */
  private async withJobGuards<T>(slot: Slot, running: RunningWorker, signal: AbortSignal | undefined, job: Promise<T>): Promise<T> {
    running.thread?.ref();
    let jobFailed = false;
    const watched = job.catch((error: unknown) => {
      jobFailed = true;
      throw error;
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`tesseract.js recognize took longer than ${this.options.recognizeTimeoutMs} ms`)), this.options.recognizeTimeoutMs);
      onAbort = () => reject(abortError(signal as AbortSignal));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([watched, stop, running.died]);
    } catch (error) {
      // A worker cannot cancel a job: after an abort, a timeout or a dead thread, drop it (a
      // new one starts when needed). A job's own error leaves the worker usable.
      watched.catch(() => undefined);
      if (!jobFailed && slot.running === running) {
        slot.running = undefined;
        void running.worker.terminate().catch(() => undefined);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      running.thread?.unref();
    }
  }

  /** Starts the slot's worker; when it is up, queued jobs go to it. */
  private start(slot: Slot): Promise<RunningWorker> {
    const starting = this.startWorker(slot);
    slot.starting = starting;
    starting.then(
      (running) => {
        if (slot.starting !== starting || this.disposed) {
          void running.worker.terminate().catch(() => undefined);
          return;
        }
        slot.starting = undefined;
        slot.running = running;
        this.dispatch();
      },
      (error: unknown) => {
        if (slot.starting !== starting) return;
        slot.starting = undefined;
        // Nothing else will serve the waiting jobs: they fail with the reason. A failed start
        // is not remembered, the next call tries again (e.g. after a timeout on a busy machine).
        if (!this.slots.some((s) => s.running || s.starting)) {
          for (const job of this.queue.splice(0)) this.fail(job, error);
        }
      },
    );
    return starting;
  }

  private async startWorker(slot: Slot): Promise<RunningWorker> {
    const { language, startTimeoutMs } = this.options;
    const { langPath, gzip } = this.options.languageData();
    // Loaded on first use. From the CommonJS bundle this is a native import() of a CommonJS
    // package: `default` is its module.exports, the named exports depend on Node's guesswork.
    const loaded = await import('tesseract.js');
    const tesseract = loaded.default ?? loaded;
    let startError: string | undefined;
    const created = tesseract.createWorker(language, tesseract.OEM.LSTM_ONLY, {
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
      await worker.setParameters(this.options.initParameters);
      return worker;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // If it starts after all, do not leak its thread.
        void created.then((late) => late.terminate()).catch(() => undefined);
        const detail = startError ? ` Last error: ${startError}.` : '';
        reject(new Error(`tesseract.js worker did not start within ${startTimeoutMs} ms (language ${language}, langPath ${langPath}).${detail}`));
      }, startTimeoutMs);
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
        // Only forget this worker, not one started after it in the same slot.
        if (slot.running === running) slot.running = undefined;
        reject(new Error(`tesseract.js worker thread exited (code ${code})`));
      });
    });
    died.catch(() => undefined);
    const running: RunningWorker = { worker, thread, psm: this.options.initialPsm, died };
    return running;
  }

  private fail(job: QueuedJob, error: unknown): void {
    this.unwatch(job);
    job.reject(error);
  }
}

function disposedError(): Error {
  return new Error('tesseract.js OCR engine was disposed');
}

function threadOf(worker: Tesseract.Worker): ThreadHandle | undefined {
  // tesseract.js exposes its worker_threads Worker as `worker.worker` (not in its typings).
  const thread = (worker as unknown as { worker?: Partial<ThreadHandle> }).worker;
  if (thread && typeof thread.ref === 'function' && typeof thread.unref === 'function' && typeof thread.once === 'function') {
    return thread as ThreadHandle;
  }
  return undefined;
}
