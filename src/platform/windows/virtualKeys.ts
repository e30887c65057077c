import type { KeyCombo, Modifier } from '../../desktop/ports/inputPort';

// RegisterHotKey takes a virtual-key code and MOD_* flags (winuser.h). 'command' is Ctrl here,
// as everywhere GAI's combos cross from macOS.

const MODIFIERS: Readonly<Record<Modifier, number>> = { alt: 0x1, ctrl: 0x2, command: 0x2, shift: 0x4, super: 0x8 };

const NAMED: Readonly<Record<string, number>> = {
  enter: 0x0d, tab: 0x09, escape: 0x1b, space: 0x20, backspace: 0x08, delete: 0x2e, insert: 0x2d,
  home: 0x24, end: 0x23, pageup: 0x21, pagedown: 0x22, left: 0x25, up: 0x26, right: 0x27, down: 0x28,
  pause: 0x13, capslock: 0x14, printscreen: 0x2c, menu: 0x5d, scrolllock: 0x91,
  minus: 0xbd, equal: 0xbb, comma: 0xbc, period: 0xbe, slash: 0xbf, backslash: 0xdc, semicolon: 0xba,
  quote: 0xde, grave: 0xc0, leftbracket: 0xdb, rightbracket: 0xdd,
};

/** The combo as RegisterHotKey wants it, or undefined for a key it has no code for. */
export function windowsHotkey(combo: KeyCombo): { modifiers: number; vk: number } | undefined {
  const key = combo.key.toLowerCase();
  let vk = NAMED[key];
  if (vk === undefined && /^[a-z0-9]$/.test(key)) vk = key.toUpperCase().charCodeAt(0);
  const f = /^f([1-9]|1\d|2[0-4])$/.exec(key);
  if (vk === undefined && f) vk = 0x6f + Number(f[1]);
  if (vk === undefined) return undefined;
  return { modifiers: combo.modifiers.reduce((sum, m) => sum | (MODIFIERS[m] ?? 0), 0), vk };
}
