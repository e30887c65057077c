import type { KeyCombo, Modifier } from '../ports/inputPort';

// Portable key names. Tools and the CLI speak these; each input adapter maps them to its own
// key codes. `command` is Cmd on macOS and Ctrl elsewhere, so "command+s" saves everywhere.

const MODIFIER_ALIASES: Record<string, Modifier> = {
  command: 'command',
  cmd: 'command',
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  opt: 'alt',
  shift: 'shift',
  super: 'super',
  win: 'super',
  meta: 'super',
};

const NAMED_KEYS = [
  'enter', 'tab', 'escape', 'space', 'backspace', 'delete', 'insert', 'home', 'end', 'pageup', 'pagedown',
  'up', 'down', 'left', 'right', 'capslock', 'printscreen', 'menu',
  // Modifiers pressed on their own ("super" opens a launcher).
  'shift', 'ctrl', 'alt', 'super',
  'minus', 'equal', 'comma', 'period', 'slash', 'backslash', 'semicolon', 'quote', 'grave', 'leftbracket', 'rightbracket',
] as const;

const KEY_ALIASES: Record<string, string> = {
  return: 'enter',
  control: 'ctrl',
  win: 'super',
  meta: 'super',
  esc: 'escape',
  del: 'delete',
  bksp: 'backspace',
  pgup: 'pageup',
  pgdn: 'pagedown',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
  spacebar: 'space',
  plus: '+',
  '-': 'minus',
  '=': 'equal',
  ',': 'comma',
  '.': 'period',
  '/': 'slash',
  '\\': 'backslash',
  ';': 'semicolon',
  "'": 'quote',
  '`': 'grave',
  '[': 'leftbracket',
  ']': 'rightbracket',
  ' ': 'space',
};

/** US layout: the shifted symbols and the key they are on. */
const SHIFTED: Record<string, string> = {
  '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
  _: 'minus', '+': 'equal', '<': 'comma', '>': 'period', '?': 'slash', '|': 'backslash', ':': 'semicolon',
  '"': 'quote', '~': 'grave', '{': 'leftbracket', '}': 'rightbracket',
};

const FUNCTION_KEY = /^f([1-9]|1[0-9]|2[0-4])$/;

export function isModifierName(name: string): boolean {
  return name.toLowerCase() in MODIFIER_ALIASES;
}

export function toModifier(name: string): Modifier | undefined {
  return MODIFIER_ALIASES[name.toLowerCase()];
}

/**
 * The canonical name of a key (`a`, `7`, `enter`, `f5`, `minus`…), or undefined. A shifted
 * symbol such as `+` is not a key of its own: see `keystrokeFor`.
 */
export function canonicalKey(name: string): string | undefined {
  const lower = name.length === 1 ? name.toLowerCase() : name.trim().toLowerCase();
  const aliased = KEY_ALIASES[lower] ?? lower;
  if (/^[a-z0-9]$/.test(aliased)) return aliased;
  if ((NAMED_KEYS as readonly string[]).includes(aliased) || FUNCTION_KEY.test(aliased)) return aliased;
  return undefined;
}

/** How to type one character on a US layout: its key and whether Shift is held. */
export function keystrokeFor(char: string): { key: string; shift: boolean } | undefined {
  if (/^[a-z0-9]$/.test(char)) return { key: char, shift: false };
  if (/^[A-Z]$/.test(char)) return { key: char.toLowerCase(), shift: true };
  if (char === '\n') return { key: 'enter', shift: false };
  if (char === '\t') return { key: 'tab', shift: false };
  const shifted = SHIFTED[char];
  if (shifted) return { key: shifted, shift: true };
  const plain = KEY_ALIASES[char];
  return plain ? { key: plain, shift: false } : undefined;
}

/**
 * Resolves a key (possibly a combination string like `ctrl+shift+t`, or a shifted symbol like
 * `+`) plus extra modifiers into one combo; throws an Error naming what is not a key.
 */
export function resolveCombo(key: string, extraModifiers: Modifier[] = []): KeyCombo {
  const parts = splitCombo(key);
  const last = parts.pop();
  if (last === undefined || last === '') throw new Error(`"${key}" names no key`);
  const modifiers = new Set<Modifier>(extraModifiers);
  for (const part of parts) {
    const modifier = toModifier(part);
    if (!modifier) throw new Error(`"${part}" in "${key}" is not a modifier (use command, ctrl, alt, shift or super)`);
    modifiers.add(modifier);
  }
  const canonical = canonicalKey(last);
  if (canonical) return { modifiers: [...modifiers], key: canonical };
  const stroke = last.length === 1 ? keystrokeFor(last) : undefined;
  if (stroke) {
    if (stroke.shift) modifiers.add('shift');
    return { modifiers: [...modifiers], key: stroke.key };
  }
  throw new Error(`"${last}" is not a known key (examples: a, 7, enter, tab, escape, f5, up, pagedown, +)`);
}

/** `ctrl+shift+t` → [ctrl, shift, t]; `ctrl++` → [ctrl, +]; a lone `+` stays a key; `ctrl+` names no key. */
function splitCombo(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.length <= 1) return [trimmed];
  if (trimmed.endsWith('++')) return [...trimmed.slice(0, -2).split('+').map((p) => p.trim()), '+'];
  return trimmed.split('+').map((p) => p.trim());
}

export function describeCombo(combo: KeyCombo): string {
  return [...combo.modifiers, combo.key].join('+');
}
