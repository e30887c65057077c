import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { X11_RECORDER_KEYS_SCRIPT } from '../../src/platform/linux/x11/x11RecorderKeysScript';

// The X11 input recorder's keyboard half (keysyms + state → key name and typed character), run in
// python3 without a display. The recorder on a real display: test/desktop/inputRecorder.test.ts.

// python3-xlib is installed for Debian's interpreter; a python3 earlier on PATH may lack it.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

function xlibMissing(): boolean {
  try {
    execFileSync(PYTHON, ['-E', '-c', 'import Xlib'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}

function python(body: string): unknown {
  const script = `import ctypes, ctypes.util, json\nfrom Xlib import XK\n${X11_RECORDER_KEYS_SCRIPT}\n${body}`;
  return JSON.parse(execFileSync(PYTHON, ['-E', '-c', script], { encoding: 'utf8' })) as unknown;
}

/** [name, text] of each case: [keysyms, modifiers, caps, num, level3]. */
function resolve(cases: [number[], string[], boolean?, boolean?, boolean?][], withoutXkbcommon = false): [string, string | null][] {
  const calls = JSON.stringify(cases.map(([syms, mods, caps, num, level3]) => [syms, mods, caps ?? false, num ?? false, level3 ?? false]));
  return python(`${withoutXkbcommon ? '_xkb = None\n' : ''}print(json.dumps([resolve_key(*c) for c in json.loads('${calls}')]))`) as [string, string | null][];
}

describe('X11 input recorder keys (keysyms → key name and typed text)', function () {
  before(function () {
    if (xlibMissing()) this.skip();
  });

  const a = [0x61, 0x41];
  const one = [0x31, 0x21];

  it('letters and shifted symbols: Shift and Caps Lock as XKB applies them; no text under ctrl, alt or super', () => {
    assert.deepEqual(resolve([[a, []], [a, ['shift']], [a, [], true], [a, ['shift'], true], [one, ['shift']], [one, [], true], [a, ['ctrl']], [a, ['shift', 'super']]]), [
      ['a', 'a'], ['a', 'A'], ['a', 'A'], ['a', 'a'], ['1', '!'], ['1', '1'], ['a', null], ['a', null],
    ]);
  });

  it("characters on a key of their own (xdotool's spare keycode), Unicode keysyms and level 3", () => {
    const eDiaeresis = [0xeb];
    const sharpS = [0xdf];
    const zhe = [0x1000436];
    const q = [0x71, 0x51, 0x71, 0x51, 0x40, 0x7d9];
    const cases: [number[], string[], boolean?, boolean?, boolean?][] = [
      [eDiaeresis, []], [eDiaeresis, ['shift']], [sharpS, ['shift']], [zhe, []], [zhe, ['shift']], [q, [], false, false, true], [[0x20ac], []],
    ];
    const expected = [['ë', 'ë'], ['ë', 'Ë'], ['ß', 'ß'], ['ж', 'ж'], ['ж', 'Ж'], ['q', '@'], ['€', '€']];
    assert.deepEqual(resolve(cases), expected);
    // Without libxkbcommon: Latin-1 and Unicode keysyms still give their characters.
    assert.deepEqual(resolve(cases.slice(0, 5), true), expected.slice(0, 5));
  });

  it("portable names of named keys (desktop/input/keys.ts), the keypad with and without Num Lock, others' X names", () => {
    const keypad1 = [0xff9c, 0xffb1];
    assert.deepEqual(
      resolve([[[0xff0d], []], [[0xff09, 0xfe20], ['shift']], [[0x20], []], [[0xffc2], []], [[0xffe1], []], [[0xffe3], []], [[0xffe9, 0xffe7], []], [[0xffeb], []],
        [[0xff52], []], [[0xff53], []], [[0xff50], []], [[0x2d, 0x5f], ['shift']], [[0x27, 0x22], []], [keypad1, []], [keypad1, [], false, true], [keypad1, ['shift'], false, true],
        [[0x1008ff12], []], [[0xff1b], []], [[0xffff], []], [[0xff08], []]]),
      [['enter', null], ['tab', null], ['space', ' '], ['f5', null], ['shift', null], ['ctrl', null], ['alt', null], ['super', null],
        ['up', null], ['right', null], ['home', null], ['minus', '_'], ['quote', "'"], ['end', null], ['1', '1'], ['end', null],
        ['XF86AudioMute', null], ['escape', null], ['delete', null], ['backspace', null]],
    );
  });
});
