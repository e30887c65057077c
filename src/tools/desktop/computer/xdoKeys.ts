import { resolveCombo, toModifier } from '../../../desktop/input/keys';
import type { KeyCombo, Modifier } from '../../../desktop/ports/inputPort';

// Computer-use models name keys the way xdotool does ("Return", "ctrl+shift+Tab", "Page_Down",
// "super"); these map them onto GAI's portable key names.

/** xdotool / X keysym names (lower case) whose portable name differs. */
const XDO_NAMES: Record<string, string> = {
  return: 'enter',
  kp_enter: 'enter',
  prior: 'pageup',
  next: 'pagedown',
  page_up: 'pageup',
  page_down: 'pagedown',
  caps_lock: 'capslock',
  print: 'printscreen',
  apostrophe: 'quote',
  bracketleft: 'leftbracket',
  bracketright: 'rightbracket',
  iso_left_tab: 'tab',
  super_l: 'super',
  super_r: 'super',
  meta_l: 'super',
  meta_r: 'super',
  windows: 'super',
  control_l: 'ctrl',
  control_r: 'ctrl',
  shift_l: 'shift',
  shift_r: 'shift',
  alt_l: 'alt',
  alt_r: 'alt',
  // Anthropic's models on macOS say "cmd" for the Command key; GAI's "command" is that key there
  // and Ctrl elsewhere, which is what such a shortcut means on Linux and Windows.
  cmd: 'command',
};

function portable(part: string): string {
  const trimmed = part.trim();
  return XDO_NAMES[trimmed.toLowerCase()] ?? trimmed;
}

/** "ctrl+shift+t" → its parts; "ctrl++" keeps "+" as the key; a lone "+" is the key. */
function comboParts(text: string): string[] {
  if (text === '+') return ['+'];
  if (text.endsWith('++')) return [...text.slice(0, -2).split('+'), '+'];
  return text.split('+');
}

/**
 * One xdotool-style combination ("ctrl+s", "Return", "super", "shift+Tab") as a KeyCombo;
 * throws an Error saying which part is not a key or modifier.
 */
export function parseXdoCombo(text: string): KeyCombo {
  const parts = comboParts(text.trim()).map(portable);
  const key = parts.pop();
  if (key === undefined || key === '') throw new Error(`"${text}" names no key`);
  const modifiers: Modifier[] = [];
  for (const part of parts) {
    const modifier = toModifier(part);
    if (!modifier) throw new Error(`"${part}" in "${text}" is not a modifier (ctrl, shift, alt, super, cmd)`);
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  return resolveCombo(key, modifiers);
}

/** xdotool's `key` takes several combinations separated by spaces: "ctrl+a Delete". */
export function parseXdoKeys(text: string): KeyCombo[] {
  const combos = text.trim().split(/\s+/).filter((c) => c !== '');
  if (!combos.length) throw new Error('names no key');
  return combos.map(parseXdoCombo);
}

/** Modifiers held during a click or scroll: "shift", "ctrl+shift". */
export function parseModifiers(text: string): Modifier[] {
  const modifiers: Modifier[] = [];
  for (const part of text.split('+')) {
    const modifier = toModifier(portable(part));
    if (!modifier) throw new Error(`"${part.trim()}" is not a modifier (ctrl, shift, alt, super, cmd)`);
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
  }
  return modifiers;
}
