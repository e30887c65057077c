// A headless sway (wlroots) desktop for the Wayland tests: started as the unprivileged user the
// set-up creates (sway refuses to run as root), with its own XDG_RUNTIME_DIR, a 1280x800 output
// and the pixman renderer. Stopped by the PID of the process group it was started in.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WLR_HELPER_SCRIPT } from '../../../src/platform/linux/wayland/wlrHelperScript';

export const WAYLAND_USER = 'gai-wayland';
export const SWAY_SIZE = { width: 1280, height: 800 };

/**
 * The XWayland display of a sway started with `xwayland`, opened to root's X clients (sway runs
 * as another user, and XWayland admits only that user by default): X11 apps of the test run there.
 */
export async function xwaylandDisplay(sway: SwayDisplay, ipc: { command(text: string): Promise<void> }): Promise<string> {
  const file = join(sway.runtimeDir, 'xwayland-display');
  await ipc.command(`exec echo $DISPLAY > ${file}`);
  const deadline = Date.now() + 5_000;
  while (!existsSync(file) || !readFileSync(file, 'utf8').trim()) {
    if (Date.now() > deadline) throw new Error('sway started no XWayland display');
    await new Promise((r) => setTimeout(r, 50));
  }
  const display = readFileSync(file, 'utf8').trim();
  // python3-xlib as the session's user: `xhost +si:localuser:root` without x11-xserver-utils.
  const grant = "from Xlib import display, X; d = display.Display(); d.change_hosts(X.HostInsert, 5, b'localuser\\x00root'); d.sync()";
  execFileSync('runuser', ['-u', WAYLAND_USER, '--', 'env', `DISPLAY=${display}`, '/usr/bin/python3', '-c', grant], { timeout: 10_000 });
  return display;
}

export interface SwayDisplay {
  /** For clients of this desktop: WAYLAND_DISPLAY, XDG_RUNTIME_DIR, SWAYSOCK; no DISPLAY. */
  env: NodeJS.ProcessEnv;
  runtimeDir: string;
  swaySocket: string;
  stop(): Promise<void>;
}

/** Why sway cannot be started here, or undefined when it can. */
export function swayMissing(): string | undefined {
  if (process.platform !== 'linux') return 'sway runs on Linux only';
  if (spawnSync('sway', ['--version'], { stdio: 'ignore' }).error) return 'sway is not installed (npm test installs it as root)';
  const user = spawnSync('id', ['-u', WAYLAND_USER], { encoding: 'utf8' });
  if (user.status !== 0) return `the ${WAYLAND_USER} user is missing (npm test creates it as root)`;
  if (process.getuid?.() !== 0 && String(process.getuid?.()) !== user.stdout.trim()) return `sway is started as ${WAYLAND_USER}, which needs root`;
  return undefined;
}

export async function startSway(timeoutMs = 15_000, size: { width: number; height: number } = SWAY_SIZE, xwayland = false): Promise<SwayDisplay> {
  const ids = spawnSync('id', [WAYLAND_USER], { encoding: 'utf8' }).stdout;
  const uid = Number(/uid=(\d+)/.exec(ids)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(ids)?.[1]);
  const runtimeDir = mkdtempSync('/tmp/gai-sway-');
  chownSync(runtimeDir, uid, gid);
  chmodSync(runtimeDir, 0o700);
  const config = join(runtimeDir, 'config');
  writeFileSync(config, `output HEADLESS-1 resolution ${size.width}x${size.height}\nxwayland ${xwayland ? 'force' : 'disable'}\nfocus_follows_mouse no\n`);
  chownSync(config, uid, gid);
  const env = [
    `HOME=/home/${WAYLAND_USER}`, 'PATH=/usr/bin:/bin', `XDG_RUNTIME_DIR=${runtimeDir}`,
    'WLR_BACKENDS=headless', 'WLR_LIBINPUT_NO_DEVICES=1', 'WLR_RENDERER=pixman',
  ];
  const child: ChildProcess = spawn('runuser', ['-u', WAYLAND_USER, '--', 'env', '-i', ...env, 'sway', '-c', config], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-4000)));
  // The desktop's own session bus: the accessibility bus is started through it, for its apps only.
  const busAddress = `unix:path=${join(runtimeDir, 'bus')}`;
  const bus = spawn('dbus-daemon', ['--session', '--nofork', `--address=${busAddress}`], { stdio: 'ignore' });
  let devices: ChildProcess | undefined;
  // Ends sway's process group and the bus once this process is gone, however it ended (SIGKILL,
  // a crash): sway runs as another user and would outlive the test run. dash's kill takes `-TERM -PGID`.
  const watchdog = spawn('sh', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -TERM "-$2" "$3" 2>/dev/null; rm -rf -- "$4"',
    'gai-sway-watchdog', String(process.pid), String(child.pid ?? 0), String(bus.pid ?? 0), runtimeDir], { detached: true, stdio: 'ignore' });
  watchdog.on('error', () => undefined);
  watchdog.unref();
  const stop = async (): Promise<void> => {
    if (watchdog.pid !== undefined && watchdog.exitCode === null) watchdog.kill('SIGKILL');
    if (devices?.pid !== undefined && devices.exitCode === null) devices.kill('SIGTERM');
    if (bus.pid !== undefined && bus.exitCode === null) bus.kill('SIGTERM');
    if (child.pid !== undefined && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(runtimeDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = existsSync(runtimeDir) ? readdirSync(runtimeDir) : [];
    const wayland = names.find((n) => /^wayland-\d+$/.test(n));
    const ipc = names.find((n) => /^sway-ipc\..*\.sock$/.test(n));
    if (wayland && ipc && existsSync(join(runtimeDir, 'bus'))) {
      const swaySocket = join(runtimeDir, ipc);
      const clientEnv: NodeJS.ProcessEnv = {
        ...process.env, WAYLAND_DISPLAY: wayland, XDG_RUNTIME_DIR: runtimeDir, SWAYSOCK: swaySocket,
        XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: busAddress,
      };
      delete clientEnv.DISPLAY;
      delete clientEnv.AT_SPI_BUS_ADDRESS;
      // The person's mouse and keyboard: a seat with no device has no pointer, and a menu opened
      // by a click of GAI's (whose virtual devices end with its process) would lose its grab.
      devices = spawn('/usr/bin/python3', ['-c', WLR_HELPER_SCRIPT], { env: clientEnv, stdio: ['pipe', 'pipe', 'ignore'] });
      const hello = await new Promise<string>((resolve) => {
        createInterface({ input: devices!.stdout! }).once('line', resolve);
        devices!.once('exit', () => resolve('exited'));
      });
      if (!hello.includes('"pid"')) {
        await stop();
        throw new Error(`the stand-in mouse and keyboard did not join sway: ${hello}`);
      }
      return { env: clientEnv, runtimeDir, swaySocket, stop };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`sway did not start (${child.exitCode !== null ? `exit ${child.exitCode}` : `no sockets within ${timeoutMs} ms`}): ${log.trim().split('\n').slice(-3).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
