// What the busy-desktop bench needs of an app it starts itself (gnome-calculator, LibreOffice
// Writer, Firefox): its window placed, activated on demand, labels with their screen boxes, and
// stopped for sure with its temp HOME. The real-app drivers of issue 19 grow their own; these
// are the bench's minimal ones.
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_PYTHON } from '../test/desktop/support/fixture';
import { activateWindow, delay, run, stopProcess, type GroundTruthLabel, type Placement, type StartedProcess } from '../test/desktop/support/realApps/appWindow';

const TRUTH_SCRIPT = path.join(__dirname, 'busyDesktopTruth.py');

export interface TruthElement {
  name: string;
  role: string;
  box: [number, number, number, number];
}

export class BenchApp {
  constructor(
    readonly kind: string,
    private readonly process: StartedProcess,
    private readonly home: string,
    readonly env: NodeJS.ProcessEnv,
    readonly windowId: string,
    readonly placement: Placement,
    /** The process that owns the window, when not the one started (LibreOffice's soffice.bin under oosplash). */
    readonly windowPid: number,
  ) {}

  async activate(): Promise<void> {
    await activateWindow(this.windowId, this.env);
  }

  /** Elements read by bench/busyDesktopTruth.py (`what` and its arguments after the pid). */
  async truth(what: string, extra: string[] = []): Promise<GroundTruthLabel[]> {
    const text = await run(FIXTURE_PYTHON, [TRUTH_SCRIPT, what, String(this.windowPid), ...extra], this.env, 20_000);
    const reply = JSON.parse(text) as { ok: boolean; error?: string; elements?: TruthElement[] };
    if (!reply.ok) throw new Error(`ground truth of ${this.kind} failed: ${reply.error ?? 'no reason'}`);
    return (reply.elements ?? []).map((e) => ({ text: e.name, bbox: { x: e.box[0], y: e.box[1], width: e.box[2], height: e.box[3] }, source: 'atspi' as const, role: e.role, where: this.kind }));
  }

  async stop(): Promise<void> {
    await stopProcess(this.process.child);
    // The window's own process, when it is a child that outlives its launcher.
    if (this.windowPid !== this.process.child.pid) {
      try {
        process.kill(this.windowPid, 'SIGTERM');
        await delay(500);
        process.kill(this.windowPid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** A visible top-level window whose title matches, and the pid X says owns it. */
export async function waitForNamedWindow(process: StartedProcess, env: NodeJS.ProcessEnv, title: RegExp, what: string, timeoutMs = 60_000): Promise<{ id: string; pid: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = process.problem();
    if (problem !== undefined) throw new Error(`${what} did not open a window: ${problem}; stderr: ${process.stderr().trim() || '(empty)'}`);
    const ids = (await run('xdotool', ['search', '--onlyvisible', '--name', title.source], env).catch(() => '')).split('\n').filter((l) => l.trim() !== '');
    for (const id of ids) {
      const pid = Number((await run('xdotool', ['getwindowpid', id], env).catch(() => '')).trim());
      if (pid > 0) return { id: id.trim(), pid };
    }
    if (Date.now() > deadline) throw new Error(`${what} opened no window within ${timeoutMs} ms; stderr: ${process.stderr().trim() || '(empty)'}`);
    await delay(200);
  }
}


/** Polls `check` until true, or throws naming `what`. */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await delay(200);
  }
}
