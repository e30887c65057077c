// Stands in for `osascript -l JavaScript` running macHelperScript.ts on a Mac, which cannot run
// here: reads the same JSON lines and answers what the JXA script would answer on a MacBook
// (1512x982 points, backingScaleFactor 2) with a 1920x1080 display at 1x left of it (negative x),
// per the documented shapes (CGWindowListCopyWindowInfo: kCGWindowBounds in points, topmost first).
// argv[2]: comma-separated flags: denied (no Accessibility, no Screen Recording), crash-windows
// (exits mid-request on the first start), slow-windows (never answers "windows"), malformed
// (stray lines before each answer), hotkey-after=N (ctrl+alt+escape down from the Nth input poll),
// corner-after=N, no-preflight (a macOS without CGPreflightScreenCaptureAccess), typing (the person types 3 keys between polls 2 and 3).
// GAI_SCRIPT_STATE: a file counting starts (a crash only on the first).
import { createInterface } from 'node:readline';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const flags = new Set((process.argv[2] ?? '').split(',').filter(Boolean));
const param = (name) => Number([...flags].find((f) => f.startsWith(`${name}=`))?.split('=')[1] ?? NaN);
const statePath = process.env.GAI_SCRIPT_STATE;
const starts = statePath && existsSync(statePath) ? Number(readFileSync(statePath, 'utf8')) + 1 : 1;
if (statePath) writeFileSync(statePath, String(starts));
const trusted = !flags.has('denied');

const send = (obj) => {
  if (flags.has('malformed')) process.stdout.write('not json at all\n{"half": \n[1,2,3]\n{"id":"x","ok":true}\n');
  process.stdout.write(`${JSON.stringify(obj)}\n`);
};

const SCREENS = [
  { x: 0, y: 0, width: 1512, height: 982, scale: 2, main: true },
  { x: -1920, y: 0, width: 1920, height: 1080, scale: 1, main: false },
];
// Topmost first, as kCGWindowListOptionOnScreenOnly lists them.
const WINDOWS = [
  { id: '88', title: '', pid: 120, layer: 25, owner: 'Window Server', appName: 'Window Server', bounds: { x: 0, y: 0, width: 1512, height: 33 } },
  { id: '4021', title: '', pid: 501, layer: 101, owner: 'TextEdit', appName: 'TextEdit', bundleId: 'com.apple.TextEdit', bounds: { x: 140, y: 90, width: 220, height: 180 } },
  { id: '4007', title: 'Untitled', pid: 501, layer: 0, owner: 'TextEdit', appName: 'TextEdit', bundleId: 'com.apple.TextEdit', bounds: { x: 100, y: 60, width: 800, height: 600 } },
  { id: '3990', title: 'Downloads', pid: 402, layer: 0, owner: 'Finder', appName: 'Finder', bundleId: 'com.apple.finder', bounds: { x: -1800, y: 120, width: 900, height: 500 } },
  { id: '12', title: 'Dock', pid: 130, layer: 20, owner: 'Dock', appName: 'Dock', bundleId: 'com.apple.dock', bounds: { x: 0, y: 900, width: 1512, height: 82 } },
];
const win = { name: 'Untitled', role: 'AXWindow', active: true };
const ELEMENTS = [
  { role: 'AXButton', subrole: '', name: 'Save', frame: { x: 700, y: 600, width: 80, height: 24 }, states: ['enabled'], ancestors: [{ role: 'AXSheet', subrole: '', name: 'Save As' }], window: win, ref: '1:0' },
  { role: 'AXButton', subrole: '', name: 'Delete', frame: { x: 600, y: 600, width: 80, height: 24 }, states: [], ancestors: [], window: win, ref: '1:1' },
  { role: 'AXRadioButton', subrole: 'AXTabButton', name: 'General', frame: { x: 200, y: 100, width: 70, height: 22 }, states: ['enabled'], ancestors: [{ role: 'AXTabGroup', subrole: '', name: 'Settings' }], window: win, checked: 1, ref: '1:2' },
  { role: 'AXCheckBox', subrole: '', name: 'Wrap lines', frame: { x: 200, y: 140, width: 120, height: 18 }, states: ['enabled'], ancestors: [], window: win, checked: 1, ref: '1:3' },
  // The real script reads no AXValue of a secure field.
  { role: 'AXSecureTextField', subrole: 'AXSecureTextField', name: 'Password', frame: { x: 200, y: 180, width: 200, height: 22 }, states: ['enabled', 'focused'], ancestors: [], window: win, ref: '1:4' },
  { role: 'AXTextField', subrole: '', name: 'Name', frame: { x: 200, y: 220, width: 200, height: 22 }, states: ['enabled'], ancestors: [], window: win, value: 'report.txt', ref: '1:5' },
  { role: 'AXPopUpButton', subrole: '', name: 'Format', frame: { x: 200, y: 260, width: 160, height: 22 }, states: ['enabled'], ancestors: [], window: win, value: 'Rich Text', ref: '1:6' },
  { role: 'AXMenuItem', subrole: '', name: 'Open Recent', frame: { x: 150, y: 120, width: 200, height: 22 }, states: ['enabled'], ancestors: [{ role: 'AXMenuBarItem', subrole: '', name: 'File' }, { role: 'AXMenu', subrole: '', name: 'File' }], window: win, ref: '1:7' },
  { role: 'AXStaticText', subrole: '', name: '', frame: { x: 120, y: 300, width: 300, height: 16 }, states: ['enabled'], ancestors: [], window: win, value: 'Hello from TextEdit', ref: '1:8' },
  // An open context menu: a child of the application, outside the window.
  { role: 'AXMenuItem', subrole: '', name: 'Copy', frame: { x: 420, y: 320, width: 160, height: 22 }, states: ['enabled'], ancestors: [], window: { name: '', role: 'AXMenu', active: false }, ref: '1:10' },
  { role: 'AXLink', subrole: '', name: 'Learn more', frame: { x: 120, y: 330, width: 90, height: 16 }, states: ['enabled'], ancestors: [], window: win, ref: '1:9' },
];

let polls = 0;
const handlers = {
  permissions: () => ({ accessibility: trusted, screenRecording: flags.has('no-preflight') ? null : trusted }),
  prompt: () => {
    if (process.env.GAI_SCRIPT_PROMPTED) writeFileSync(process.env.GAI_SCRIPT_PROMPTED, 'yes');
    return { accessibility: trusted };
  },
  screens: () => ({ screens: SCREENS }),
  windows: () => {
    if (flags.has('crash-windows') && starts === 1) process.exit(3);
    if (flags.has('slow-windows')) return undefined;
    return { windows: WINDOWS, frontPid: 501 };
  },
  elements: () => {
    if (!trusted) throw new Error('ACCESSIBILITY_DENIED');
    return { elements: ELEMENTS, app: 'TextEdit', pid: 501, cut: false };
  },
  focused: () => {
    if (!trusted) throw new Error('ACCESSIBILITY_DENIED');
    return { element: { role: 'AXSecureTextField', subrole: 'AXSecureTextField', name: 'Password', states: ['enabled', 'focused'] } };
  },
  perform: (req) => {
    const element = ELEMENTS.find((e) => e.ref === req.ref);
    if (!element) throw new Error(`the element is gone (read again): ${req.ref}`);
    if (!element.states.includes('enabled')) throw new Error('the element is disabled');
    if (element.role === 'AXStaticText') throw new Error('the element offers no press action (it has: AXShowMenu)');
    return { action: 'press' };
  },
  input: (req) => {
    polls++;
    const hotkeyAfter = param('hotkey-after');
    const cornerAfter = param('corner-after');
    const down = (req.keyCodes ?? []).map((code) => code === 53 && polls >= hotkeyAfter);
    const flagsHeld = polls >= hotkeyAfter ? 0x40000 | 0x80000 | 0x100 : 0x100; // ctrl+alt, plus a device bit
    const typed = flags.has('typing') && polls >= 3 ? 3 : 0;
    const pointer = polls >= cornerAfter ? { x: 1511, y: 0 } : { x: 400, y: 300 };
    return { keys: 1000 + typed, buttons: 50, pointer, down, flags: flagsHeld };
  },
};

send({ hello: true, permissions: handlers.permissions() });
createInterface({ input: process.stdin }).on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  try {
    const handler = handlers[req.cmd];
    if (!handler) throw new Error(`unknown command ${req.cmd}`);
    const answer = handler(req);
    if (answer === undefined) return; // hangs
    send({ ...answer, id: req.id, ok: true });
  } catch (error) {
    send({ id: req.id, error: error.message });
  }
}).on('close', () => process.exit(0));
