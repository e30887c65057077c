// A key the person pressed in the live view, as GAI's desktop gets it: a character typed as text,
// anything else as a key name GAI's input knows (src/desktop/input/keys.ts) with its modifiers.
import type { LiveModifier, LiveViewMessage } from '../../shared/liveViewProtocol';

const NAMED: Record<string, string> = {
  Enter: 'enter', Tab: 'tab', Escape: 'escape', Backspace: 'backspace', Delete: 'delete', Insert: 'insert',
  Home: 'home', End: 'end', PageUp: 'pageup', PageDown: 'pagedown', ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  ContextMenu: 'menu', ' ': 'space',
};
const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'NumLock', 'OS', 'Super', 'Hyper']);

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/** The message for a keydown, or undefined for what is not sent (a modifier alone, a dead key). */
export function keyMessage(event: KeyLike): LiveViewMessage | undefined {
  if (MODIFIER_KEYS.has(event.key) || event.key === 'Dead' || event.key === 'Unidentified') return undefined;
  const chord = event.ctrlKey || event.altKey || event.metaKey;
  // A character with Shift at most is what the person typed (Shift is already in it).
  if (event.key.length === 1 && event.key !== ' ' && !chord) return { type: 'text', text: event.key };
  if (event.key === ' ' && !chord && !event.shiftKey) return { type: 'text', text: ' ' };
  const modifiers: LiveModifier[] = [];
  if (event.ctrlKey) modifiers.push('ctrl');
  if (event.altKey) modifiers.push('alt');
  if (event.shiftKey) modifiers.push('shift');
  if (event.metaKey) modifiers.push('super');
  const named = NAMED[event.key] ?? (/^F\d{1,2}$/.test(event.key) ? event.key.toLowerCase() : event.key.length === 1 ? event.key.toLowerCase() : undefined);
  return named ? { type: 'key', key: named, modifiers } : undefined;
}

/** Wheel steps of a wheel event (lines or pixels), 1 to 10. */
export function wheelSteps(delta: number, deltaMode: number): number {
  const lines = deltaMode === 1 ? Math.abs(delta) / 3 : deltaMode === 2 ? Math.abs(delta) * 10 : Math.abs(delta) / 100;
  return Math.min(10, Math.max(1, Math.round(lines)));
}
