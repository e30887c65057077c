// Makes sure dependencies are installed before tests, benchmarks or `npm start`.
// Usage: node scripts/ensureDeps.mjs [--apt pkg1,pkg2]
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Debian packages the project needs at run time (e.g. for desktop capture or OCR); extend this
// list rather than asking people to install things by hand. The desktop test suite and the demo
// run on a private display: Xvfb + openbox + xprop (VirtualDisplay.requiredPackages), and the
// Tk fixture app (python3-tk) driven with xdotool. The accessibility tree (AT-SPI) is read with
// python3-gi + gir1.2-atspi-2.0; at-spi2-core runs the a11y bus, dbus-x11's dbus-launch starts
// the session bus of a display that has none, and galculator is the GTK3 app the tests read.
export const APT_PACKAGES = [
  'xvfb', 'openbox', 'x11-utils', 'python3-tk', 'xdotool',
  'at-spi2-core', 'python3-gi', 'gir1.2-atspi-2.0', 'dbus-x11', 'galculator',
  // The tesseract CLI, which the OCR tests and bench compare with tesseract.js (nativeTesseractOcr.ts).
  'tesseract-ocr',
  // pgrep and pkill: the test runner and the desktop tests look for processes left behind.
  'procps',
  // The global stop hotkey, fail-safe corner and takeover pause (src/platform/linux/x11/x11InterruptScript.ts).
  'python3-xlib',
  // GTK 3 for python3-gi: the login fixture whose password entry has AT-SPI role "password text" (screen privacy test);
  // cairo for it too: the pixel check's fixture paints words its tree does not have (gtkCanvasApp.py).
  'gir1.2-gtk-3.0', 'python3-gi-cairo',
  // Real applications of three toolkits for the grounding tests and the busy-desktop bench (issue 10):
  // a browser (DOM ground truth), a GTK editor beside galculator, a Qt app (AT-SPI ground truth).
  'chromium', 'mousepad', 'speedcrunch',
  // Issue 19: click by text on every toolkit. GTK 4 / libadwaita (a calculator, a text editor),
  // another Qt 5 app, LibreOffice Writer and Calc with the GTK 3 plugin (their AT-SPI tree comes
  // through it), Firefox ESR, and a GTK 3 file manager.
  'gnome-calculator', 'gnome-text-editor', 'featherpad',
  'libreoffice-writer', 'libreoffice-calc', 'libreoffice-gtk3',
  'firefox-esr', 'thunar',
  // A terminal on the test display that `gai` is started from: the window it was asked from.
  'xterm',
  // Issue 24: the release script and its tests use git; the Windows helper's C# is type-checked
  // with Mono's compiler (mcs) against UI Automation stubs and WindowsBase.
  'git', 'mono-mcs', 'libmono-windowsbase4.0-cil',
  // GTK 2 apps (GIMP 2.10, Pidgin) join AT-SPI only through these modules, which launch_app names
  // in GTK_MODULES (accessibleLaunch.ts); lxtask is the GTK 2 app the tests start.
  'libgail-common', 'libatk-adaptor', 'lxtask',
  // Issue 20: Wayland. sway headless is the wlroots desktop the tests start (as WAYLAND_USER,
  // since sway refuses root); grim captures its screen (wlr-screencopy); sway starts Xwayland
  // for the X11 apps of a Wayland session (only recommended by sway's package, so named here).
  'sway', 'grim', 'xwayland',
  // Qt 5 apps as native Wayland clients (QT_QPA_PLATFORM=wayland) on the test's sway.
  'qtwayland5',
  // The Wayland desktop's own session bus (its apps' accessibility bus starts through it).
  'dbus-daemon',
  // GNOME on Wayland: Mutter 43 headless is the GNOME desktop the tests start, PipeWire and
  // WirePlumber carry its screen-cast stream, and GAI's helper reads that stream with GStreamer's
  // PipeWire source through python3-gi (mutterHelperScript.ts).
  'mutter', 'pipewire', 'wireplumber',
  // GNOME Shell 43 headless: the GNOME people use (top bar, overview), on the same Mutter.
  'gnome-shell',
  'gstreamer1.0-pipewire', 'gstreamer1.0-plugins-base', 'gir1.2-gstreamer-1.0',
  // The desktop portal and its GNOME backend (D-Bus activated, not started by GAI): the way to the
  // screen and input of a sandboxed program (portalSessionScript.ts, waylandGnomePortal.test.ts).
  'xdg-desktop-portal', 'xdg-desktop-portal-gnome',
  // KDE Plasma on Wayland: KWin 5.27 headless is the KDE desktop the tests start (kdeDisplay.ts),
  // and the portal's KDE backend (D-Bus activated) gives GAI its remote-desktop session and the
  // stop hotkey (portalSessionScript.ts, portalShortcutsScript.ts, waylandKde.test.ts).
  'kwin-wayland', 'xdg-desktop-portal-kde',
];

/** The unprivileged user the Wayland tests start sway as (sway will not run as root). */
export const WAYLAND_USER = 'gai-wayland';

/** Creates WAYLAND_USER when running as root and it is missing (no login shell, no password). */
export function ensureWaylandUser() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || process.platform !== 'linux') return;
  if (spawnSync('id', ['-u', WAYLAND_USER], { stdio: 'ignore' }).status === 0) return;
  run('useradd', ['--system', '--create-home', '--shell', '/usr/sbin/nologin', WAYLAND_USER], process.env);
}

/** Runs `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureNodeModules() {
  const lockfile = join(root, 'package-lock.json');
  // npm writes this hidden lockfile on every install, so its mtime is "last installed".
  const installedLock = join(root, 'node_modules', '.package-lock.json');
  let reason;
  if (!existsSync(join(root, 'node_modules'))) reason = 'node_modules is missing';
  else if (!existsSync(installedLock)) reason = 'node_modules/.package-lock.json is missing';
  else if (existsSync(lockfile) && statSync(lockfile).mtimeMs > statSync(installedLock).mtimeMs) {
    reason = 'package-lock.json is newer than node_modules';
  }
  if (!reason) return;
  console.log(`ensureDeps: ${reason}; running npm ci`);
  // On Windows npm is a .cmd shim, which spawn can only start through a shell.
  const result = spawnSync('npm', ['ci'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) fail(`npm ci failed (exit ${result.status ?? result.signal})`);
}

let aptUpdated = false;

/**
 * Installs the missing Debian packages of `list` when running as root; otherwise names them
 * and exits non-zero, since the tests that need them would fail in less obvious ways.
 */
export function ensureAptPackages(list) {
  if (list.length === 0) return;
  if (!hasCommand('dpkg')) {
    console.warn(`ensureDeps: cannot check Debian packages here (no dpkg); make sure these or their equivalents are installed: ${list.join(', ')}`);
    return;
  }
  const missing = list.filter((name) => !isDebInstalled(name));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    fail(
      `missing Debian packages: ${missing.join(', ')}\n` +
        `install them with: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get', ['update'], env);
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], env);
}

function isDebInstalled(name) {
  const result = spawnSync('dpkg', ['-s', name], { encoding: 'utf8' });
  // A removed package whose config files remain is still "known" to dpkg, so read the status.
  return result.status === 0 && /^Status: install ok installed$/m.test(result.stdout);
}

function hasCommand(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).error === undefined;
}

function run(command, args, env) {
  console.log(`ensureDeps: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) fail(`${command} ${args[0]} failed (exit ${result.status ?? result.signal})`);
}

function fail(message) {
  console.error(`ensureDeps: ${message}`);
  process.exit(1);
}

/** Parses `--apt a,b` or `--apt=a,b` (repeatable). */
function aptFromArgs(argv) {
  const packages = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let value;
    if (arg === '--apt') value = argv[++i];
    else if (arg.startsWith('--apt=')) value = arg.slice('--apt='.length);
    else fail(`unknown argument ${arg}; usage: node scripts/ensureDeps.mjs [--apt pkg1,pkg2]`);
    if (!value) fail('--apt needs a comma-separated list of packages');
    packages.push(...value.split(',').map((name) => name.trim()).filter(Boolean));
  }
  return packages;
}

export function ensureDeps(extraAptPackages = []) {
  ensureNodeModules();
  ensureAptPackages([...new Set([...APT_PACKAGES, ...extraAptPackages])]);
  ensureWaylandUser();
}

// Run only when executed directly, so start.mjs can import ensureDeps().
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureDeps(aptFromArgs(process.argv.slice(2)));
}
