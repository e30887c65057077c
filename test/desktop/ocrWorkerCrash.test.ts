// A tesseract.js worker that dies (a crash, an OOM kill) fails the job it had, and the next
// reading starts a fresh worker: the status bar's "screen not read" is one refresh, not a state.
// The crash is made by ending the worker's thread under the pool (its handle is internal).
import { strict as assert } from 'node:assert';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import { TesseractJsOcr } from '../../src/platform/ocr/tesseractJsOcr';

const blank = (width: number, height: number): { width: number; height: number; data: Buffer; origin: { x: number; y: number } } => ({
  width,
  height,
  data: Buffer.alloc(width * height * 4, 255),
  origin: { x: 0, y: 0 },
});

/** The one worker thread of a one-worker engine, once it is up. */
function threadOf(ocr: TesseractJsOcr): ThreadWorker {
  const slots = (ocr as unknown as { pool: { slots: Array<{ running?: { thread?: ThreadWorker } }> } }).pool.slots;
  const thread = slots[0]?.running?.thread;
  assert.ok(thread, 'a running worker thread');
  return thread;
}

describe('OCR worker crash recovery', function () {
  this.timeout(60_000);
  let ocr: TesseractJsOcr | undefined;
  afterEach(async () => ocr?.dispose());

  it('a worker that dies mid-job fails that job, and the next reading works on a fresh worker', async () => {
    ocr = new TesseractJsOcr({ workers: 1, recognizeTimeoutMs: 20_000 });
    await ocr.warmUp();
    const dying = threadOf(ocr);
    const job = ocr.recognize(blank(1200, 600));
    setTimeout(() => void dying.terminate(), 5);
    const started = performance.now();
    await assert.rejects(job, /worker thread exited/);
    assert.ok(performance.now() - started < 10_000, 'failed at once, not after the recognize timeout');
    const next = await ocr.recognize(blank(200, 60));
    assert.deepEqual(next.elements, []);
    assert.notEqual(threadOf(ocr), dying, 'a new worker');
  });

  it('a worker that died while idle is replaced on the next reading', async () => {
    ocr = new TesseractJsOcr({ workers: 1, recognizeTimeoutMs: 20_000 });
    await ocr.warmUp();
    const idle = threadOf(ocr);
    await idle.terminate();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    assert.deepEqual((await ocr.recognize(blank(200, 60))).elements, []);
    assert.ok(performance.now() - started < 15_000);
    assert.notEqual(threadOf(ocr), idle);
  });
});
