// A headless KDE Plasma desktop for the Wayland tests: KWin 5.27 (Debian 12's kwin-wayland) with
// its virtual backend and software OpenGL, on a session bus of its own with PipeWire, WirePlumber
// and the desktop portal (xdg-desktop-portal and its KDE backend, D-Bus activated with this
// desktop's variables, as in a Plasma session). Two things differ from a person's Plasma:
// - KWin runs from a copy of its binary: the package gives /usr/bin/kwin_wayland a file
//   capability (cap_sys_resource), and this machine refuses to run a binary that carries one,
//   even for root; a copy carries none. KWIN_FORCE_OWN_QPA=1 lets the copy load KWin's own Qt
//   platform plugin, which it otherwise loads only in a binary called kwin_wayland.
// - KWin 5.27's virtual backend paints its screen but tells its screen-cast plugin of no frame,
//   so the portal's stream of this desktop carries no picture (a real Plasma's does).
// Each process is stopped by PID; a watchdog ends them if this process dies.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { DesktopProcesses } from './busProcesses';

export const KDE_SIZE = { width: 1280, height: 800 };

export interface KdeDisplay {
  /** For clients of this desktop: WAYLAND_DISPLAY, XDG_RUNTIME_DIR, the session bus, KDE named. */
  env: NodeJS.ProcessEnv;
  runtimeDir: string;
  stop(): Promise<void>;
}

const PORTAL_KDE = '/usr/lib/x86_64-linux-gnu/libexec/xdg-desktop-portal-kde';

/** Why this headless KDE desktop cannot be started here, or undefined when it can. */
export function kdeMissing(): string | undefined {
  if (process.platform !== 'linux') return 'KWin runs on Linux only';
  const absent = (probe: { error?: Error }): boolean => probe.error !== undefined;
  // Not run to ask its version: the installed binary carries a file capability (see above).
  if (!existsSync('/usr/bin/kwin_wayland')) return 'kwin_wayland is not installed (npm test installs kwin-wayland as root)';
  if (absent(spawnSync('pipewire', ['--version'], { stdio: 'ignore' }))) return 'pipewire is not installed (npm test installs it as root)';
  if (absent(spawnSync('wireplumber', ['--version'], { stdio: 'ignore' }))) return 'wireplumber is not installed (npm test installs it as root)';
  if (absent(spawnSync('dbus-daemon', ['--version'], { stdio: 'ignore' }))) return 'dbus-daemon is not installed (npm test installs it as root)';
  if (!existsSync('/usr/libexec/xdg-desktop-portal')) return 'xdg-desktop-portal is not installed (npm test installs it as root)';
  if (!existsSync(PORTAL_KDE)) return 'xdg-desktop-portal-kde is not installed (npm test installs it as root)';
  const gst = spawnSync('/usr/bin/python3', ['-c', "import gi; gi.require_version('Gst', '1.0'); from gi.repository import Gst; Gst.init(None); assert Gst.ElementFactory.find('pipewiresrc')"], { stdio: 'ignore' });
  if (gst.status !== 0) return 'python3-gi with GStreamer\'s PipeWire source is not installed (npm test installs it as root)';
  return undefined;
}

export async function startKde(timeoutMs = 30_000, size = KDE_SIZE): Promise<KdeDisplay> {
  const runtimeDir = mkdtempSync('/tmp/gai-kde-');
  const busAddress = `unix:path=${join(runtimeDir, 'bus')}`;
  // What a Plasma session gives its programs; the bus passes it on to the services it activates
  // (the portal, its KDE backend, kglobalaccel, the accessibility bus).
  const base: NodeJS.ProcessEnv = {
    HOME: runtimeDir, PATH: process.env.PATH, XDG_RUNTIME_DIR: runtimeDir, DBUS_SESSION_BUS_ADDRESS: busAddress,
    XDG_CONFIG_HOME: join(runtimeDir, 'config'), XDG_CURRENT_DESKTOP: 'KDE', XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0',
  };
  const processes = new DesktopProcesses(runtimeDir, busAddress);
  const track = (child: ChildProcess): ChildProcess => processes.track(child);
  const options = { env: base, stdio: ['ignore', 'ignore', 'pipe'] as ['ignore', 'ignore', 'pipe'] };
  // The bus's stderr is not kept: the services it starts inherit it and may outlive it a while.
  track(spawn('dbus-daemon', ['--session', '--nofork', `--address=${busAddress}`], { env: base, stdio: 'ignore' }));
  await waitFor(() => existsSync(join(runtimeDir, 'bus')), 5_000);
  track(spawn('pipewire', [], options));
  await waitFor(() => existsSync(join(runtimeDir, 'pipewire-0')), 5_000);
  track(spawn('wireplumber', [], options));
  mkdirSync(join(runtimeDir, 'bin'));
  const kwin = join(runtimeDir, 'bin', 'kwin_wayland');
  copyFileSync('/usr/bin/kwin_wayland', kwin);
  // KWin itself must not take WAYLAND_DISPLAY for a compositor to nest in.
  const { WAYLAND_DISPLAY: _own, ...kwinEnv } = base;
  const compositor = track(spawn(kwin, ['--virtual', '--width', String(size.width), '--height', String(size.height), '--socket', 'wayland-0'], {
    ...options,
    env: { ...kwinEnv, KWIN_FORCE_OWN_QPA: '1' },
  }));
  processes.guard('gai-kde-watchdog');
  const stop = (): Promise<void> => processes.stop();
  try {
    await waitFor(() => compositor.exitCode !== null || (existsSync(join(runtimeDir, 'wayland-0')) && kwinOnBus(base)), timeoutMs);
    if (compositor.exitCode !== null) throw new Error(`exit ${compositor.exitCode}`);
  } catch (error) {
    await stop();
    throw new Error(`headless KWin did not start (${error instanceof Error ? error.message : String(error)}): ${processes.log.trim().split('\n').slice(-3).join(' | ')}`, { cause: error });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env, WAYLAND_DISPLAY: 'wayland-0', XDG_RUNTIME_DIR: runtimeDir, DBUS_SESSION_BUS_ADDRESS: busAddress,
    XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'KDE',
  };
  delete env.DISPLAY;
  delete env.AT_SPI_BUS_ADDRESS;
  delete env.SWAYSOCK;
  return { env, runtimeDir, stop };
}

function kwinOnBus(env: NodeJS.ProcessEnv): boolean {
  const names = spawnSync('/usr/bin/python3', ['-c', 'from gi.repository import Gio; b = Gio.bus_get_sync(Gio.BusType.SESSION, None); print(b.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", None, None, 0, 2000, None).unpack()[0])'], { env, encoding: 'utf8', timeout: 5_000 });
  return names.stdout.includes("'org.kde.KWin'");
}

async function waitFor(ready: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
