// A private X display (Xvfb + openbox) for the desktop tests and the `npm start` demo, so the
// agent never sees or moves the user's real screen and mouse.
import { endProcesses, processesWithEnv } from '../procScan';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { exitText, hasExited, waitForExit } from '../../../common/childProcesses';

export interface VirtualDisplayOptions {
  width?: number;
  height?: number;
  depth?: number;
  /** Start openbox too (default true): without a window manager focus and nut-js misbehave. */
  windowManager?: boolean;
  /** Where xvfb.log and openbox.log go (kept after stop); default a temp dir removed on stop. */
  logDir?: string;
  /** Bound on each start-up step (Xvfb reporting its display, openbox managing). Default 15 s. */
  startTimeoutMs?: number;
  /** Xvfb keeps its screen in a memory-mapped file in logDir (`framebuffer`): read without an X connection. */
  framebufferFile?: boolean;
}

export interface VirtualDisplayProcessIds {
  xvfb: number;
  windowManager?: number;
  watchdog?: number;
}

interface RequiredBinary {
  command: string;
  debianPackage: string;
  forWindowManager: boolean;
}

const REQUIRED_BINARIES: readonly RequiredBinary[] = [
  { command: 'Xvfb', debianPackage: 'xvfb', forWindowManager: false },
  { command: 'openbox', debianPackage: 'openbox', forWindowManager: true },
  { command: 'xprop', debianPackage: 'x11-utils', forWindowManager: true },
];

// Built-in defaults fill everything else; a fixed file keeps the user's ~/.config/openbox out
// (followMouse there would make focus depend on where the pointer happens to be).
const OPENBOX_CONFIG = `<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
  <placement><policy>Smart</policy></placement>
  <desktops><number>1</number></desktops>
</openbox_config>
`;

const STOP_GRACE_MS = 3000;
const POLL_MS = 50;
const LOG_TAIL_CHARS = 2000;

/** Displays still running, killed synchronously if the process exits without stopping them. */
const liveDisplays = new Set<VirtualDisplay>();
const EXIT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export class VirtualDisplay {
  /** Debian packages providing Xvfb, openbox and xprop. */
  static readonly requiredPackages: readonly string[] = REQUIRED_BINARIES.map((binary) => binary.debianPackage);

  /** For child processes: DISPLAY set; WAYLAND_DISPLAY and the user's D-Bus session removed. */
  readonly env: NodeJS.ProcessEnv;
  private windowManager: ChildProcess | undefined;
  private watchdog: ChildProcess | undefined;
  private stopping: Promise<void> | undefined;

  private constructor(
    /** `:N`, as Xvfb chose it. */
    readonly display: string,
    readonly width: number,
    readonly height: number,
    readonly depth: number,
    /** Holds xvfb.log and openbox.log. */
    readonly logDir: string,
    private readonly ownsLogDir: boolean,
    private readonly xvfb: ChildProcess,
  ) {
    this.env = isolatedEnv(display, runtimeDirIn(logDir));
  }

  static async start(options: VirtualDisplayOptions = {}): Promise<VirtualDisplay> {
    const width = options.width ?? 1920;
    const height = options.height ?? 1080;
    const depth = options.depth ?? 24;
    const withWindowManager = options.windowManager ?? true;
    const timeoutMs = options.startTimeoutMs ?? 15000;
    assertBinariesPresent(withWindowManager);

    const ownsLogDir = options.logDir === undefined;
    const logDir = options.logDir ?? mkdtempSync(path.join(tmpdir(), 'gai-display-'));
    mkdirSync(logDir, { recursive: true });

    const xvfb = spawnLogged(
      'Xvfb',
      // -displayfd: Xvfb picks a free display itself (no race over lock files) and writes it to
      // fd 3 once it accepts connections. -noreset: no server reset when the last client leaves.
      ['-displayfd', '3', '-nolisten', 'tcp', '-noreset', '-screen', '0', `${width}x${height}x${depth}`, '-dpi', '96', ...(options.framebufferFile ? ['-fbdir', logDir] : [])],
      path.join(logDir, 'xvfb.log'),
      withoutDisplay(process.env),
      true,
    );
    let display: VirtualDisplay | undefined;
    try {
      const number = await readDisplayNumber(xvfb, timeoutMs, path.join(logDir, 'xvfb.log'));
      display = new VirtualDisplay(`:${number}`, width, height, depth, logDir, ownsLogDir, xvfb);
      trackLive(display);
      if (withWindowManager) await display.startWindowManager(timeoutMs);
      display.startWatchdog();
      return display;
    } catch (error) {
      if (display) await display.stop();
      else {
        await terminateGroup(xvfb);
        if (ownsLogDir) rmSync(logDir, { recursive: true, force: true });
      }
      throw error;
    }
  }

  /** Xvfb's screen as an XWD file, when started with `framebufferFile`. */
  get framebuffer(): string {
    return path.join(this.logDir, 'Xvfb_screen0');
  }

  /** Each is also the id of the process's own group. */
  get processIds(): VirtualDisplayProcessIds {
    return { xvfb: this.xvfb.pid ?? -1, windowManager: this.windowManager?.pid, watchdog: this.watchdog?.pid };
  }

  /** Ends openbox and Xvfb (their whole process groups); safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.watchdog) signalGroup(this.watchdog, 'SIGKILL');
      if (this.windowManager) await terminateGroup(this.windowManager);
      await terminateGroup(this.xvfb);
      untrackLive(this);
      // What the display's session bus started outlives it a moment (the document portal keeps a
      // FUSE mount in the runtime folder until it ends): ended first, so the folder can go.
      const runtimeDir = this.env.XDG_RUNTIME_DIR;
      if (this.ownsLogDir && runtimeDir) await endProcesses(processesWithEnv('XDG_RUNTIME_DIR', runtimeDir));
      if (this.ownsLogDir) rmSync(this.logDir, { recursive: true, force: true });
    })();
    return this.stopping;
  }

  private async startWindowManager(timeoutMs: number): Promise<void> {
    const configFile = path.join(this.logDir, 'openbox-rc.xml');
    writeFileSync(configFile, OPENBOX_CONFIG);
    const logFile = path.join(this.logDir, 'openbox.log');
    const wm = spawnLogged('openbox', ['--sm-disable', '--config-file', configFile], logFile, this.env, false);
    this.windowManager = wm;
    // openbox sets _NET_SUPPORTING_WM_CHECK on the root once it owns WM_S0 and manages windows.
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (hasExited(wm)) {
        throw new Error(`openbox exited during start-up on ${this.display} (${exitText(wm)}): ${logTail(logFile)}`);
      }
      if (await this.windowManagerReady()) return;
      if (Date.now() > deadline) {
        throw new Error(
          `openbox did not start managing ${this.display} within ${timeoutMs} ms ` +
            `(_NET_SUPPORTING_WM_CHECK never appeared on the root window): ${logTail(logFile)}`,
        );
      }
      await delay(POLL_MS);
    }
  }

  /**
   * A shell that ends the servers once this process is gone: covers what the exit handler
   * cannot, i.e. SIGKILL, a native crash, or a signal arriving while Node is blocked.
   */
  private startWatchdog(): void {
    const groups = [this.windowManager?.pid, this.xvfb.pid].filter((pid): pid is number => pid !== undefined);
    // dash's kill takes `-TERM -PGID` but not `--`.
    const script =
      'parent=$1; dir=$2; shift 2; while kill -0 "$parent" 2>/dev/null; do sleep 1; done; ' +
      'for group in "$@"; do kill -TERM "-$group" 2>/dev/null; done; if [ -n "$dir" ]; then rm -rf -- "$dir"; fi';
    const ownDir = this.ownsLogDir ? this.logDir : '';
    const args = ['-c', script, 'gai-display-watchdog', String(process.pid), ownDir, ...groups.map(String)];
    const watchdog = spawn('sh', args, { detached: true, stdio: 'ignore' });
    watchdog.on('error', () => undefined);
    watchdog.unref();
    this.watchdog = watchdog;
  }

  private windowManagerReady(): Promise<boolean> {
    return new Promise((resolve) => {
      execFile('xprop', ['-display', this.display, '-root', '_NET_SUPPORTING_WM_CHECK'], { timeout: 5000 }, (error, stdout) => {
        resolve(error === null && /window id # 0x[0-9a-f]+/i.test(stdout));
      });
    });
  }

  /** For the exit handler: no waiting possible there, so just signal the groups. */
  killNow(): void {
    for (const child of [this.watchdog, this.windowManager, this.xvfb]) if (child) signalGroup(child, 'SIGTERM');
    if (this.ownsLogDir) rmSync(this.logDir, { recursive: true, force: true });
  }
}

function assertBinariesPresent(withWindowManager: boolean): void {
  const needed = REQUIRED_BINARIES.filter((binary) => withWindowManager || !binary.forWindowManager);
  const missing = needed.filter((binary) => !onPath(binary.command));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((binary) => binary.debianPackage))];
  throw new Error(
    `VirtualDisplay needs ${missing.map((binary) => binary.command).join(', ')}, not found on PATH. ` +
      `gai doctor --fix installs them (it names the line for Fedora, Alpine and Arch too); on Debian/Ubuntu: sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`,
  );
}

function onPath(command: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/**
 * Detached, so each server gets its own process group that stop() can kill as a whole, and a
 * Ctrl+C in the terminal does not kill it before stop() runs. Unref'd so a forgotten display
 * does not keep Node alive (the exit handler still ends it).
 */
function spawnLogged(command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv, withDisplayFd: boolean): ChildProcess {
  const logFd = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, {
      detached: true,
      env,
      stdio: withDisplayFd ? ['ignore', logFd, logFd, 'pipe'] : ['ignore', logFd, logFd],
    });
    // ENOENT and friends arrive as 'error'; start-up notices the exit and reports the log.
    child.on('error', () => undefined);
    child.unref();
    return child;
  } finally {
    closeSync(logFd); // the child has its own copy
  }
}

function readDisplayNumber(xvfb: ChildProcess, timeoutMs: number, logFile: string): Promise<number> {
  const pipe = xvfb.stdio[3] as Readable | null | undefined;
  return new Promise((resolve, reject) => {
    if (!pipe) {
      reject(new Error('Xvfb started without its -displayfd pipe'));
      return;
    }
    let text = '';
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      pipe.removeAllListeners('data');
      xvfb.off('exit', onExit);
      xvfb.off('error', onError);
      pipe.destroy();
      outcome();
    };
    const onExit = () => finish(() => reject(new Error(`Xvfb exited during start-up (${exitText(xvfb)}): ${logTail(logFile)}`)));
    const onError = (error: Error) => finish(() => reject(new Error(`could not start Xvfb: ${error.message}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`Xvfb did not report a display within ${timeoutMs} ms: ${logTail(logFile)}`))),
      timeoutMs,
    );
    pipe.setEncoding('utf8');
    pipe.on('data', (chunk: string) => {
      text += chunk;
      const match = /^(\d+)\n/.exec(text);
      if (match?.[1] !== undefined) {
        const number = Number(match[1]);
        finish(() => resolve(number));
      }
    });
    xvfb.once('exit', onExit);
    xvfb.once('error', onError);
  });
}

async function terminateGroup(child: ChildProcess): Promise<void> {
  if (hasExited(child)) {
    signalGroup(child, 'SIGKILL'); // anything the leader left behind in its group
    return;
  }
  signalGroup(child, 'SIGTERM');
  if (await waitForExit(child, STOP_GRACE_MS)) return;
  signalGroup(child, 'SIGKILL');
  if (!(await waitForExit(child, STOP_GRACE_MS))) {
    throw new Error(`process ${child.pid} (${child.spawnfile}) did not exit after SIGKILL`);
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}


function logTail(logFile: string): string {
  try {
    const text = readFileSync(logFile, 'utf8').trim();
    if (!text) return '(its log is empty)';
    return text.length > LOG_TAIL_CHARS ? `...${text.slice(-LOG_TAIL_CHARS)}` : text;
  } catch {
    return '(no log)';
  }
}

/** Keeps children off the user's session: its screen, and its D-Bus (single-instance apps). */
function isolatedEnv(display: string, runtimeDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, XDG_SESSION_TYPE: 'x11', GDK_BACKEND: 'x11', QT_QPA_PLATFORM: 'xcb' };
  // The accessibility bus launcher puts its socket in XDG_RUNTIME_DIR, else in the first app's
  // cache folder: an app started with a temporary HOME would take the bus down with its folder.
  env.XDG_RUNTIME_DIR = runtimeDir;
  // Toolkits prefer Wayland when these are set, which would put windows on the user's screen.
  delete env.WAYLAND_DISPLAY;
  delete env.WAYLAND_SOCKET;
  // Without it GLib autolaunches a bus tied to this X display (it ends with Xvfb) instead of
  // handing, say, a second calculator to the instance already running on the user's desktop.
  delete env.DBUS_SESSION_BUS_ADDRESS;
  // Likewise the accessibility bus: apps here must register on this display's, not the user's.
  delete env.AT_SPI_BUS_ADDRESS;
  return env;
}

/** The display's own runtime folder (0700, as the XDG spec asks), removed with its logs. */
function runtimeDirIn(logDir: string): string {
  const dir = path.join(logDir, 'runtime');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function withoutDisplay(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.DISPLAY;
  delete copy.WAYLAND_DISPLAY;
  return copy;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function killAllNow(): void {
  for (const display of liveDisplays) display.killNow();
  liveDisplays.clear();
}

function onExitSignal(signal: NodeJS.Signals): void {
  killAllNow();
  removeExitHandlers();
  // Only re-raise when nobody else handles the signal, to keep Node's default (terminate).
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function trackLive(display: VirtualDisplay): void {
  if (liveDisplays.size === 0) {
    process.on('exit', killAllNow);
    for (const signal of EXIT_SIGNALS) process.on(signal, onExitSignal);
  }
  liveDisplays.add(display);
}

function untrackLive(display: VirtualDisplay): void {
  liveDisplays.delete(display);
  if (liveDisplays.size === 0) removeExitHandlers();
}

function removeExitHandlers(): void {
  process.off('exit', killAllNow);
  for (const signal of EXIT_SIGNALS) process.off(signal, onExitSignal);
}
