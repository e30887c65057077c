import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { unrefChild } from '../../../common/childProcesses';
import { DesktopUnavailableError } from '../../../common/errors';
import { WLR_HELPER_SCRIPT } from './wlrHelperScript';

// The one python3 helper that drives a Wayland desktop for GAI: on wlroots through the Wayland
// protocols (wlrHelperScript.ts), on GNOME through Mutter's remote-desktop session
// (mutterHelperScript.ts). Both answer the same JSON lines by id; started on the first question,
// ended with its stdin. Only a question waiting for its answer keeps Node alive (by its timer).

const TIMEOUT_MS = 5_000;
/** How long a "no" in the desktop's dialog answers the helper's next starts without asking again. */
const DECLINE_HOLD_MS = 15_000;

export type HelperAnswer = Record<string, unknown>;

/** Which helper to run, and what to tell the person when it cannot reach the desktop. */
export interface HelperKind {
  script: string;
  /** Said after "GAI cannot drive this Wayland desktop: <the helper's reason>". */
  hint: string;
}

export const WLR_HELPER: HelperKind = {
  script: WLR_HELPER_SCRIPT,
  hint: 'wlroots compositors (sway, Hyprland, river, labwc, wayfire) offer virtual-pointer and virtual-keyboard',
};

export class WaylandHelper {
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  /** The person's "no" in the desktop's dialog, answered again until `until`. */
  private declined: { error: Error; until: number } | undefined;
  private readonly pending = new Map<number, { resolve: (answer: HelperAnswer) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private readonly python: string;
  /** Why the helper cannot copy the screen ('ok' when it can), told by its hello. */
  private captureState: string | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly kind: HelperKind = WLR_HELPER,
  ) {
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
    });
  }

  async dispose(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    child?.stdin?.end();
  }

  private start(): Promise<ChildProcess> {
    if (this.ready) return this.ready;
    // The person just said no in the desktop's dialog: the rest of this action is not asked again.
    if (this.declined && performance.now() < this.declined.until) return Promise.reject(this.declined.error);
    this.ready = new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(this.python, ['-c', this.kind.script], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
      this.child = child;
      let hello = false;
      // Also what keeps Node alive until the hello: a helper that never connects fails, not hangs.
      const giveUp = (): void => {
        this.ready = undefined;
        child.kill('SIGKILL');
        reject(new DesktopUnavailableError('the Wayland helper did not connect to the compositor in time', 'check that WAYLAND_DISPLAY names a running compositor (gai doctor)'));
      };
      let startTimer = setTimeout(giveUp, TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        let message: { type?: string; id?: number; ok?: boolean; error?: string; capture?: string; seconds?: number; declined?: boolean };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return;
        }
        if (message.type === 'waiting' && !hello) {
          // The desktop asks the person (the portal's dialog): the helper connects once they answer.
          clearTimeout(startTimer);
          startTimer = setTimeout(giveUp, (Number(message.seconds) || 0) * 1000 + TIMEOUT_MS);
          return;
        }
        if (message.type === 'hello') {
          hello = true;
          this.captureState = message.capture;
          if (message.error) {
            this.ready = undefined;
            const error = new DesktopUnavailableError(`GAI cannot drive this Wayland desktop: ${message.error}`, this.kind.hint);
            if (message.declined) this.declined = { error, until: performance.now() + DECLINE_HOLD_MS };
            reject(error);
          } else resolve(child);
          clearTimeout(startTimer);
          return;
        }
        if (message.type === 'ended') {
          // The desktop ended this helper's session: the next question starts a new helper;
          // this one's questions fail with the reason, not "the helper ended".
          if (this.child === child) {
            this.child = undefined;
            this.ready = undefined;
          }
          for (const [id, waiter] of this.pending) {
            this.pending.delete(id);
            waiter.reject(new Error(`Wayland: ${message.error ?? 'the session ended'}`));
          }
          return;
        }
        const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id!);
        if (message.ok) waiter.resolve(message as HelperAnswer);
        else waiter.reject(new Error(`Wayland: ${message.error ?? 'failed'}`));
      });
      child.on('error', (error) => {
        clearTimeout(startTimer);
        this.ready = undefined;
        reject(new DesktopUnavailableError(`cannot start the Wayland helper (${this.python}): ${error.message}`, 'install python3'));
      });
      child.on('exit', (code, signal) => {
        clearTimeout(startTimer);
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
      unrefChild(child);
    });
    return this.ready;
  }
}
