import { canonicalKey } from '../../desktop/input/keys';

// X keysym names of GAI's portable key names (src/desktop/input/keys.ts): what X11's XTEST
// (xdotool), the X11 hotkey watcher and wlroots' virtual keyboard all take.
const KEYSYMS: Record<string, string> = {
  enter: 'Return', tab: 'Tab', escape: 'Escape', space: 'space', backspace: 'BackSpace', delete: 'Delete', insert: 'Insert',
  home: 'Home', end: 'End', pageup: 'Prior', pagedown: 'Next', up: 'Up', down: 'Down', left: 'Left', right: 'Right',
  capslock: 'Caps_Lock', printscreen: 'Print', menu: 'Menu', shift: 'Shift_L', ctrl: 'Control_L', alt: 'Alt_L', super: 'Super_L',
  minus: 'minus', equal: 'equal', comma: 'comma', period: 'period', slash: 'slash', backslash: 'backslash', semicolon: 'semicolon',
  quote: 'apostrophe', grave: 'grave', leftbracket: 'bracketleft', rightbracket: 'bracketright',
};

/** The X keysym of a key name (any alias `canonicalKey` knows); an unknown name is passed through. */
export function xKeysym(key: string): string {
  const canonical = canonicalKey(key) ?? key;
  if (/^f\d{1,2}$/.test(canonical)) return canonical.toUpperCase();
  return KEYSYMS[canonical] ?? canonical;
}
