// Shows test/desktop/fixtures/hardCasesPage.html full screen in chromium (kiosk) on the given
// display and reads every label's box from the DOM over the DevTools protocol, spoken on the
// pipe chromium opens with --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated JSON):
// no port, no socket, nothing on the network.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { BBox } from '../../../src/common/geometry';

export const HARD_CASES_PAGE = path.resolve(__dirname, '..', 'fixtures', 'hardCasesPage.html');

export interface PageLabel {
  /** The text a user would ask for (the element's data-label). */
  text: string;
  category: string;
  /** The element's box on the screen. */
  bbox: BBox;
}

export interface HardCasesPage {
  labels: PageLabel[];
  close(): Promise<void>;
}

/** Keeps chromium off the network: no DNS, no proxyless requests, no background services. */
const OFFLINE_FLAGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=127.0.0.1:9',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  '--no-default-browser-check',
  '--no-first-run',
  '--password-store=basic',
];

export async function openHardCasesPage(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<HardCasesPage> {
  const profile = mkdtempSync(path.join(tmpdir(), 'gai-hardcases-'));
  const child = spawn(
    'chromium',
    [
      ...OFFLINE_FLAGS,
      `--user-data-dir=${profile}`,
      // Root has no user namespace sandbox here; the page is our own file.
      '--no-sandbox',
      '--disable-gpu',
      '--force-device-scale-factor=1',
      '--hide-scrollbars',
      '--kiosk',
      '--remote-debugging-pipe',
      `--app=file://${HARD_CASES_PAGE}`,
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const close = async (): Promise<void> => {
    await stop(child);
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const cdp = new PipeCdp(child.stdio[3] as Writable, child.stdio[4] as Readable);
    const labels = await withTimeout(readLabels(cdp), timeoutMs, () => `chromium did not show ${HARD_CASES_PAGE} within ${timeoutMs} ms; stderr: ${stderr}`);
    return { labels, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function readLabels(cdp: PipeCdp): Promise<PageLabel[]> {
  for (;;) {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    const page = targetInfos.find((t) => t.type === 'page' && t.url.startsWith('file://'));
    if (page) {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })) as { sessionId: string };
      // Kiosk is full screen once the window manager has placed it: wait for that, and for fonts.
      for (;;) {
        // The first document may still be replaced by the page (its context is then destroyed).
        const answer = (await cdp.send('Runtime.evaluate', { expression: LABELS_SCRIPT, returnByValue: true, awaitPromise: true }, sessionId).catch(() => undefined)) as
          | { result: { value?: { ready: boolean; labels: PageLabel[] } } }
          | undefined;
        const value = answer?.result.value;
        if (value?.ready && value.labels.length > 0) return value.labels;
        await delay(200);
      }
    }
    await delay(200);
  }
}

/** Screen boxes of the labels, once the viewport fills the 1920x1080 screen at its corner. */
const LABELS_SCRIPT = `(async () => {
  await document.fonts.ready;
  const ready = document.readyState === 'complete' && innerWidth === screen.width && innerHeight === screen.height && screenX === 0 && screenY === 0;
  const labels = [...document.querySelectorAll('[data-label]')].map((el) => {
    const r = el.getBoundingClientRect();
    return { text: el.dataset.label, category: el.dataset.cat, bbox: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } };
  });
  // Two frames: the boxes are the ones painted.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return { ready, labels };
})()`;

/** The DevTools protocol over chromium's pipe: one request at a time is all the tests need. */
class PipeCdp {
  private nextId = 1;
  private buffer = '';
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let end = this.buffer.indexOf('\0');
      while (end >= 0) {
        this.dispatch(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
        end = this.buffer.indexOf('\0');
      }
    });
    output.on('close', () => {
      for (const { reject } of this.waiting.values()) reject(new Error('chromium closed its DevTools pipe'));
      this.waiting.clear();
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  private dispatch(text: string): void {
    const message = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const waiter = this.waiting.get(message.id);
    if (!waiter) return;
    this.waiting.delete(message.id);
    if (message.error) waiter.reject(new Error(`DevTools: ${message.error.message}`));
    else waiter.resolve(message.result);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Chromium's zygote and renderers share its process group.
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 3000);
  await exited;
  clearTimeout(timer);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
