import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { unrefChild } from '../common/childProcesses';
import type { HelperEvent, HelperMessage, HelperProcessOptions, HelperRequestOptions } from './helperProcessOptions';

// The client of a long-lived helper program that answers JSON lines by request id: the Linux
// desktop bridge (python3), the macOS helper (osascript) and the Windows one (PowerShell) all
// speak it. Started on the first question, restarted once after a crash, ended when idle, and
// the helper exits when its stdin closes, so it never outlives us; it never keeps Node alive on
// its own either: only a question waiting for its answer does.

/** A helper that crashed twice in a row is not started again for this long: calls fail clearly. */
const GIVE_UP_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_IDLE_MS = 120_000;

interface Waiter {
  resolve: (answer: HelperMessage) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

export class HelperProcess {
  private child: ChildProcess | undefined;
  private ready: Promise<HelperMessage> | undefined;
  private readonly pending = new Map<number, Waiter>();
  private readonly listeners = new Set<(event: HelperEvent) => void>();
  private nextId = 1;
  private stderr = '';
  /** Crashes since the last answer: the helper is restarted once, not in a loop. */
  private crashes = 0;
  private lastCrash: { at: number; reason: string } | undefined;
  private disposed = false;
  private starts = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private helloMessage: HelperMessage | undefined;
  private helloWaiter: { resolve: (hello: HelperMessage) => void; reject: (error: Error) => void } | undefined;

  constructor(private readonly options: HelperProcessOptions) {}

  /** The helper's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How many times a helper was started: 1 while the first still runs. */
  get startCount(): number {
    return this.starts;
  }

  /** The running helper's hello line, when it said one. */
  get hello(): HelperMessage | undefined {
    return this.child ? this.helloMessage : undefined;
  }

  /** Hears the lines without an id while it runs (a watch's events); returns the unsubscribe. A listener keeps the helper from its idle end. */
  onEvent(listener: (event: HelperEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the helper when needed; resolves with its hello (`{}` when no handshake is asked for). */
  start(): Promise<HelperMessage> {
    if (this.child && this.ready) return this.ready;
    if (this.disposed) return Promise.reject(new Error(`${this.options.name} was disposed`));
    if (this.crashes >= 2 && this.lastCrash && Date.now() - this.lastCrash.at < GIVE_UP_MS) {
      return Promise.reject(new Error(`${this.options.giveUpName ?? this.options.name} failed twice in a row; last: ${this.lastCrash.reason}`));
    }
    const child = this.spawnChild();
    const timeoutMs = this.options.helloTimeoutMs;
    if (timeoutMs === undefined) {
      this.ready = Promise.resolve({});
      return this.ready;
    }
    this.ready = new Promise<HelperMessage>((resolve, reject) => {
      const timer = setTimeout(() => this.kill(child, `did not start: no hello within ${timeoutMs} ms`), timeoutMs);
      const done = (): void => clearTimeout(timer);
      this.helloWaiter = {
        resolve: (hello) => (done(), resolve(hello)),
        reject: (error) => (done(), reject(error)),
      };
    });
    this.ready.catch(() => {});
    return this.ready;
  }

  async request(cmd: string, params: Record<string, unknown> = {}, options: HelperRequestOptions = {}): Promise<HelperMessage> {
    const { signal } = options;
    if (signal?.aborted) throw new Error('cancelled');
    await this.start();
    if (signal?.aborted) throw new Error('cancelled'); // while it started
    const child = this.child;
    if (!child) throw new Error(this.lastCrash?.reason ?? `${this.options.name} is not running`);
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise<HelperMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new Error(`${this.options.name} gave no answer to "${cmd}" within ${timeoutMs} ms`));
        if (this.options.killOnTimeout !== false) this.kill(child, `did not answer "${cmd}" within ${timeoutMs} ms`);
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

  /** Ends the helper for good: waiting and later requests fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    this.failAll(new Error(`${this.options.name} was disposed`));
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
    await exited;
    clearTimeout(timer);
  }

  private spawnChild(): ChildProcess {
    const { command, args, env } = this.options.launch();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child = child;
    this.helloMessage = undefined;
    this.starts++;
    this.stderr = '';
    unrefChild(child);
    child.stdin?.on('error', () => {}); // EPIPE after the helper died; reported through 'exit'
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2_000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      this.ended(child, this.options.startError?.(error, command) ?? `could not start ${command}: ${error.message}`);
    });
    child.on('exit', (code, signal) => {
      const started = this.options.helloTimeoutMs === undefined || this.helloMessage !== undefined;
      // What it printed last (a traceback) may still be in the pipe: wait for it, briefly.
      const done = (): void => this.ended(child, `${started ? 'exited' : 'did not start: it exited'} (${signal ?? `code ${code}`})`);
      if (child.stderr?.readableEnded !== false) return done();
      const timer = setTimeout(done, 200);
      child.stderr.once('end', () => {
        clearTimeout(timer);
        done();
      });
    });
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(child, line));
    return child;
  }

  private onLine(child: ChildProcess, line: string): void {
    if (this.child !== child) return;
    let message: HelperMessage;
    try {
      message = JSON.parse(line) as HelperMessage;
    } catch {
      return; // not the protocol's (a library's or the shell's own chatter): every protocol line is JSON
    }
    if (!message || typeof message !== 'object') return;
    if (message.hello !== undefined) return this.onHello(child, message);
    if (typeof message.id !== 'number') {
      if (typeof message.event === 'string') for (const listener of this.listeners) listener(message as HelperEvent);
      return;
    }
    const waiter = this.settle(message.id);
    if (!waiter) return; // timed out or cancelled: nobody waits for it any more
    this.crashes = 0;
    if (message.ok === true) return waiter.resolve(message);
    const error = message.error === undefined ? undefined : String(message.error);
    waiter.reject(new Error(this.options.answerError?.(error) ?? error ?? `${this.options.name} failed`));
  }

  private onHello(child: ChildProcess, message: HelperMessage): void {
    if (typeof message.fatal === 'string') return this.kill(child, `did not start: ${message.fatal}`);
    this.helloMessage = message;
    this.helloWaiter?.resolve(message);
    this.helloWaiter = undefined;
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
    if (!child || idleMs <= 0 || this.listeners.size > 0) return; // a running watch keeps it
    this.idleTimer = setTimeout(() => {
      if (this.child !== child || this.pending.size > 0 || this.listeners.size > 0) return;
      this.child = undefined; // so its exit counts as no crash
      this.ready = undefined;
      child.stdin?.end(); // it exits when its stdin closes
    }, idleMs);
    this.idleTimer.unref();
  }

  private kill(child: ChildProcess, how: string): void {
    if (this.child === child) this.ended(child, how);
    child.kill('SIGKILL');
  }

  private ended(child: ChildProcess, how: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.ready = undefined;
    const tail = this.stderr.trim();
    const reason = `${this.options.name} ${how}${tail ? `: ${tail.slice(-500)}` : ''}`;
    if (!this.disposed) {
      this.crashes++;
      this.lastCrash = { at: Date.now(), reason };
    }
    this.failAll(new Error(reason));
    for (const listener of this.listeners) listener({ event: 'ended' });
  }

  private failAll(error: Error): void {
    this.helloWaiter?.reject(error);
    this.helloWaiter = undefined;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }
}
