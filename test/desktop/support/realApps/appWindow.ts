// Shared bits of the real-app helpers: a child process with its stderr kept, its top-level X
// window found by pid, placed with xdotool (no wmctrl), and stopped for sure.
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { exitText, hasExited, waitForExit } from '../../../../src/common/childProcesses';
import type { BBox } from '../../../../src/common/geometry';
import { FIXTURE_PYTHON } from '../fixture';

/** Where a real app's window goes on the 1920x1080 screen (client area, screen pixels). */
export interface Placement {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One label of an app with the box it must be clicked in (screen pixels). */
export interface GroundTruthLabel {
  /** What a person would ask for: the visible text, or the accessible name of a glyph/icon. */
  text: string;
  bbox: BBox;
  /** Where it comes from: 'dom' (DevTools protocol) or 'atspi'. */
  source: 'dom' | 'atspi';
  /** Role (AT-SPI) or tag name (DOM), for messages. */
  role: string;
  /** The DOM id, or the AT-SPI window the element is in. */
  where: string;
}

export interface StartedProcess {
  child: ChildProcess;
  stderr(): string;
  /** Why it will not come up: undefined while it may still. */
  problem(): string | undefined;
}

const STDERR_LIMIT = 4000;
const KILL_GRACE_MS = 4000;

export function startProcess(command: string, args: string[], options: SpawnOptions): StartedProcess {
  const child = spawn(command, args, options);
  let stderr = '';
  let spawnError: Error | undefined;
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  child.on('error', (error) => {
    spawnError = error;
  });
  return {
    child,
    stderr: () => stderr,
    problem: () => (spawnError ? `could not start ${command}: ${spawnError.message}` : hasExited(child) ? `${command} exited (${exitText(child)})` : undefined),
  };
}

/** SIGTERM, then SIGKILL after a grace period; resolves once it is gone. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  child.kill('SIGTERM');
  if (!(await waitForExit(child, KILL_GRACE_MS))) {
    child.kill('SIGKILL');
    await waitForExit(child, KILL_GRACE_MS);
  }
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message} ${String(stderr).trim()}`));
      else resolve(String(stdout));
    });
  });
}

/** The app's visible top-level window (xdotool search by _NET_WM_PID). */
export async function waitForWindow(process: StartedProcess, env: NodeJS.ProcessEnv, what: string, timeoutMs = 30_000): Promise<string> {
  const pid = process.child.pid;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = process.problem();
    if (problem !== undefined) throw new Error(`${what} did not open a window: ${problem}; stderr: ${process.stderr().trim() || '(empty)'}`);
    if (pid !== undefined) {
      const ids = await run('xdotool', ['search', '--onlyvisible', '--pid', String(pid)], env).catch(() => '');
      const id = ids.split('\n').map((line) => line.trim()).find((line) => line !== '');
      if (id !== undefined) return id;
    }
    if (Date.now() > deadline) throw new Error(`${what} opened no window within ${timeoutMs} ms; stderr: ${process.stderr().trim() || '(empty)'}`);
    await delay(100);
  }
}

/** Moves and sizes a window's client area, then waits until X reports that geometry. */
export async function placeWindow(windowId: string, placement: Placement, env: NodeJS.ProcessEnv): Promise<Placement> {
  let last: Placement | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    await run('xdotool', ['windowsize', windowId, String(placement.width), String(placement.height)], env);
    await run('xdotool', ['windowmove', windowId, String(placement.x), String(placement.y)], env);
    await delay(150);
    last = await windowGeometry(windowId, env);
    // The window manager may keep a minimum size or add its frame; near is good enough, the ground
    // truth is read after placing.
    if (Math.abs(last.x - placement.x) <= 40 && Math.abs(last.y - placement.y) <= 40 && Math.abs(last.width - placement.width) <= 40) return last;
  }
  return last!;
}

// EWMH: ask the window manager to take the window out of its maximized state.
const UNMAXIMIZE = `
import sys
from Xlib import display, X, protocol
d = display.Display()
w = d.create_resource_object('window', int(sys.argv[1]))
atom = d.intern_atom
data = [0, atom('_NET_WM_STATE_MAXIMIZED_VERT'), atom('_NET_WM_STATE_MAXIMIZED_HORZ'), 1, 0]
event = protocol.event.ClientMessage(window=w, client_type=atom('_NET_WM_STATE'), data=(32, data))
d.screen().root.send_event(event, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
d.flush()
`;

/** Takes a window out of its maximized state (LibreOffice opens maximized the first time), so it can be placed. */
export async function unmaximize(windowId: string, env: NodeJS.ProcessEnv): Promise<void> {
  await run(FIXTURE_PYTHON, ['-c', UNMAXIMIZE, windowId], env);
  await delay(300);
}

export async function windowGeometry(windowId: string, env: NodeJS.ProcessEnv): Promise<Placement> {
  const info = await run('xwininfo', ['-id', windowId], env);
  const read = (label: string): number => {
    const match = new RegExp(`${label}:\\s+(-?\\d+)`).exec(info);
    if (!match) throw new Error(`xwininfo -id ${windowId} has no "${label}": ${info}`);
    return Number(match[1]);
  };
  return { x: read('Absolute upper-left X'), y: read('Absolute upper-left Y'), width: read('Width'), height: read('Height') };
}

export async function activateWindow(windowId: string, env: NodeJS.ProcessEnv): Promise<void> {
  await run('xdotool', ['windowactivate', '--sync', windowId], env).catch(() => run('xdotool', ['windowfocus', windowId], env));
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The centre of a box, for real clicks. */
/** A real click (xdotool) on the centre of the first element with this name (and role); `what` names the app in the error. */
export async function clickFirst<E extends { name: string; role: string; bbox: BBox }>(elements: readonly E[], name: string | RegExp, role: string | undefined, what: string, env: NodeJS.ProcessEnv): Promise<E> {
  const matches = (e: E): boolean => (typeof name === 'string' ? e.name === name : name.test(e.name)) && (role === undefined || e.role === role);
  const element = elements.find(matches);
  if (!element) throw new Error(`${what} shows no element ${String(name)}${role ? ` (${role})` : ''}`);
  const point = centre(element.bbox);
  await run('xdotool', ['mousemove', String(point.x), String(point.y), 'click', '1'], env);
  return element;
}

export function centre(box: BBox): { x: number; y: number } {
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}
