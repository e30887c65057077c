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
  { part: 'accessibility tree', how: 'AT-SPI through a python3 helper: GTK 2/3/4, Qt, LibreOffice, Chromium, Firefox', verified: 'ci' },
  { part: 'stop hotkey and takeover', how: "X11: XInput 2 in a helper; sway: its IPC; KDE: the portal's GlobalShortcuts; GNOME Wayland: no global shortcut (Mutter gives none)", verified: 'ci' },
  { part: 'Record Steps', how: 'X11: XInput 2 raw events in a helper; Wayland gives no program the input of other windows', verified: 'ci' },
  { part: 'OCR', how: 'tesseract.js (wasm) with its English data', verified: 'ci' },
];

const WINDOWS: PlatformPart[] = [
  { part: 'screen and input', how: "nut-js (libnut's prebuilt win32 addon, x64); the package's binaries are checked to be PE x64", verified: 'packaged' },
  { part: 'accessibility tree', how: 'UI Automation in a PowerShell helper (names, roles, boxes, Invoke/Toggle/Value, the focused element)', verified: 'protocol' },
  { part: 'stop hotkey and takeover', how: "RegisterHotKey in the helper; the person's input from GetLastInputInfo", verified: 'protocol' },
  { part: 'Record Steps', how: 'no input watcher on Windows yet: gai record says so', verified: 'unavailable' },
  { part: 'OCR', how: 'tesseract.js (wasm), the same on every platform', verified: 'ci' },
];

const MACOS: PlatformPart[] = [
  { part: 'screen and input', how: "nut-js (libnut's prebuilt darwin addon); needs the Screen Recording and Accessibility permissions", verified: 'packaged' },
  { part: 'accessibility tree', how: 'AXUIElement through a JXA helper (osascript -l JavaScript): roles, names, frames, AXPress', verified: 'protocol' },
  { part: 'stop hotkey and takeover', how: "the helper's global event monitor (needs the Accessibility permission)", verified: 'protocol' },
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
  protocol: 'protocol tested against a scripted helper; not yet run on this platform by CI',
  packaged: 'packaged and checked, not run by CI',
  unavailable: 'not available',
};
