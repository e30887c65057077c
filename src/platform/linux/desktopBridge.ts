import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { unrefChild } from '../../common/childProcesses';
import { DESKTOP_BRIDGE_SCRIPT } from './desktopBridgeScript';

// One long-lived python3 helper per display that keeps an X connection and the AT-SPI tree warm
// (desktopBridgeScript.ts). Started on the first question, it answers JSON lines by request id.
// It exits when its stdin closes, so it never outlives us, and it never keeps Node alive on its
// own: only a question waiting for its answer does.

const DEFAULT_TIMEOUT_MS = 5_000;
/** A helper that crashed twice in a row is not started again for this long: calls fail clearly. */
const GIVE_UP_MS = 30_000;
/**
 * An idle helper ends after this long (~30 MB each): warm across the actions of a task, not
 * forever; the next question starts a new one (a few hundred ms).
 */
const DEFAULT_IDLE_MS = 120_000;

export interface DesktopBridgeOptions {
  /** Default /usr/bin/python3 when present (python3-gi and python3-xlib are installed for Debian's interpreter). */
  python?: string;
  /** Ends the helper after this long without a question; default 2 minutes; 0: never (a daemon's own idle time bounds it). */
  idleMs?: number;
}

export interface BridgeRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type BridgeAnswer = Record<string, unknown>;

interface Waiter {
  resolve: (answer: BridgeAnswer) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

export class DesktopBridge {
  private readonly env: NodeJS.ProcessEnv;
  private readonly python: string;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Waiter>();
  private nextId = 1;
  private stderr = '';
  /** Crashes since the last answer: the helper is restarted once, not in a loop. */
  private crashes = 0;
  private lastCrash: { at: number; reason: string } | undefined;
  private disposed = false;
  private starts = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    env: NodeJS.ProcessEnv = process.env,
    private readonly options: DesktopBridgeOptions = {},
  ) {
    this.env = atspiEnv(env);
    this.python = options.python ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  }

  /** The helper's process id while it runs (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How many times a helper was started: 1 while the first still runs. */
  get startCount(): number {
    return this.starts;
  }

  request(cmd: string, params: Record<string, unknown> = {}, options: BridgeRequestOptions = {}): Promise<BridgeAnswer> {
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
    return new Promise<BridgeAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new Error(`the desktop bridge gave no answer to "${cmd}" within ${timeoutMs} ms`));
        // Each call inside it is bounded, so no answer means it hangs: the next question starts a new one.
        this.kill(child, `it did not answer "${cmd}" within ${timeoutMs} ms`);
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
    if (this.disposed) throw new Error('the desktop bridge was disposed');
    if (this.crashes >= 2 && this.lastCrash && Date.now() - this.lastCrash.at < GIVE_UP_MS) {
      throw new Error(`the desktop bridge helper (${this.python}) failed twice in a row; last: ${this.lastCrash.reason}`);
    }
    // -E: a PYTHONPATH or PYTHONHOME meant for another interpreter must not break gi or Xlib.
    const child = spawn(this.python, ['-E', '-c', DESKTOP_BRIDGE_SCRIPT], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child = child;
    this.starts++;
    this.stderr = '';
    unrefChild(child);
    child.stdin?.on('error', () => {}); // EPIPE after the helper died; reported through 'exit'
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2_000);
    });
    child.on('error', (error) => this.ended(child, `could not start ${this.python}: ${error.message}`));
    child.on('exit', (code, signal) => {
      // What it printed last (a traceback) may still be in the pipe: wait for it, briefly.
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
    let message: BridgeAnswer;
    try {
      message = JSON.parse(line) as BridgeAnswer;
    } catch {
      return; // not ours (a stray print from a library); the protocol lines are all JSON
    }
    if (typeof message.id !== 'number') return; // the hello line
    const waiter = this.settle(message.id);
    if (!waiter) return; // timed out or cancelled: nobody waits for it any more
    this.crashes = 0;
    if (message.ok === true) waiter.resolve(message);
    else waiter.reject(new Error(String(message.error ?? 'the desktop bridge failed')));
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
      child.stdin?.end(); // it exits when its stdin closes
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
    const reason = `the desktop bridge helper ${how}${tail ? `: ${tail.slice(-500)}` : ''}`;
    if (!this.disposed) {
      this.crashes++;
      this.lastCrash = { at: Date.now(), reason };
    }
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new Error(reason));
  }
}

/**
 * AT_SPI_BUS_ADDRESS names the a11y bus of one session; without that session's
 * DBUS_SESSION_BUS_ADDRESS (as VirtualDisplay's env) it belongs to another display, whose apps
 * would be read instead of this one's.
 */
export function atspiEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  if (!copy.DBUS_SESSION_BUS_ADDRESS) delete copy.AT_SPI_BUS_ADDRESS;
  return copy;
}
