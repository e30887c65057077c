import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { describeCombo } from '../../../desktop/input/keys';
import type {
  InputRecorderPort, InputRecording, RecordingHandlers, RecordingOptions,
} from '../../../desktop/ports/inputRecorderPort';
import { xKeysym } from '../xKeysyms';
import { parseInputLine, RecordedInputAssembler } from './x11RecorderLines';
import { X11_RECORDER_SCRIPT } from './x11RecorderScript';

// Linux/X11: a python3-xlib helper watches the person's input through XInput 2 raw events on the
// root window (x11RecorderScript.ts has its protocol) and grabs the stop hotkey; this side stamps
// each line with performance.now() as it arrives and assembles the port's RecordedInput from the
// lines (x11RecorderLines.ts). The display is the one DISPLAY in `env` names: GAI's own Xvfb
// desktop works from a process on another display.

const START_TIMEOUT_MS = 10_000;
const FLUSH_TIMEOUT_MS = 3_000;
const EXIT_TIMEOUT_MS = 2_000;

export interface X11InputRecorderOptions {
  env: NodeJS.ProcessEnv;
  /** Default /usr/bin/python3 when present (python3-xlib is installed for Debian's interpreter). */
  python?: string;
}

export class X11InputRecorder implements InputRecorderPort {
  private readonly env: NodeJS.ProcessEnv;
  private readonly python: string;

  constructor(options: X11InputRecorderOptions) {
    this.env = options.env;
    this.python = options.python ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  }

  async record(options: RecordingOptions, handlers: RecordingHandlers): Promise<InputRecording> {
    if (!this.env.DISPLAY?.trim()) throw new Error("cannot record the person's input: no X display (DISPLAY is not set)");
    const hotkey = options.stopHotkey
      ? { keysym: xKeysym(options.stopHotkey.key), modifiers: options.stopHotkey.modifiers, label: describeCombo(options.stopHotkey) }
      : undefined;
    // -E: a PYTHONPATH meant for another interpreter must not hide python3-xlib.
    const child = spawn(this.python, ['-E', '-c', X11_RECORDER_SCRIPT, JSON.stringify({ hotkey })], {
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const recording = new HelperRecording(child, handlers, this.env.DISPLAY);
    await recording.started;
    return recording;
  }
}

interface HelperMessage {
  type?: string;
  id?: number;
  message?: string;
  hotkey?: boolean;
  warnings?: string[];
  [field: string]: unknown;
}

class HelperRecording implements InputRecording {
  readonly started: Promise<void>;
  private readonly assembler: RecordedInputAssembler;
  private readonly flushes = new Map<number, () => void>();
  private nextId = 1;
  private running = false;
  /** Why the helper ended or could not start, once known. */
  private failure?: string;
  private stderr = '';
  private stopping?: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    private readonly handlers: RecordingHandlers,
    private readonly display: string,
  ) {
    this.assembler = new RecordedInputAssembler((input) => handlers.onInput(input));
    let onReady: () => void = () => {};
    let onFail: (e: Error) => void = () => {};
    this.started = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFail = reject;
    });
    const fail = (why: string): void => {
      this.failure ??= why;
      clearTimeout(timer);
      if (!this.running) onFail(new Error(`cannot record the person's input: ${this.failure}`));
      else if (!this.stopping) handlers.onWarning(`the input recording ended early: ${this.failure}`);
      this.running = false;
      this.settleFlushes();
    };
    const timer = setTimeout(() => {
      fail(`the X11 input recorder did not start within ${START_TIMEOUT_MS} ms on display ${display}`);
      void this.end();
    }, START_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    child.stdin?.on('error', () => {}); // EPIPE after the helper died; reported through 'exit'
    child.on('error', (error) => {
      fail(`could not start ${child.spawnfile} (${error.message}); recording needs python3 with python3-xlib`);
    });
    // 'close', not 'exit': the helper's last lines (its error) are read by then.
    child.on('close', (code, signal) => {
      fail(`the X11 input recorder exited (${signal ?? `code ${code}`})${lastLine(this.stderr)}`);
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (text) => {
      const seenAt = performance.now();
      let message: HelperMessage;
      try {
        message = JSON.parse(text) as HelperMessage;
      } catch {
        return; // not ours (a stray print); the protocol lines are all JSON
      }
      const input = parseInputLine(message);
      if (input) {
        this.assembler.take(input, seenAt);
      } else if (message.type === 'ready') {
        clearTimeout(timer);
        this.running = true;
        for (const warning of message.warnings ?? []) handlers.onWarning(warning);
        onReady();
      } else if (message.type === 'stop') {
        this.assembler.stop();
        handlers.onStop();
      } else if (message.type === 'flushed' && typeof message.id === 'number') {
        this.flushes.get(message.id)?.();
      } else if (message.type === 'warning' && message.message) {
        handlers.onWarning(message.message);
      } else if (message.type === 'error') {
        fail(message.message ?? 'the X11 input recorder failed');
      }
    });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.running) await this.flush();
      this.assembler.flush();
      await this.end();
    })();
    return this.stopping;
  }

  /** The helper's process id (tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Resolves once the helper wrote every event the X server had processed when asked. */
  private flush(): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, FLUSH_TIMEOUT_MS); // a helper stuck in an X call: deliver what came
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.flushes.set(id, () => {
        this.flushes.delete(id);
        done();
      });
      this.child.stdin?.write(`${JSON.stringify({ cmd: 'flush', id })}\n`);
    });
  }

  private async end(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    // Closing stdin ends the helper; the kill (by its PID, through the handle) is for one stuck in an X call.
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private settleFlushes(): void {
    for (const settle of [...this.flushes.values()]) settle();
  }
}

/** The helper's last stderr line (a Python error's message, not its traceback), or ''. */
function lastLine(stderr: string): string {
  const last = stderr.trim().split('\n').pop()?.trim();
  return last ? `: ${last}` : '';
}
