import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { unrefChild } from '../../common/childProcesses';
import { MAC_HELPER_SCRIPT, type MacCommand } from './macHelperScript';

// One long-lived `osascript -l JavaScript` helper (macHelperScript.ts) keeps AppKit and the
// Accessibility API loaded for the window, accessibility and permission ports. Started on the
// first question, it answers JSON lines by request id, is restarted once after a crash, ends
// when idle, and exits when its stdin closes, so it never outlives us.

const DEFAULT_TIMEOUT_MS = 5_000;
/** A helper that crashed twice in a row is not started again for this long: calls fail clearly. */
const GIVE_UP_MS = 30_000;
const DEFAULT_IDLE_MS = 120_000;
const NAME = 'the macOS helper (osascript)';

export interface MacHelperOptions {
  /** The program to start; default /usr/bin/osascript. Tests start a scripted helper. */
  command?: string;
  /** Its arguments; default `-l JavaScript -e <script>`. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Ends the helper after this long without a question; 0: never. */
  idleMs?: number;
}

export interface MacRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type MacAnswer = Record<string, unknown>;

interface Waiter {
  resolve: (answer: MacAnswer) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

export class MacHelper {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Waiter>();
  private nextId = 1;
  private stderr = '';
  private crashes = 0;
  private lastCrash: { at: number; reason: string } | undefined;
  private disposed = false;
  private starts = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: MacHelperOptions = {}) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get startCount(): number {
    return this.starts;
  }

  request(cmd: MacCommand, params: Record<string, unknown> = {}, options: MacRequestOptions = {}): Promise<MacAnswer> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new Error('cancelled'));
    let child: ChildProcess;
    try {
      child = this.ensureStarted();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise<MacAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new Error(`${NAME} gave no answer to "${cmd}" within ${timeoutMs} ms`));
        // Each call in it is synchronous, so no answer means it hangs: the next question starts a new one.
        this.kill(child, `did not answer "${cmd}" within ${timeoutMs} ms`);
      }, timeoutMs);
      const onAbort = (): void => this.settle(id)?.reject(new Error('cancelled'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
      child.stdin?.write(`${JSON.stringify({ ...params, id, cmd })}\n`);
    });
  }

  /** Ends the helper for good: later requests fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
    await exited;
    clearTimeout(timer);
  }

  private ensureStarted(): ChildProcess {
    if (this.child) return this.child;
    if (this.disposed) throw new Error(`${NAME} was disposed`);
    if (this.crashes >= 2 && this.lastCrash && Date.now() - this.lastCrash.at < GIVE_UP_MS) {
      throw new Error(`${NAME} failed twice in a row; last: ${this.lastCrash.reason}`);
    }
    const command = this.options.command ?? '/usr/bin/osascript';
    const args = this.options.args ?? ['-l', 'JavaScript', '-e', MAC_HELPER_SCRIPT];
    const child = spawn(command, args, { env: this.options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.starts++;
    this.stderr = '';
    unrefChild(child);
    child.stdin?.on('error', () => {}); // EPIPE after the helper died; reported through 'exit'
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2_000);
    });
    child.on('error', (error) => this.ended(child, `could not start ${command}: ${error.message}`));
    child.on('exit', (code, signal) => {
      const done = (): void => this.ended(child, `exited (${signal ?? `code ${code}`})`);
      if (child.stderr?.readableEnded !== false) return done();
      const timer = setTimeout(done, 200);
      child.stderr.once('end', () => {
        clearTimeout(timer);
        done();
      });
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(line));
    return child;
  }

  private onLine(line: string): void {
    let message: MacAnswer;
    try {
      message = JSON.parse(line) as MacAnswer;
    } catch {
      return; // not a protocol line (every answer is one JSON object a line)
    }
    if (typeof message !== 'object' || message === null || typeof message.id !== 'number') return; // the hello line
    const waiter = this.settle(message.id);
    if (!waiter) return; // timed out or cancelled
    this.crashes = 0;
    if (message.ok === true) waiter.resolve(message);
    else waiter.reject(new Error(String(message.error ?? `${NAME} failed`)));
  }

  private settle(id: number): Waiter | undefined {
    const waiter = this.pending.get(id);
    if (!waiter) return undefined;
    this.pending.delete(id);
    waiter.cleanup();
    if (this.pending.size === 0) this.armIdle();
    return waiter;
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    const child = this.child;
    const idleMs = this.options.idleMs ?? DEFAULT_IDLE_MS;
    if (!child || idleMs <= 0) return;
    this.idleTimer = setTimeout(() => {
      if (this.child !== child || this.pending.size > 0) return;
      this.child = undefined; // so its exit counts as no crash
      child.stdin?.end();
    }, idleMs);
    this.idleTimer.unref();
  }

  private kill(child: ChildProcess, reason: string): void {
    if (this.child === child) this.ended(child, reason);
    child.kill('SIGKILL');
  }

  private ended(child: ChildProcess, how: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    const tail = this.stderr.trim();
    const reason = `${NAME} ${how}${tail ? `: ${tail.slice(-500)}` : ''}`;
    if (!this.disposed) {
      this.crashes++;
      this.lastCrash = { at: Date.now(), reason };
    }
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new Error(reason));
  }
}
