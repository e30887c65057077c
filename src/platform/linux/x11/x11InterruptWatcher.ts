import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { unrefChild } from '../../../common/childProcesses';
import { describeCombo } from '../../../desktop/input/keys';
import type { Point } from '../../../desktop/ports/inputPort';
import type {
  InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch, PersonActivity, WatchCapabilities,
} from '../../../desktop/ports/interruptPort';
import { X11_INTERRUPT_SCRIPT } from './x11InterruptScript';
import { xKeysym } from '../xKeysyms';

// Linux/X11: a python3-xlib helper grabs the stop hotkey on the root window (XGrabKey, with the
// Caps Lock / Num Lock variants), counts the person's raw key and button presses (XInput 2.2 raw
// events reach the root window whatever is focused or grabbed), and polls the pointer for the
// fail-safe corner. It speaks JSON lines and exits when its stdin closes.

const START_TIMEOUT_MS = 10_000;
const COMMAND_TIMEOUT_MS = 5_000;

export interface X11InterruptOptions {
  env?: NodeJS.ProcessEnv;
  /** Default /usr/bin/python3 when present (python3-xlib is installed for Debian's interpreter). */
  python?: string;
}

export class X11InterruptWatcher implements InterruptPort {
  private readonly env: NodeJS.ProcessEnv;
  private readonly python: string;
  /** A helper with python3-xlib loaded, waiting to be armed for the next request. */
  private standby?: ChildProcess;
  private disposed = false;

  constructor(options: X11InterruptOptions = {}) {
    this.env = options.env ?? process.env;
    this.python = options.python ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  }

  async watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch> {
    if (!this.env.DISPLAY) throw new Error('no X display (DISPLAY is not set): the stop hotkey and takeover pause watch an X11 display');
    const hotkey = options.stopHotkey ? { keysym: xKeysym(options.stopHotkey.key), modifiers: options.stopHotkey.modifiers, label: describeCombo(options.stopHotkey) } : undefined;
    const config = { hotkey, corner: options.failSafeCorner, input: options.watchInput };
    const child = this.armStandby(config) ?? this.spawnHelper(config);
    // When this request ends, the next one's helper starts (not while a model call runs).
    const watch = new HelperWatch(child, handlers, () => this.prepareStandby());
    await watch.started;
    return watch;
  }

  /** Ends the helper waiting for the next request. */
  dispose(): void {
    this.disposed = true;
    this.standby?.stdin?.end();
    this.standby = undefined;
  }

  private spawnHelper(config: object): ChildProcess {
    // -E: a PYTHONPATH meant for another interpreter must not hide python3-xlib.
    return spawn(this.python, ['-E', '-c', X11_INTERRUPT_SCRIPT, JSON.stringify(config)], {
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  }

  /** The standby helper armed with `config`, or undefined when there is none alive. */
  private armStandby(config: object): ChildProcess | undefined {
    const child = this.standby;
    this.standby = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null || !child.stdin?.writable) return undefined;
    child.ref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { ref?: () => void } | null)?.ref?.();
    child.stdin.write(`${JSON.stringify({ cmd: 'arm', config })}\n`);
    return child;
  }

  private prepareStandby(): void {
    if (this.disposed || this.standby || !this.env.DISPLAY) return;
    const child = this.spawnHelper({ standby: true });
    child.on('error', () => {}); // a helper that cannot start is reported by the next spawn's watch
    child.stdin?.on('error', () => {});
    child.once('exit', () => {
      if (this.standby === child) this.standby = undefined;
    });
    // Not a reason to keep Node running: it ends with its stdin when Node exits.
    unrefChild(child);
    this.standby = child;
  }
}

interface HelperMessage {
  type: string;
  id?: number;
  message?: string;
  reason?: string;
  seenAt?: number;
  serverTime?: number;
  hotkey?: boolean;
  corner?: boolean;
  input?: boolean;
  warnings?: string[];
  left?: [number, number];
  person?: { keys: number; buttons: number; moved: boolean; pointer: [number, number]; left: [number, number] };
  error?: string;
}

class HelperWatch implements InterruptWatch {
  capabilities: WatchCapabilities = { hotkey: false, corner: false, input: false };
  readonly started: Promise<void>;
  private readonly pending = new Map<number, { resolve: (m: HelperMessage) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private nextId = 1;
  private exited?: string;
  private stderr = '';

  constructor(
    private readonly child: ChildProcess,
    private readonly handlers: InterruptHandlers,
    private readonly onClosed: () => void = () => {},
  ) {
    let onReady: () => void = () => {};
    let onFail: (e: Error) => void = () => {};
    this.started = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFail = reject;
    });
    const timer = setTimeout(() => {
      onFail(new Error(`the X11 interrupt watcher did not start within ${START_TIMEOUT_MS} ms`));
      void this.close();
    }, START_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    child.stdin?.on('error', () => {}); // EPIPE after the helper died; reported through 'exit'
    child.on('error', (error) => {
      this.exited = `could not start ${child.spawnfile}: ${error.message}`;
      clearTimeout(timer);
      onFail(new Error(this.exited));
      this.failPending();
    });
    child.on('exit', (code, signal) => {
      this.exited ??= `the X11 interrupt watcher exited (${signal ?? `code ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ''}`;
      clearTimeout(timer);
      onFail(new Error(this.exited));
      this.failPending();
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let message: HelperMessage;
      try {
        message = JSON.parse(line) as HelperMessage;
      } catch {
        return; // not ours (a stray print); the protocol lines are all JSON
      }
      if (message.type === 'ready') {
        clearTimeout(timer);
        this.capabilities = { hotkey: message.hotkey === true, corner: message.corner === true, input: message.input === true };
        for (const warning of message.warnings ?? []) handlers.onWarning(warning);
        onReady();
      } else if (message.type === 'error') {
        this.exited = message.message ?? 'the X11 interrupt watcher failed';
        clearTimeout(timer);
        onFail(new Error(this.exited));
      } else if (message.type === 'stop') {
        handlers.onStop(message.reason === 'corner' ? 'corner' : 'hotkey', { seenAt: message.seenAt, serverTime: message.serverTime });
      } else if (message.type === 'warning' && message.message) {
        handlers.onWarning(message.message);
      } else if (message.type === 'ack' && message.id !== undefined) {
        const waiter = this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id);
        clearTimeout(waiter.timer);
        if (message.error) waiter.reject(new Error(message.error));
        else waiter.resolve(message);
      }
    });
  }

  async beginOwnInput(points: Point[]): Promise<PersonActivity> {
    return toActivity(await this.command('begin', { points: points.map((p) => [Math.round(p.x), Math.round(p.y)]) }));
  }

  async endOwnInput(): Promise<Point | undefined> {
    const reply = await this.command('end');
    return reply.left ? { x: reply.left[0], y: reply.left[1] } : undefined;
  }

  async activity(): Promise<PersonActivity> {
    return toActivity(await this.command('check'));
  }

  async reset(): Promise<void> {
    await this.command('reset');
  }

  /** The helper's process id (tests: a standby helper is reused). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.onClosed();
    // Closing stdin ends the helper; the kill is for a helper stuck in an X call.
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }

  private command(cmd: string, extra: Record<string, unknown> = {}): Promise<HelperMessage> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = this.nextId++;
    return new Promise<HelperMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the X11 interrupt watcher did not answer "${cmd}" within ${COMMAND_TIMEOUT_MS} ms`));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.child.stdin?.write(`${JSON.stringify({ cmd, id, ...extra })}\n`);
    });
  }

  private failPending(): void {
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(this.exited ?? 'the X11 interrupt watcher ended'));
      this.pending.delete(id);
    }
  }
}

function toActivity(reply: HelperMessage): PersonActivity {
  const person = reply.person;
  if (!person) throw new Error('the X11 interrupt watcher sent no activity');
  return {
    keys: person.keys,
    buttons: person.buttons,
    moved: person.moved,
    pointer: { x: person.pointer[0], y: person.pointer[1] },
    left: { x: person.left[0], y: person.left[1] },
  };
}

