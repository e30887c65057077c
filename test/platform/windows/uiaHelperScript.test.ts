import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UIA_COMMANDS, UIA_HELPER_CSHARP, UIA_HELPER_SCRIPT } from '../../../src/platform/windows/uiaHelperScript';
import { uiaRole } from '../../../src/platform/windows/uiaRoles';

// The PowerShell script cannot run here; these keep it, the client and the scripted helper from
// drifting apart: every command the client sends is dispatched by the script to a C# method that
// exists, and answered by the scripted helper the tests use in its place.

describe('the Windows helper script', () => {
  const dispatch = new Map<string, string>();
  for (const match of UIA_HELPER_SCRIPT.matchAll(/^\s*'(\w+)' \{ \$body = \[(\w+)\]::(\w+)\(/gm)) dispatch.set(match[1]!, `${match[2]}.${match[3]}`);

  it('dispatches every command the client sends, to a public static C# method that exists', () => {
    assert.deepEqual([...dispatch.keys()].sort(), [...UIA_COMMANDS].sort());
    for (const [cmd, target] of dispatch) {
      const [cls, method] = target.split('.') as [string, string];
      assert.match(UIA_HELPER_CSHARP, new RegExp(`public static class ${cls} \\{`), `${cmd}: class ${cls}`);
      const body = UIA_HELPER_CSHARP.slice(UIA_HELPER_CSHARP.indexOf(`public static class ${cls} {`));
      assert.match(body, new RegExp(`public static string ${method}\\(`), `${cmd}: ${cls}.${method}`);
    }
  });

  it('the scripted helper used by the tests answers every command', () => {
    const scripted = readFileSync(join(__dirname, 'scriptedUiaHelper.mjs'), 'utf8');
    for (const cmd of UIA_COMMANDS) assert.match(scripted, new RegExp(`case '${cmd}':`), cmd);
  });

  it('answers the fields the ports read', () => {
    for (const field of ['"windows"', '"window"', '"windowId"', '"elements"', '"focused"', '"action"', '"hotkey"', '"hotkeyError"', '"corner"', '"lastInput"', '"screen"']) {
      assert.ok(UIA_HELPER_CSHARP.includes(`\\${field.slice(0, -1)}\\"`), field);
    }
    for (const field of ['name', 'controlType', 'states', 'password', 'toggles', 'pid', 'app', 'window', 'ancestors', 'ref', 'title', 'type', 'text', 'textCut']) {
      assert.ok(UIA_HELPER_CSHARP.includes(`\\"${field}\\":`), field);
    }
    assert.match(UIA_HELPER_CSHARP, /\{\\"event\\":\\"stop\\",\\"trigger\\":\\"hotkey\\"\}/);
    assert.match(UIA_HELPER_CSHARP, /\{\\"event\\":\\"stop\\",\\"trigger\\":\\"corner\\"\}/);
  });

  it('is per-monitor DPI aware and uses the documented calls', () => {
    assert.match(UIA_HELPER_CSHARP, /SetProcessDpiAwarenessContext\(new IntPtr\(-4\)\)/); // DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2
    for (const call of ['RegisterHotKey', 'GetLastInputInfo', 'GetForegroundWindow', 'QueryFullProcessImageName', 'EnumWindows', 'DwmGetWindowAttribute', 'CacheRequest', 'InvokePattern', 'TogglePattern', 'SelectionItemPattern', 'ExpandCollapsePattern', 'AutomationElement.FocusedElement', 'ControlViewCondition']) {
      assert.ok(UIA_HELPER_CSHARP.includes(call), call);
    }
  });

  it('fits Windows\' limits: the encoded script on a command line, the C# in an environment variable', () => {
    const encoded = Buffer.from(UIA_HELPER_SCRIPT, 'utf16le').toString('base64');
    assert.ok(encoded.length < 30_000, `-EncodedCommand is ${encoded.length} characters; a command line holds 32,767`);
    assert.ok(UIA_HELPER_CSHARP.length < 32_000, `the C# is ${UIA_HELPER_CSHARP.length} characters; an environment variable holds 32,767`);
    assert.ok(!UIA_HELPER_SCRIPT.includes('`'), 'no PowerShell backtick escapes (the script lives in a template literal)');
  });
});

describe('UI Automation control types as AT-SPI role words', () => {
  it('maps the types GAI clicks and reads', () => {
    const cases: Array<[string, string]> = [
      ['ControlType.Button', 'push button'], ['ControlType.MenuItem', 'menu item'], ['ControlType.CheckBox', 'check box'],
      ['ControlType.Edit', 'text'], ['ControlType.ComboBox', 'combo box'], ['ControlType.ListItem', 'list item'],
      ['ControlType.TabItem', 'page tab'], ['ControlType.Hyperlink', 'link'], ['ControlType.Text', 'label'],
      ['ControlType.RadioButton', 'radio button'], ['ControlType.TreeItem', 'tree item'], ['ControlType.Window', 'frame'],
      ['ControlType.Spinner', 'spin button'], ['ControlType.SplitButton', 'push button'],
    ];
    for (const [type, role] of cases) assert.equal(uiaRole(type), role, type);
  });

  it('a password edit, a toggling menu item and button, an unknown type', () => {
    assert.equal(uiaRole('ControlType.Edit', { password: true }), 'password text');
    assert.equal(uiaRole('ControlType.MenuItem', { toggles: true }), 'check menu item');
    assert.equal(uiaRole('ControlType.Button', { toggles: true }), 'toggle button');
    assert.equal(uiaRole('ControlType.SemanticZoomView'), 'semantic zoom view');
  });
});
