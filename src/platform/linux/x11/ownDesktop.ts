// GAI's own desktop (issue 22): a private X display (Xvfb + openbox) that GAI starts on demand and
// keeps between commands, so the person's screen, pointer and focus are never touched. One
// keeper process per user holds it (`gai desktop serve`, started detached) and says where it is
// in a small state file; commands given `--desktop own` put their display variables there, and
// apps launched from them open on it with their own D-Bus session and accessibility bus (GLib
// autolaunches one per X display). `gai desktop stop` ends the keeper, which ends the display.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { writeAtomic } from '../../../common/atomicFile';
import { GaiError, errorMessage } from '../../../common/errors';
import { sleep } from '../../../common/timing';
import { spawnDetachedNode } from '../../../common/childProcesses';
import { withoutSecretEnv } from '../../../common/secretEnv';
import { FRAMEBUFFER_VAR } from './framebufferScreen';
import { VirtualDisplay } from './virtualDisplay';

/** Where the keeper's state and log live: this user's runtime folder (0700). */
export interface OwnDesktopPlace {
  dir: string;
  statePath: string;
  logPath: string;
}

/** What the keeper writes once the display is up. */
export interface OwnDesktopState {
  pid: number;
  display: string;
  width: number;
  height: number;
  /** The display's own runtime folder (its accessibility bus socket lives there). */
  runtimeDir: string;
  /** Xvfb's screen as a memory-mapped XWD file (FramebufferScreen); absent from a keeper before it existed. */
  framebuffer?: string;
  startedAt: string;
}

const START_WAIT_MS = 30_000;
/** Set for the keeper process: the entry runs `desktop serve` whatever it would run otherwise. */
export const OWN_DESKTOP_KEEPER_VAR = 'GAI_DESKTOP_KEEPER';
const STOP_WAIT_MS = 10_000;

export function ownDesktopPlace(env: NodeJS.ProcessEnv): OwnDesktopPlace {
  const runtime = env.XDG_RUNTIME_DIR;
  const dir = runtime && existsSync(runtime) ? join(runtime, 'gai') : join(tmpdir(), `gai-${userInfo().uid}`);
  return { dir, statePath: join(dir, 'own-desktop.json'), logPath: join(dir, 'own-desktop.log') };
}

/** The running own desktop, or undefined (a state left by a keeper that died is removed). */
export function readOwnDesktop(place: OwnDesktopPlace): OwnDesktopState | undefined {
  let state: OwnDesktopState;
  try {
    state = JSON.parse(readFileSync(place.statePath, 'utf8')) as OwnDesktopState;
  } catch {
    return undefined;
  }
  if (typeof state.pid === 'number' && typeof state.display === 'string' && alive(state.pid)) return state;
  rmSync(place.statePath, { force: true });
  return undefined;
}

/**
 * The environment of a command that works on the own desktop: its display, its runtime folder,
 * X11 for every toolkit, and none of the person's session (Wayland, D-Bus, accessibility bus).
 */
export function ownDesktopEnv(base: NodeJS.ProcessEnv, state: OwnDesktopState): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, DISPLAY: state.display, XDG_RUNTIME_DIR: state.runtimeDir, XDG_SESSION_TYPE: 'x11', GDK_BACKEND: 'x11', QT_QPA_PLATFORM: 'xcb' };
  if (state.framebuffer) env[FRAMEBUFFER_VAR] = state.framebuffer;
  for (const name of ['WAYLAND_DISPLAY', 'WAYLAND_SOCKET', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS', 'SWAYSOCK', 'XDG_CURRENT_DESKTOP', 'XAUTHORITY']) delete env[name];
  return env;
}

/**
 * Starts the own desktop in this process and says where it is; `release` ends it (a host that
 * holds it for its own lifetime: the keeper, or the VS Code extension host).
 */
export async function holdOwnDesktop(place: OwnDesktopPlace, size: { width: number; height: number }): Promise<{ state: OwnDesktopState; release(): Promise<void> }> {
  mkdirSync(place.dir, { recursive: true, mode: 0o700 });
  const display = await VirtualDisplay.start({ ...size, framebufferFile: true });
  const state: OwnDesktopState = {
    pid: process.pid,
    display: display.display,
    width: display.width,
    height: display.height,
    runtimeDir: display.env.XDG_RUNTIME_DIR ?? '',
    framebuffer: display.framebuffer,
    startedAt: new Date().toISOString(),
  };
  await writeAtomic(place.statePath, JSON.stringify(state, null, 2));
  return {
    state,
    release: async () => {
      await display.stop();
      rmSync(place.statePath, { force: true });
    },
  };
}

/** The keeper (`gai desktop serve`): holds the own desktop until a signal. */
export async function serveOwnDesktop(place: OwnDesktopPlace, size: { width: number; height: number }, log: (line: string) => void): Promise<void> {
  const held = await holdOwnDesktop(place, size);
  // The display's processes do not hold this one open: a timer does, until a signal ends it.
  const holding = setInterval(() => undefined, 1 << 30);
  log(`own desktop ${held.state.display} (${held.state.width}x${held.state.height}) ready, pid ${process.pid}`);
  await new Promise<void>((resolve) => {
    const end = (signal: string): void => {
      log(`own desktop ${held.state.display}: ${signal}, stopping`);
      void held.release().finally(() => {
        clearInterval(holding);
        resolve();
      });
    };
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => end(signal));
  });
}

/** The own desktop, started in the background when none runs; `started` says whether this call started it. */
export async function ensureOwnDesktop(place: OwnDesktopPlace, entry: string, env: NodeJS.ProcessEnv, size = { width: 1920, height: 1080 }): Promise<{ state: OwnDesktopState; started: boolean }> {
  const running = readOwnDesktop(place);
  if (running) return { state: running, started: false };
  mkdirSync(place.dir, { recursive: true, mode: 0o700 });
  // It outlives the command that started it, and holds a display only: no model keys in it.
  const keeper = spawnDetachedNode([entry, '--size', `${size.width}x${size.height}`], place.logPath, { ...withoutSecretEnv(env), [OWN_DESKTOP_KEEPER_VAR]: '1' });
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    const state = readOwnDesktop(place);
    if (state) return { state, started: true };
    const exited = keeper.exitCode();
    if (exited !== undefined) throw new GaiError('CONFIG', `GAI's own desktop did not start (the keeper exited with code ${exited}): ${logTail(place.logPath)}`);
    await sleep(50);
  }
  throw new GaiError('CONFIG', `GAI's own desktop did not start within ${START_WAIT_MS / 1000} s: ${logTail(place.logPath)}`);
}

/** Ends the keeper and waits until it is gone; false when none ran. */
export async function stopOwnDesktop(place: OwnDesktopPlace): Promise<boolean> {
  const state = readOwnDesktop(place);
  if (!state) return false;
  try {
    process.kill(state.pid, 'SIGTERM');
  } catch (error) {
    throw new GaiError('CONFIG', `could not stop GAI's own desktop (pid ${state.pid}): ${errorMessage(error)}`);
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (alive(state.pid) && Date.now() < deadline) await sleep(50);
  if (alive(state.pid)) throw new GaiError('CONFIG', `GAI's own desktop (pid ${state.pid}) did not stop within ${STOP_WAIT_MS / 1000} s`);
  rmSync(place.statePath, { force: true });
  return true;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-5).join(' | ') || '(empty log)';
  } catch {
    return '(no log)';
  }
}
