import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DesktopUnavailableError } from '../../../common/errors';
import { WLR_HELPER_SCRIPT } from './wlrHelperScript';

// The one python3 helper that talks Wayland for GAI on a wlroots compositor (wlrHelperScript.ts):
// started on the first question, answering JSON lines by id, ended with its stdin. Only a
// question waiting for its answer keeps Node alive, not the helper itself.

const TIMEOUT_MS = 5_000;

export type HelperAnswer = Record<string, unknown>;

export class WlrHelper {
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private readonly pending = new Map<number, { resolve: (answer: HelperAnswer) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private readonly python: string;
  /** Why the helper cannot copy the screen ('ok' when it can), told by its hello. */
  private captureState: string | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    // Debian's interpreter: a python3 earlier on PATH (pyenv, a venv) may lack what the helper needs.
    this.python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  }

  /** Whether screen copies can come from the helper; starts it. */
  async canCapture(): Promise<boolean> {
    await this.start();
    return this.captureState === 'ok';
  }

  async request(request: Record<string, unknown>): Promise<HelperAnswer> {
    const child = await this.start();
    const id = this.nextId++;
    holdAlive(child, true);
    return await new Promise<HelperAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the Wayland helper did not answer "${String(request.cmd)}" within ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (answer) => (clearTimeout(timer), resolve(answer)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      child.stdin?.write(`${JSON.stringify({ ...request, id })}\n`);
    }).finally(() => this.pending.size === 0 && holdAlive(child, false));
  }

  async dispose(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    child?.stdin?.end();
  }

  private start(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    this.ready = new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(this.python, ['-c', WLR_HELPER_SCRIPT], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
      this.child = child;
      let hello = false;
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        let message: { type?: string; id?: number; ok?: boolean; error?: string; capture?: string };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return;
        }
        if (message.type === 'hello') {
          hello = true;
          this.captureState = message.capture;
          if (message.error) {
            this.ready = undefined;
            reject(new DesktopUnavailableError(`GAI cannot send input to this Wayland desktop: ${message.error}`, 'wlroots compositors (sway, Hyprland, river, labwc, wayfire) offer virtual-pointer and virtual-keyboard; on GNOME and KDE GAI needs the RemoteDesktop portal'));
          } else resolve(child);
          if (this.pending.size === 0) holdAlive(child, false);
          return;
        }
        const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id!);
        if (message.ok) waiter.resolve(message as HelperAnswer);
        else waiter.reject(new Error(`Wayland: ${message.error ?? 'failed'}`));
      });
      child.on('error', (error) => {
        this.ready = undefined;
        reject(new DesktopUnavailableError(`cannot start the Wayland helper (${this.python}): ${error.message}`, 'install python3'));
      });
      child.on('exit', (code, signal) => {
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        if (!hello) reject(new Error(`the Wayland helper ended before it connected (${signal ?? `exit ${code}`})`));
        for (const [id, waiter] of this.pending) {
          this.pending.delete(id);
          waiter.reject(new Error(`the Wayland helper ended (${signal ?? `exit ${code}`})`));
        }
      });
      child.stderr?.resume();
      holdAlive(child, true);
    });
    return this.ready;
  }
}

/** Only a question waiting for its answer keeps Node alive, not the helper itself. */
function holdAlive(child: ChildProcess, alive: boolean): void {
  const streams = [child.stdout, child.stderr, child.stdin] as unknown as Array<{ ref?: () => void; unref?: () => void } | null>;
  if (alive) {
    child.ref();
    for (const stream of streams) stream?.ref?.();
  } else {
    child.unref();
    for (const stream of streams) stream?.unref?.();
  }
}
