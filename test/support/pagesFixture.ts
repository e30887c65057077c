// Starts the multi-page Tk app (test/desktop/fixtures/pagesApp.py) on a virtual display,
// sends it control commands on stdin and reads its JSON-lines log, so navigation tests know
// which page the app shows without OCR.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { exitText, hasExited, waitForExit } from '../../src/common/childProcesses';
import { FIXTURE_PYTHON, startupProblem, type DisplayEnv } from '../desktop/support/fixture';

export const PAGES_SCRIPT = path.resolve(__dirname, '..', 'desktop', 'fixtures', 'pagesApp.py');
export const PAGES_TITLE_PREFIX = 'GAI Pages \u2014 ';
/** WM_CLASS is ("gaipages", "GaiPages"). */
export const PAGES_WM_CLASS = 'GaiPages';
export const PAGE_IDS = ['home', 'settings', 'network', 'advanced', 'display', 'sound', 'documents', 'help'] as const;
export type PageId = (typeof PAGE_IDS)[number];

export interface PagesAppOptions {
  /** The app's log; kept after stop(). Default: a temp file removed by stop(). */
  logPath?: string;
  /** Tk geometry `WxH+X+Y`; default 760x640+120+90. */
  geometry?: string;
  /** The first page; default home. */
  page?: PageId;
  /** Bound on waiting for the ready line; default 15 s. */
  readyTimeoutMs?: number;
}

/** One JSON line of the app's log: ready, page, press, applied, rejected or exit. */
export interface PagesEvent {
  event: string;
  t: number;
  [field: string]: unknown;
}

/** A button's screen box (root coordinates, as Tk reports them) and its label as shown. */
export interface ButtonGeometry {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
}

/** Logged once the page shows: after a start, a button press (`via` = its label) or `goto`. */
export interface PageEvent extends PagesEvent {
  event: 'page';
  page: PageId;
  previous: PageId | null;
  via: string;
  title: string;
  buttons: Record<string, ButtonGeometry>;
}

/** Logged once a control command shows on the screen (`quit`: just before the exit). */
export interface AppliedEvent extends PagesEvent {
  event: 'applied';
  command: string;
  seq: number;
  page: PageId;
  moved?: boolean;
  title?: string;
  buttons?: Record<string, ButtonGeometry>;
}

export interface PagesReadyEvent extends PagesEvent {
  event: 'ready';
  title: string;
  focused: boolean;
  pid: number;
  geometry: { x: number; y: number; width: number; height: number };
}

export interface PagesApp {
  readonly pid: number;
  readonly logPath: string;
  readonly ready: PagesReadyEvent;
  /** The page of the last page event; undefined before the first. */
  page(): PageId | undefined;
  /** The current page's buttons, from the newest page or applied event. */
  buttons(): Record<string, ButtonGeometry>;
  /** Resolves once the app shows this page (at once if it already does). */
  waitForPage(name: PageId, timeoutMs?: number): Promise<PageEvent>;
  /**
   * Sends one command (`goto <page>`, `move [normal|moved]`, `rename <old> <new>`,
   * `addline <text>`, `quit`) and resolves once the screen shows it; rejects when the app
   * rejects it.
   */
  control(command: string, timeoutMs?: number): Promise<AppliedEvent>;
  /** Every complete line logged so far (after stop(): everything it logged). */
  events(): PagesEvent[];
  /** Polls the log until an event matches; the timeout error lists the last events. */
  waitFor(predicate: (event: PagesEvent, index: number) => boolean, timeoutMs?: number): Promise<PagesEvent>;
  /** Ends the app (SIGTERM, then SIGKILL) and waits for it. Idempotent. */
  stop(): Promise<void>;
}

const POLL_MS = 25;
const STOP_GRACE_MS = 5000;
const STDERR_LIMIT = 4000;

/** Apps not stopped yet: stopped after the run (mocha root hook) or killed when Node exits. */
const running = new Set<RunningPagesApp>();
if (typeof after === 'function') after(stopAllPagesApps);
process.on('exit', () => {
  for (const app of running) app.kill();
});

export async function stopAllPagesApps(): Promise<void> {
  await Promise.all([...running].map((app) => app.stop()));
}

/** pagesApp.py's arguments (for launchers and desktop entries). */
export function pagesAppArgs(options: PagesAppOptions & { logPath: string }): string[] {
  return [
    '--log',
    options.logPath,
    ...(options.geometry !== undefined ? ['--geometry', options.geometry] : []),
    ...(options.page !== undefined ? ['--page', options.page] : []),
  ];
}

export async function startPagesApp(display: DisplayEnv, options: PagesAppOptions = {}): Promise<PagesApp> {
  const tempDir = options.logPath === undefined ? mkdtempSync(path.join(tmpdir(), 'gai-pages-')) : undefined;
  const logPath = options.logPath ?? path.join(tempDir!, 'events.jsonl');
  // Only what this run logs counts: an existing file is read from its current end.
  const start = appendOffset(logPath);
  const child = spawn(FIXTURE_PYTHON, [PAGES_SCRIPT, ...pagesAppArgs({ ...options, logPath })], {
    env: display.env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const app = new RunningPagesApp(child, logPath, start, tempDir);
  running.add(app);
  await delay(0); // a failed spawn reports its 'error' on the next tick
  const timeoutMs = options.readyTimeoutMs ?? 15000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const first = app.events()[0];
    if (first?.event === 'ready') break;
    const problem = startupProblem(child, app.spawnError, deadline, timeoutMs);
    if (problem !== undefined) {
      await app.stop();
      throw new Error(`pages app ${PAGES_SCRIPT} failed to start on ${display.env.DISPLAY ?? '(no DISPLAY)'}: ${problem}; stderr: ${app.stderr.trim() || '(empty)'}`);
    }
    await delay(POLL_MS);
  }
  await app.waitForPage(options.page ?? 'home', timeoutMs);
  return app;
}

class RunningPagesApp implements PagesApp {
  readonly pid: number;
  spawnError: Error | undefined;
  stderr = '';
  private sent = 0;
  private readyEvent: PagesReadyEvent | undefined;
  private stopping: Promise<void> | undefined;
  private finalEvents: PagesEvent[] | undefined;

  constructor(
    private readonly child: ChildProcess,
    readonly logPath: string,
    private readonly start: number,
    private readonly tempDir: string | undefined,
  ) {
    this.pid = child.pid ?? -1;
    child.on('error', (error) => {
      this.spawnError = error;
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_LIMIT);
    });
    // Writing to an app that has exited fails with EPIPE; control() reports that instead.
    child.stdin?.on('error', () => undefined);
  }

  get ready(): PagesReadyEvent {
    this.readyEvent ??= this.events().find((e): e is PagesReadyEvent => e.event === 'ready');
    if (this.readyEvent === undefined) throw new Error('the pages app has not logged "ready"');
    return this.readyEvent;
  }

  page(): PageId | undefined {
    return this.lastOf<PageEvent>((e) => e.event === 'page')?.page;
  }

  buttons(): Record<string, ButtonGeometry> {
    return this.lastOf<PageEvent>((e) => (e.event === 'page' || e.event === 'applied') && e.buttons !== undefined)?.buttons ?? {};
  }

  async waitForPage(name: PageId, timeoutMs = 5000): Promise<PageEvent> {
    const current = () => this.lastOf<PageEvent>((e) => e.event === 'page');
    const found = await this.poll(() => (current()?.page === name ? current() : undefined), timeoutMs);
    if (found === undefined) throw new Error(`pages app: not on page "${name}" but on "${current()?.page ?? 'none'}" ${this.why(timeoutMs)}`);
    return found;
  }

  async control(command: string, timeoutMs = 5000): Promise<AppliedEvent> {
    if (command.includes('\n') || command.trim() === '') throw new Error(`pages app: one non-empty line per command, not ${JSON.stringify(command)}`);
    if (hasExited(this.child) || this.stopping) throw new Error(`pages app has exited (${exitText(this.child)}); cannot send "${command}"`);
    const seq = ++this.sent;
    this.child.stdin!.write(`${command}\n`);
    const answer = await this.waitFor((e) => (e.event === 'applied' || e.event === 'rejected') && e.seq === seq, timeoutMs);
    if (answer.event === 'rejected') throw new Error(`pages app rejected "${command}": ${String(answer.error)}`);
    return answer as AppliedEvent;
  }

  events(): PagesEvent[] {
    return this.finalEvents ?? readEvents(this.logPath, this.start);
  }

  async waitFor(predicate: (event: PagesEvent, index: number) => boolean, timeoutMs = 5000): Promise<PagesEvent> {
    const found = await this.poll(() => this.events().find(predicate), timeoutMs);
    if (found === undefined) throw new Error(`pages app: no matching event ${this.why(timeoutMs)}`);
    return found;
  }

  /** Polls until find() answers; undefined on timeout or once the app has exited and its log says no. */
  private async poll<T>(find: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Checked before reading: what the app logged before it exited is still seen.
      const over = hasExited(this.child) || this.finalEvents !== undefined || Date.now() > deadline;
      const found = find();
      if (found !== undefined || over) return found;
      await delay(POLL_MS);
    }
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.child.stdin?.end();
      if (!hasExited(this.child)) {
        this.child.kill('SIGTERM');
        if (!(await waitForExit(this.child, STOP_GRACE_MS))) {
          this.child.kill('SIGKILL');
          await waitForExit(this.child, STOP_GRACE_MS);
        }
      }
      this.finalEvents = readEvents(this.logPath, this.start);
      if (this.tempDir !== undefined) rmSync(this.tempDir, { recursive: true, force: true });
      running.delete(this);
    })();
    return this.stopping;
  }

  /** Synchronous last resort when Node exits. */
  kill(): void {
    if (!hasExited(this.child)) this.child.kill('SIGKILL');
    if (this.tempDir !== undefined) rmSync(this.tempDir, { recursive: true, force: true });
  }

  /** Why a wait ended, with the last events and stderr. */
  private why(timeoutMs: number): string {
    const events = this.events();
    const seen = events.slice(-12).map((e) => JSON.stringify({ ...e, buttons: undefined }));
    const gone = hasExited(this.child) || this.finalEvents !== undefined;
    const stderr = this.stderr.trim() ? `\nstderr: ${this.stderr.trim()}` : '';
    return `${gone ? `(the app exited: ${exitText(this.child)})` : `within ${timeoutMs} ms`}; last ${seen.length} of ${events.length} events:\n  ${seen.join('\n  ')}${stderr}`;
  }

  private lastOf<T extends PagesEvent>(predicate: (event: PagesEvent) => boolean): T | undefined {
    return this.events().findLast(predicate) as T | undefined;
  }
}

/** Byte length of the file (0 when missing; created empty so the app can append). */
function appendOffset(logPath: string): number {
  try {
    return readFileSync(logPath).length;
  } catch {
    writeFileSync(logPath, '');
    return 0;
  }
}

function readEvents(logPath: string, start: number): PagesEvent[] {
  let text: string;
  try {
    text = readFileSync(logPath).subarray(start).toString('utf8');
  } catch {
    return [];
  }
  // Only complete lines: the last one may still be being written.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PagesEvent);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
