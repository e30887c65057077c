// Every program the product, the tests, the benches and the scripts start, and where it comes
// from, so that a fresh machine that ran `node scripts/ensureDeps.mjs` has all of them.
// test/setup/externalPrograms.test.ts scans the code for spawn/execFile/... calls and fails
// when a program is missing here, or when a source named here does not install it.
//
// Where a program comes from (one of):
//   apt:       a Debian package in APT_PACKAGES (scripts/ensureDeps.mjs)
//   hostApt:   a Debian package in HOST_APT_PACKAGES (scripts/vscodeHost/install.mjs, run before
//              the vscode suite)
//   node:      Node.js itself (the running `node`, or the npm that ships with it)
//   debian:    a package every Debian system has (Essential or priority required)
//   platform:  part of that operating system (or Linux distribution); GAI only runs it there
//   optional:  nothing installs it: the tests that need it skip, printing this reason
// `indirect` marks a program our code does not start itself (a library does), so the scan
// cannot see it; `for` says what needs it.

/** @type {Record<string, import('./externalPrograms.d.mts').ExternalProgram>} */
export const EXTERNAL_PROGRAMS = {
  // The private X display of the desktop tests, the benches and `gai demo` (VirtualDisplay).
  Xvfb: { apt: 'xvfb', for: 'the private X server of the desktop tests, benches and gai demo' },
  openbox: { apt: 'openbox', for: 'the window manager on the private display' },
  xprop: { apt: 'x11-utils', for: 'window manager readiness; window class, title and pid (X11Windows)' },
  xwininfo: { apt: 'x11-utils', for: 'the active window and its geometry (X11Windows); the OCR bench' },
  xdpyinfo: { apt: 'x11-utils', for: 'the fixture tests check the display size' },
  xdotool: { apt: 'xdotool', for: 'input on GAI\'s own desktop from the editor (XdotoolInput) and the live view\'s Take over; tests and benches move the pointer and type as a person would' },
  python3: { apt: 'python3-tk', for: 'the Tk fixture apps, the AT-SPI reader and the X11 stop/takeover watcher (python3 is a dependency of python3-tk)' },
  galculator: { apt: 'galculator', for: 'the real GTK app the accessibility tests and the OCR bench read' },
  tesseract: { apt: 'tesseract-ocr', for: 'the tesseract CLI the OCR test and bench compare with tesseract.js (NativeTesseractOcr)' },
  pgrep: { apt: 'procps', for: 'the test runner and the desktop tests look for processes left behind' },
  pkill: { apt: 'procps', for: 'a desktop test ends a program it started through launch_app' },
  'dbus-launch': { apt: 'dbus-x11', indirect: true, for: 'libdbus starts a session bus with it for AT-SPI on a display that has none' },

  chromium: { apt: 'chromium', for: 'the real-app tests and busy-desktop bench show a page of ours in it; the webview tests: playwright-core drives Debian\'s /usr/bin/chromium' },
  'firefox-esr': { apt: 'firefox-esr', for: 'the browser tests and the busy-desktop bench show a page of ours in it, with and without its accessibility tree' },
  mousepad: { apt: 'mousepad', for: 'the real GTK editor of the real-app tests and the busy-desktop bench' },
  speedcrunch: { apt: 'speedcrunch', for: 'the real Qt app of the real-app tests and the busy-desktop bench' },
  soffice: { apt: 'libreoffice-writer', for: 'LibreOffice Writer and Calc (GTK 3 plugin) in the real-app tests (realAppsLibreOffice.test.ts) and Writer on the busy-desktop bench' },
  'gnome-calculator': { apt: 'gnome-calculator', for: 'the real GTK 4 / libadwaita calculator of the GTK 4 real-app tests and the busy-desktop bench' },
  'gnome-text-editor': { apt: 'gnome-text-editor', for: 'the real GTK 4 / libadwaita editor of the GTK 4 real-app tests' },
  featherpad: { apt: 'featherpad', for: 'the real Qt 5 editor of the Qt real-app tests' },
  thunar: { apt: 'thunar', for: 'the real GTK 3 file manager of the Qt/GTK 3 real-app tests' },
  lxtask: { apt: 'lxtask', for: 'the GTK 2 app whose tree launch_app turns on (gtk2Accessibility.test.ts)' },
  xterm: { apt: 'xterm', for: 'the terminal on the test display that gai is started from (askerWindow.test.ts)' },

  sway: { apt: 'sway', for: 'the headless wlroots desktop of the Wayland tests (swayDisplay.ts), started as the gai-wayland user' },
  'dbus-daemon': { apt: 'dbus-daemon', for: 'the session bus of the Wayland tests\' sway desktop, through which its apps start their accessibility bus' },
  mutter: { apt: 'mutter', for: 'the headless GNOME compositor of the Wayland tests (gnomeDisplay.ts)' },
  'gnome-shell': { apt: 'gnome-shell', for: 'GNOME Shell headless, the second GNOME desktop of the Wayland tests (gnomeDisplay.ts)' },
  kwin_wayland: { apt: 'kwin-wayland', for: 'KWin headless, the KDE Plasma desktop of the Wayland tests (kdeDisplay.ts runs a copy of it)' },
  pipewire: { apt: 'pipewire', for: 'the media server that carries the GNOME test desktop\'s screen-cast stream' },
  wireplumber: { apt: 'wireplumber', for: 'PipeWire\'s session manager on the GNOME test desktop (streams are linked through it)' },
  Xwayland: { apt: 'xwayland', indirect: true, for: 'sway starts it for the X11 apps of the Wayland tests\' sway desktop (an X11 app under XWayland)' },
  grim: { apt: 'grim', for: 'screen capture on wlroots compositors (GrimScreen)' },
  runuser: { debian: 'util-linux', for: 'the Wayland tests start sway as the unprivileged gai-wayland user' },
  id: { debian: 'coreutils', for: 'ensureDeps checks whether the gai-wayland user exists' },
  useradd: { debian: 'passwd', for: 'ensureDeps creates the gai-wayland user that sway runs as' },

  node: { node: true, for: 'child Node processes: the CLI, tsx, mocha, esbuild, npm, the VS Code server' },
  npm: { node: true, for: 'ensureDeps runs npm ci; the VS Code host installer finds npm-cli.js' },

  sh: { debian: 'dash', for: 'the display watchdog, `command -v` checks, a desktop entry\'s Exec line in a test' },
  rm: { debian: 'coreutils', for: 'the display watchdog removes its log folder' },
  sleep: { debian: 'coreutils', for: 'the display watchdog; the VS Code host installer waits for its lock' },
  cat: { debian: 'coreutils', for: 'the VS Code host runner reads /proc/PID/stat' },
  du: { debian: 'coreutils', for: 'the VS Code host installer reports sizes' },
  readlink: { debian: 'coreutils', for: 'the VS Code host installer finds npm-cli.js' },
  dpkg: { debian: 'dpkg', for: 'ensureDeps checks which Debian packages are installed' },
  'apt-get': { debian: 'apt', for: 'ensureDeps installs the missing Debian packages; gai doctor --fix installs what GAI\'s own desktop lacks on Debian/Ubuntu' },
  dnf: { platform: 'fedora', for: 'gai doctor --fix installs what GAI\'s own desktop lacks on Fedora' },
  apk: { platform: 'alpine', for: 'gai doctor --fix installs what GAI\'s own desktop lacks on Alpine' },
  pacman: { platform: 'arch', for: 'gai doctor --fix installs what GAI\'s own desktop lacks on Arch' },

  open: { platform: 'darwin', for: 'launch_app on macOS (open -a)' },
  osascript: { platform: 'darwin', for: 'the macOS helper (JXA): windows, the accessibility tree, the stop hotkey and the permission check' },
  powershell: { platform: 'win32', for: 'launch_app on Windows' },
  'powershell.exe': { platform: 'win32', for: 'the Windows helper: windows, the UI Automation tree, the stop hotkey and takeover' },
  'npx.cmd': { platform: 'win32', for: 'the release script fetches ovsx with npx on Windows' },
  npx: { node: true, for: 'the release script fetches ovsx 1.x when it is not installed' },
  git: { apt: 'git', for: 'the release script checks the tree and the tag; its tests make throwaway repositories' },
  tar: { debian: 'tar', for: "packaging unpacks other platforms' npm packages (scripts/packaging/platformPackages.mjs)" },
  mcs: { apt: 'mono-mcs', for: "the Windows helper's C# is compiled against stubs of the UI Automation API at C# 5, as Add-Type takes it (uiaCSharp.test.ts)" },
};

/**
 * Spawn sites whose program is decided at run time, which the scan cannot name: the file, the
 * expression there (null: every such site in the file), and the program it is (null: whatever
 * the person or the model names).
 */
/** @type {import('./externalPrograms.d.mts').RunTimeCommand[]} */
export const RUN_TIME_COMMANDS = [
  { file: 'src/platform/linux/appLaunchers.ts', expression: null, command: null, why: 'launch_app starts the application a desktop entry names, or an executable the person allowed by name' },
  ...['apt-get', 'dnf', 'apk', 'pacman'].map((command) => ({
    file: 'src/platform/linux/ownDesktopReadiness.ts',
    expression: 'program',
    command,
    why: 'gai doctor --fix runs the package manager of the distribution os-release names (ownDesktopPackages.ts installSteps), as root',
  })),
  // The one JSON-lines helper client starts each platform's helper program (its launch() names it).
  ...[
    ['python3', 'the Linux desktop bridge (X11 and AT-SPI)'],
    ['osascript', 'the macOS helper (JXA)'],
    ['powershell.exe', 'the Windows UI Automation helper'],
  ].map(([command, why]) => ({ file: 'src/platform/helperProcess.ts', expression: 'command', command, why })),
  { file: 'scripts/vscodeHost/install.mjs', expression: 'paths.node', command: 'node', why: 'the VS Code host\'s own Node, which the installer downloads' },
  { file: 'scripts/vscodeHost/run.mjs', expression: 'paths.node', command: 'node', why: 'the VS Code server runs on the host\'s own Node' },
  { file: 'scripts/vscodeHost/run.mjs', expression: 'paths.chromium', command: 'chromium', why: 'the browser the VS Code tests drive' },
  { file: 'test/vscode/package.test.ts', expression: 'paths.node', command: 'node', why: 'the VS Code server installs the .vsix' },
  { file: 'test/webview/browserHarness.ts', expression: 'paths.chromium', command: 'chromium', why: 'the browser the webview tests drive' },
  { file: 'test/desktop/support/kdeDisplay.ts', expression: "join(runtimeDir, 'bin', 'kwin_wayland')", command: 'kwin_wayland', why: 'a copy of /usr/bin/kwin_wayland without its file capability, which this kind of machine refuses to run' },
];
