import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { unrefChild } from '../../common/childProcesses';
import { UIA_HELPER_CSHARP, UIA_HELPER_SCRIPT, type UiaCommand } from './uiaHelperScript';

// One long-lived Windows PowerShell helper (uiaHelperScript.ts) keeps UI Automation and the
// compiled Win32 calls warm for the window, accessibility and interrupt ports. Started on the
// first question, it answers JSON lines by request id and exits when its stdin closes, so it
// never outlives us. The script goes in -EncodedCommand (stdin is the protocol's), the C# in an
// environment variable (a command line holds 32K characters; the C# alone is half that in base64).

const START_TIMEOUT_MS = 30_000; // Add-Type compiles the C# with csc: seconds on a cold machine
const DEFAULT_TIMEOUT_MS = 5_000;
const GIVE_UP_MS = 30_000;
const DEFAULT_IDLE_MS = 120_000;
const NAME = 'the UI Automation helper';

export interface UiaHelperOptions {
  /** The program to start; default powershell.exe (Windows PowerShell 5.1). Tests start a scripted helper. */
  command?: string;
  /** Its arguments; default the PowerShell flags and the encoded script. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** Ends the helper after this long without a question; 0: never. */
  idleMs?: number;
  startTimeoutMs?: number;
}

export interface UiaEvent {
  event: string;
  trigger?: string;
}

export type UiaAnswer = Record<string, unknown>;

interface Waiter {
  resolve: (answer: UiaAnswer) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

export class UiaHelper {
  private child: ChildProcess | undefined;
  private ready: Promise<UiaAnswer> | undefined;
  private readonly pending = new Map<number, Waiter>();
  private readonly listeners = new Set<(event: UiaEvent) => void>();
  private nextId = 1;
  private stderr = '';
  private crashes = 0;
  private lastCrash: { at: number; reason: string } | undefined;
  private disposed = false;
  private starts = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private hello: UiaAnswer | undefined;
  private helloWaiter: { resolve: (hello: UiaAnswer) => void; reject: (error: Error) => void } | undefined;

  constructor(private readonly options: UiaHelperOptions = {}) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get startCount(): number {
    return this.starts;
  }

  /** Hears the events of a running watch (the stop hotkey, the corner); returns the unsubscribe. */
  onEvent(listener: (event: UiaEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the helper when needed; resolves with its hello ({dpiAware}). */
  start(): Promise<UiaAnswer> {
    if (this.child && this.ready) return this.ready;
    if (this.disposed) return Promise.reject(new Error(`${NAME} was disposed`));
    if (this.crashes >= 2 && this.lastCrash && Date.now() - this.lastCrash.at < GIVE_UP_MS) {
      return Promise.reject(new Error(`${NAME} failed twice in a row; last: ${this.lastCrash.reason}`));
    }
    const child = this.spawnChild();
    const timeoutMs = this.options.startTimeoutMs ?? START_TIMEOUT_MS;
    this.ready = new Promise<UiaAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill(child, `did not start: no hello within ${timeoutMs} ms`);
      }, timeoutMs);
      this.helloWaiter = {
        resolve: (hello) => {
          clearTimeout(timer);
          resolve(hello);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
    this.ready.catch(() => {});
    return this.ready;
  }

  async request(cmd: UiaCommand, params: Record<string, unknown> = {}, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<UiaAnswer> {
    const { signal } = options;
    if (signal?.aborted) throw new Error('cancelled');
    await this.start();
    if (signal?.aborted) throw new Error('cancelled'); // while it started
    const child = this.child;
    if (!child) throw new Error(this.lastCrash?.reason ?? `${NAME} is not running`);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise<UiaAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new Error(`${NAME} gave no answer to "${cmd}" within ${timeoutMs} ms`));
        // Each UIA call is bounded by UIA's own timeouts, so no answer means it hangs: start a new one next time.
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

  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = undefined;
    this.failAll(new Error(`${NAME} was disposed`));
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
    await exited;
    clearTimeout(timer);
  }

  private spawnChild(): ChildProcess {
    const command = this.options.command ?? 'powershell.exe';
    const args = this.options.args ?? [
      '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', Buffer.from(UIA_HELPER_SCRIPT, 'utf16le').toString('base64'),
    ];
    const env = { ...(this.options.env ?? process.env), GAI_UIA_CSHARP: UIA_HELPER_CSHARP };
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child = child;
    this.hello = undefined;
    this.starts++;
    this.stderr = '';
    unrefChild(child);
    child.stdin?.on('error', () => {}); // EPIPE after the helper died; reported through 'exit'
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2_000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? `${command} not found (Windows PowerShell 5.1 comes with Windows 10 and 11; is it on PATH?)` : error.message;
      this.ended(child, `did not start: ${why}`);
    });
    child.on('exit', (code, signal) => {
      const done = (): void => this.ended(child, `${this.hello ? 'exited' : 'did not start: it exited'} (${signal ?? `code ${code}`})`);
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
    let message: UiaAnswer;
    try {
      message = JSON.parse(line) as UiaAnswer;
    } catch {
      return; // not the protocol's (PowerShell's own chatter): every protocol line is JSON
    }
    if (!message || typeof message !== 'object') return;
    if (message.hello !== undefined) return this.onHello(child, message);
    if (typeof message.event === 'string') {
      for (const listener of this.listeners) listener(message as unknown as UiaEvent);
      return;
    }
    if (typeof message.id !== 'number') return;
    const waiter = this.settle(message.id);
    if (!waiter) return; // timed out or cancelled: nobody waits for it any more
    this.crashes = 0;
    if (message.ok === true) waiter.resolve(message);
    else waiter.reject(new Error(`${NAME}: ${String(message.error ?? 'failed')}`));
  }

  private onHello(child: ChildProcess, message: UiaAnswer): void {
    if (typeof message.fatal === 'string') {
      this.kill(child, `did not start: ${message.fatal}`);
      return;
    }
    this.hello = message;
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
      child.stdin?.end();
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
    const reason = `${NAME} ${how}${tail ? `: ${tail.slice(-500)}` : ''}`;
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
