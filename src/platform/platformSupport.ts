// What GAI can do on each platform today, part by part, and what checks each part: this
// project's CI on real display servers, the tests of a helper's protocol against a scripted
// helper (the platform itself is not here), or nothing yet. `gai doctor` and Check Setup show
// it, so a person on Windows or macOS knows which parts are proven and which are not.

export type Verification =
  /** Run by this project's CI on a real display server with real apps. */
  | 'ci'
  /** The helper's protocol is tested end to end against a scripted helper; the platform program itself is not run by CI. */
  | 'protocol'
  /** Built and checked (packaged binaries' format and architecture), not run. */
  | 'packaged'
  /** Not available on this platform: it fails with the reason. */
  | 'unavailable';

export interface PlatformPart {
  part: string;
  how: string;
  verified: Verification;
}

const LINUX: PlatformPart[] = [
  { part: 'screen and input', how: 'nut-js (libnut, XTest) on X11, x64; per compositor on Wayland (sway, GNOME, KDE Plasma)', verified: 'ci' },
  { part: 'windows', how: "X11: the stacking order and WM_CLASS through the helper; Wayland: per compositor", verified: 'ci' },
  { part: 'accessibility tree', how: 'AT-SPI through a python3 helper: GTK 2/3/4, Qt, LibreOffice, Chromium, Firefox', verified: 'ci' },
  { part: 'stop hotkey and takeover', how: "X11: XInput 2 in a helper; sway: its IPC; KDE: the portal's GlobalShortcuts; GNOME Wayland: no global shortcut (Mutter gives none)", verified: 'ci' },
  { part: 'Record Steps', how: 'X11: XInput 2 raw events in a helper; Wayland gives no program the input of other windows', verified: 'ci' },
  { part: 'OCR', how: 'tesseract.js (wasm) with its English data', verified: 'ci' },
];

const WINDOWS: PlatformPart[] = [
  { part: 'screen and input', how: "nut-js (libnut's prebuilt win32 addon, x64); the package's binaries are checked to be PE x64", verified: 'packaged' },
  { part: 'windows', how: "EnumWindows' z-order, DWM frame bounds and the program's executable name, open menus as popups, through a PowerShell helper", verified: 'protocol' },
  { part: 'accessibility tree', how: 'UI Automation in the PowerShell helper: names, roles, boxes, states, field text, pointer-free press (Invoke, Toggle, SelectionItem, ExpandCollapse), the focused element and password fields; its C# type-checked with Mono where installed', verified: 'protocol' },
  { part: 'stop hotkey and takeover', how: "RegisterHotKey and the fail-safe corner in the helper; the person's input from GetLastInputInfo", verified: 'protocol' },
  { part: 'Record Steps', how: 'no input watcher on Windows yet: gai record says so', verified: 'unavailable' },
  { part: 'OCR', how: 'tesseract.js (wasm), the same on every platform', verified: 'ci' },
];

const MACOS: PlatformPart[] = [
  { part: 'screen and input', how: "nut-js (libnut's prebuilt darwin addon); needs the Screen Recording and Accessibility permissions", verified: 'packaged' },
  { part: 'windows', how: 'CGWindowList, topmost first, with names and bundle ids, through an osascript (JXA) helper', verified: 'protocol' },
  { part: 'accessibility tree', how: 'AXUIElement through the JXA helper: roles, names, frames, AXPress (menus opened from the menu bar are not read yet); needs the Accessibility permission', verified: 'protocol' },
  { part: 'stop hotkey and takeover', how: 'key state and input counters polled every 40 ms by a helper (a very quick tap can be missed)', verified: 'protocol' },
  { part: 'Record Steps', how: 'no input watcher on macOS yet: gai record says so', verified: 'unavailable' },
  { part: 'OCR', how: 'tesseract.js (wasm), the same on every platform', verified: 'ci' },
];

/** libnut publishes no arm64 addon for Linux or Windows (docs/packaging.md): no nut-js input or screen there. */
const NO_LIBNUT: Record<string, PlatformPart> = {
  linux: { part: 'screen and input', how: 'X11 needs libnut, which has no arm64 addon: not available; Wayland (sway, GNOME, KDE Plasma) through the compositor', verified: 'packaged' },
  win32: { part: 'screen and input', how: 'libnut has no arm64 addon for Windows: mouse, keyboard and screen capture are not available', verified: 'unavailable' },
};

export function platformSupport(platform: NodeJS.Platform = process.platform, arch: string = process.arch): PlatformPart[] {
  const parts = platform === 'win32' ? WINDOWS : platform === 'darwin' ? MACOS : LINUX;
  const missing = arch === 'arm64' ? NO_LIBNUT[platform === 'win32' ? 'win32' : platform === 'darwin' ? '' : 'linux'] : undefined;
  return missing ? parts.map((part) => (part.part === missing.part ? missing : part)) : parts;
}

export const VERIFICATION_WORDS: Record<Verification, string> = {
  ci: "verified by GAI's CI on real desktops",
  protocol: "its helper's protocol tested against a scripted helper; the helper itself not yet run on this platform by GAI's CI",
  packaged: 'packaged and checked, not run by CI',
  unavailable: 'not available',
};
