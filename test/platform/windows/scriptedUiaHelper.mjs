// Stands in for powershell.exe running uiaHelperScript.ts, which cannot run on Linux: answers the
// same JSON lines the real script writes, with values as UI Automation and user32 report them
// (ControlType programmatic names, physical-pixel rectangles from a per-monitor DPI aware process).
// The desktop: a 2560x1440 monitor at 100% at (0,0) and a 3840x2160 one at 150% to its left, at
// (-3840,0); Notepad on the left one, a Settings dialog on the right. argv[2]: comma-separated
// behaviours (fatal, silent, crash-once, crash-always, slow-elements, malformed, hotkey-held,
// press-hotkey, press-corner, crash-in-watch). GAI_SCRIPT_LOG: a file each request is appended to.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const flags = new Set((process.argv[2] ?? '').split(',').filter(Boolean));
const log = process.env.GAI_SCRIPT_LOG;
const state = process.env.GAI_SCRIPT_STATE;
const inputs = JSON.parse(process.env.GAI_SCRIPT_INPUTS ?? '[{"lastInput":1000,"x":100,"y":100}]');
let inputIndex = 0;
const out = (value) => process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);

if (flags.has('fatal')) {
  // What the real script says when Add-Type cannot compile or load UIAutomationClient.
  out({ hello: 'gai-uia', fatal: 'Could not load file or assembly \'UIAutomationClient\' or one of its dependencies.' });
  process.exit(3);
}
if (!flags.has('silent')) {
  if (flags.has('malformed')) out('WARNING: PowerShell chatter that is not JSON');
  out({ hello: 'gai-uia', version: 1, dpiAware: true });
}

const notepad = { id: '197146', title: 'notes.txt - Notepad', app: 'Notepad', pid: 4120, class: 'Notepad', type: 'normal', x: -3000, y: 150, width: 1500, height: 1050 };
const settings = { id: '66310', title: 'Settings', app: 'SystemSettings', pid: 7312, class: 'ApplicationFrameWindow', type: 'normal', x: 400, y: 200, width: 1200, height: 800 };
const saveDialog = { id: '331000', title: 'Save As', app: 'Notepad', pid: 4120, class: '#32770', type: 'dialog', x: -2700, y: 400, width: 1050, height: 750 };
const contextMenu = { id: '65890', title: '', app: 'Notepad', pid: 4120, class: '#32768', type: 'popup_menu', x: -2500, y: 500, width: 420, height: 600 };
const window = { name: 'notes.txt - Notepad', role: 'frame', active: true };
const menuBar = { role: 'ControlType.MenuBar', name: 'Application' };
const elements = [
  { name: 'File', controlType: 'ControlType.MenuItem', x: -2985, y: 195, width: 66, height: 45, states: ['enabled'], password: false, toggles: false, pid: 4120, app: 'Notepad', window, ancestors: [menuBar], ref: 'g1e0' },
  { name: 'Word wrap', controlType: 'ControlType.MenuItem', x: -2900, y: 195, width: 180, height: 45, states: ['enabled', 'checkable', 'checked'], password: false, toggles: true, pid: 4120, app: 'Notepad', window, ancestors: [menuBar], ref: 'g1e1' },
  { text: 'Meeting notes\r\nBuy milk', textCut: false, name: 'Text editor', controlType: 'ControlType.Document', x: -2990, y: 250, width: 1480, height: 900, states: ['enabled', 'focused'], password: false, toggles: false, pid: 4120, app: 'Notepad', window, ancestors: [], ref: 'g1e2' },
  { name: '', controlType: 'ControlType.Edit', x: -2600, y: 600, width: 450, height: 48, states: ['enabled'], password: true, toggles: false, pid: 4120, app: 'Notepad', window, ancestors: [{ role: 'ControlType.Pane', name: 'Sign in' }], ref: 'g1e3' },
  { name: 'OK', controlType: 'ControlType.Button', x: -2200, y: 700, width: 135, height: 48, states: ['enabled'], password: false, toggles: false, pid: 4120, app: 'Notepad', window, ancestors: [{ role: 'ControlType.Pane', name: 'Sign in' }], ref: 'g1e4' },
  { name: 'Collapsed', controlType: 'ControlType.Button', x: 0, y: 0, width: 0, height: 0, states: [], password: false, toggles: false, pid: 4120, app: 'Notepad', window, ancestors: [], ref: 'g1e5' },
  { name: '', controlType: 'ControlType.Pane', x: -2990, y: 250, width: 1480, height: 900, states: ['enabled'], password: false, toggles: false, pid: 4120, app: 'Notepad', window, ancestors: [], ref: 'g1e6' },
];
const performs = {
  g1e0: 'expand',
  g1e1: 'toggle',
  g1e4: 'invoke',
};

createInterface({ input: process.stdin }).on('line', (line) => {
  if (log) appendFileSync(log, `${line}\n`);
  let q;
  try {
    q = JSON.parse(line);
  } catch {
    return;
  }
  const ok = (body) => out({ id: q.id, ok: true, ...body });
  const fail = (error) => out({ id: q.id, error });
  if (flags.has('malformed')) out('{"id": broken');
  switch (q.cmd) {
    case 'screen':
      return ok({ screen: { x: -3840, y: 0, width: 6400, height: 2160 }, primary: JSON.parse(process.env.GAI_SCRIPT_PRIMARY ?? '{"x":0,"y":0,"width":2560,"height":1440}') });
    case 'windows':
      return ok({ windows: [contextMenu, saveDialog, notepad, settings] });
    case 'active':
      return ok({ window: notepad });
    case 'activeId':
      return ok({ windowId: notepad.id });
    case 'elements':
      if (flags.has('slow-elements')) return; // never answers: the client's timeout
      if (flags.has('crash-always') || (flags.has('crash-once') && state && !existsSync(state))) {
        if (state) writeFileSync(state, 'crashed');
        process.stderr.write('Exception calling "Elements": Operation is not valid due to the current state of the object.\n');
        process.exit(1);
      }
      return ok({ elements });
    case 'focused':
      return ok({ focused: { name: '', controlType: 'ControlType.Edit', password: true, states: ['enabled', 'focused'] } });
    case 'perform':
      if (q.ref === 'g1e3') return fail('the element offers no Invoke, Toggle, SelectionItem or ExpandCollapse pattern');
      if (q.ref === 'g9e9') return fail('the element g9e9 is not from the last reading of the tree; read it again');
      return performs[q.ref] ? ok({ action: performs[q.ref] }) : fail('the element is gone');
    case 'watch': {
      const held = flags.has('hotkey-held') && q.vk !== 0;
      ok({ hotkey: q.vk !== 0 && !held, hotkeyError: held ? 1409 : 0, corner: q.corner === true });
      if (flags.has('press-hotkey')) setTimeout(() => out({ event: 'stop', trigger: 'hotkey' }), 50);
      if (flags.has('press-corner')) setTimeout(() => out({ event: 'stop', trigger: 'corner' }), 50);
      if (flags.has('crash-in-watch')) setTimeout(() => process.exit(2), 50);
      return;
    }
    case 'unwatch':
      return ok({ unwatched: true });
    case 'input': {
      const sample = inputs[Math.min(inputIndex++, inputs.length - 1)];
      return ok({ lastInput: sample.lastInput, now: sample.lastInput + 10, x: sample.x, y: sample.y });
    }
    default:
      return fail(`unknown command ${q.cmd}`);
  }
});
