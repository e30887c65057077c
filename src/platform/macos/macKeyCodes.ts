import type { KeyCombo, Modifier } from '../../desktop/ports/inputPort';

// macOS virtual key codes (Carbon's kVK_* constants, the same on every keyboard layout for the
// keys below: ANSI positions for letters) and CGEventFlags masks, for the polled stop hotkey.

const LETTERS = 'asdfhgzxcv_bqweryt';
const CODES: Record<string, number> = {
  escape: 53, enter: 36, return: 36, tab: 48, space: 49, backspace: 51, delete: 117, home: 115, end: 119,
  pageup: 116, pagedown: 121, left: 123, right: 124, down: 125, up: 126,
  f1: 122, f2: 120, f3: 99, f4: 118, f5: 96, f6: 97, f7: 98, f8: 100, f9: 101, f10: 109, f11: 103, f12: 111,
  '1': 18, '2': 19, '3': 20, '4': 21, '6': 22, '5': 23, '9': 25, '7': 26, '8': 28, '0': 29,
  o: 31, u: 32, i: 34, p: 35, l: 37, j: 38, k: 40, n: 45, m: 46,
};
for (let i = 0; i < LETTERS.length; i++) if (LETTERS[i] !== '_') CODES[LETTERS[i]!] = i;

const FLAGS: Readonly<Record<Modifier, number>> = {
  shift: 0x20000, ctrl: 0x40000, alt: 0x80000, command: 0x100000, super: 0x100000,
};

export function macKeyCode(key: string): number | undefined {
  return CODES[key.toLowerCase()];
}

/** The CGEventFlags bits a combination's modifiers set. */
export function macFlags(combo: KeyCombo): number {
  return combo.modifiers.reduce((bits, m) => bits | FLAGS[m], 0);
}

/** Whether the held modifier flags are exactly the combination's (other bits such as Caps Lock ignored). */
export function flagsMatch(held: number, wanted: number): boolean {
  const all = FLAGS.shift | FLAGS.ctrl | FLAGS.alt | FLAGS.command;
  return (held & all) === wanted;
}
