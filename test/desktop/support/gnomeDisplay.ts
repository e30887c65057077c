// A headless GNOME desktop for the Wayland tests: Mutter 43 alone, or GNOME Shell 43 (Mutter with
// the shell people use: top bar, overview, screen-sharing indicator), with a virtual monitor and no
// X11, on a session bus of its own with PipeWire and WirePlumber (screen-cast streams need them).
// GNOME Shell also wants a system bus: a private one stands in, so nothing of the machine's is
// touched. Both run as root here (unlike sway they do not refuse); each process is stopped by PID.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { DesktopProcesses } from './busProcesses';

export const GNOME_SIZE = { width: 1280, height: 800 };

export interface GnomeDisplay {
  /** For clients of this desktop: WAYLAND_DISPLAY, XDG_RUNTIME_DIR, the session bus, GNOME named. */
  env: NodeJS.ProcessEnv;
  runtimeDir: string;
  stop(): Promise<void>;
}

export type GnomeKind = 'mutter' | 'gnome-shell';

/** Why this headless GNOME desktop cannot be started here, or undefined when it can. */
export function gnomeMissing(kind: GnomeKind): string | undefined {
  if (process.platform !== 'linux') return 'Mutter runs on Linux only';
  const absent = (probe: { error?: Error }): boolean => probe.error !== undefined;
  if (absent(spawnSync('mutter', ['--version'], { stdio: 'ignore' }))) return 'mutter is not installed (npm test installs it as root)';
  if (absent(spawnSync('pipewire', ['--version'], { stdio: 'ignore' }))) return 'pipewire is not installed (npm test installs it as root)';
  if (absent(spawnSync('wireplumber', ['--version'], { stdio: 'ignore' }))) return 'wireplumber is not installed (npm test installs it as root)';
  if (absent(spawnSync('dbus-daemon', ['--version'], { stdio: 'ignore' }))) return 'dbus-daemon is not installed (npm test installs it as root)';
  if (kind === 'gnome-shell' && absent(spawnSync('gnome-shell', ['--version'], { stdio: 'ignore' }))) return 'gnome-shell is not installed (npm test installs it as root)';
  const gst = spawnSync('/usr/bin/python3', ['-c', "import gi; gi.require_version('Gst', '1.0'); from gi.repository import Gst; Gst.init(None); assert Gst.ElementFactory.find('pipewiresrc')"], { stdio: 'ignore' });
  if (gst.status !== 0) return 'python3-gi with GStreamer\'s PipeWire source is not installed (npm test installs it as root)';
  return undefined;
}

export async function startGnome(kind: GnomeKind, timeoutMs = 30_000, size = GNOME_SIZE): Promise<GnomeDisplay> {
  const runtimeDir = mkdtempSync('/tmp/gai-gnome-');
  const busAddress = `unix:path=${join(runtimeDir, 'bus')}`;
  const base: NodeJS.ProcessEnv = {
    HOME: runtimeDir, PATH: process.env.PATH, XDG_RUNTIME_DIR: runtimeDir, DBUS_SESSION_BUS_ADDRESS: busAddress,
    // No colord, no session manager, no locale daemon: Mutter says so once and goes on.
    XDG_CONFIG_HOME: join(runtimeDir, 'config'), GSETTINGS_BACKEND: 'memory',
  };
  const processes = new DesktopProcesses(runtimeDir, busAddress);
  const track = (child: ChildProcess): ChildProcess => processes.track(child);
  const options = { env: base, stdio: ['ignore', 'ignore', 'pipe'] as ['ignore', 'ignore', 'pipe'] };
  track(spawn('dbus-daemon', ['--session', '--nofork', `--address=${busAddress}`], options));
  await waitFor(() => existsSync(join(runtimeDir, 'bus')), 5_000);
  if (kind === 'gnome-shell') {
    // logind, polkit, accounts: absent from this bus, which GNOME Shell takes in its stride.
    base.DBUS_SYSTEM_BUS_ADDRESS = `unix:path=${join(runtimeDir, 'system-bus')}`;
    track(spawn('dbus-daemon', ['--session', '--nofork', `--address=${base.DBUS_SYSTEM_BUS_ADDRESS}`], options));
    await waitFor(() => existsSync(join(runtimeDir, 'system-bus')), 5_000);
  }
  track(spawn('pipewire', [], options));
  await waitFor(() => existsSync(join(runtimeDir, 'pipewire-0')), 5_000);
  track(spawn('wireplumber', [], options));
  const compositorArgs = ['--headless', '--virtual-monitor', `${size.width}x${size.height}`, '--wayland', '--no-x11'];
  const mutter = track(kind === 'gnome-shell' ? spawn('gnome-shell', compositorArgs, options) : spawn('mutter', compositorArgs, options));
  processes.guard('gai-gnome-watchdog');
  const stop = (): Promise<void> => processes.stop();
  try {
    await waitFor(() => mutter.exitCode !== null || (existsSync(join(runtimeDir, 'wayland-0')) && remoteDesktopOnBus(base)), timeoutMs);
    if (mutter.exitCode !== null) throw new Error(`exit ${mutter.exitCode}`);
  } catch (error) {
    await stop();
    throw new Error(`headless ${kind} did not start (${error instanceof Error ? error.message : String(error)}): ${processes.log.trim().split('\n').slice(-3).join(' | ')}`, { cause: error });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env, WAYLAND_DISPLAY: 'wayland-0', XDG_RUNTIME_DIR: runtimeDir, DBUS_SESSION_BUS_ADDRESS: busAddress,
    XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'GNOME',
  };
  delete env.DISPLAY;
  delete env.AT_SPI_BUS_ADDRESS;
  delete env.SWAYSOCK;
  return { env, runtimeDir, stop };
}

function remoteDesktopOnBus(env: NodeJS.ProcessEnv): boolean {
  const names = spawnSync('/usr/bin/python3', ['-c', 'from gi.repository import Gio; b = Gio.bus_get_sync(Gio.BusType.SESSION, None); print(b.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", None, None, 0, 2000, None).unpack()[0])'], { env, encoding: 'utf8', timeout: 5_000 });
  return names.stdout.includes('org.gnome.Mutter.RemoteDesktop');
}

async function waitFor(ready: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
