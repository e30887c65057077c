import { resolveCombo } from '../desktop/input/keys';
import type { KeyCombo } from '../desktop/ports/inputPort';

// The person's stop and takeover settings, shared by the CLI config (`safety`) and VS Code
// (`gai.safety.*`). Parsed once here so both hosts accept and refuse the same values.

export interface SafetySettings {
  /** Undefined: no global stop hotkey. */
  stopHotkey?: KeyCombo;
  /** As the person wrote it, for messages ("stopped by the person (ctrl+alt+escape)"). */
  stopHotkeyLabel?: string;
  failSafeCorner: boolean;
  pauseOnTakeover: boolean;
}

export const DEFAULT_STOP_HOTKEY = 'ctrl+alt+escape';

export const DEFAULT_SAFETY: SafetySettings = {
  stopHotkey: { modifiers: ['ctrl', 'alt'], key: 'escape' },
  stopHotkeyLabel: 'Ctrl+Alt+Escape',
  failSafeCorner: true,
  pauseOnTakeover: true,
};

/**
 * Parses a stop hotkey: `ctrl+alt+escape`, `ctrl+shift+f12`…; `off` or an empty string turns
 * it off. It needs Ctrl or Alt (or is a function key): a grabbed plain key would be taken from
 * every application while the agent runs. Throws an Error saying what is wrong.
 */
export function parseStopHotkey(text: string): { combo?: KeyCombo; label?: string } {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.toLowerCase() === 'off') return {};
  let combo: KeyCombo;
  try {
    combo = resolveCombo(trimmed);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; expected e.g. "ctrl+alt+escape", or "off"`, { cause: error });
  }
  const strong = combo.modifiers.some((m) => m === 'ctrl' || m === 'alt' || m === 'command');
  if (!strong && !/^f\d+$/.test(combo.key)) {
    throw new Error(`"${trimmed}" would take the key from every application while the agent works: add ctrl or alt (e.g. "ctrl+alt+escape"), or "off"`);
  }
  return { combo, label: labelOf(combo) };
}

/** `Ctrl+Alt+Escape`, as people read it in messages. */
export function labelOf(combo: KeyCombo): string {
  const name = (part: string): string => (part.length <= 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1));
  return [...combo.modifiers, combo.key].map(name).join('+');
}

/** Builds the settings from optional parts (config file or VS Code settings); throws naming the field. */
export function safetySettingsFrom(
  raw: { stopHotkey?: string; failSafeCorner?: boolean; pauseOnTakeover?: boolean },
  fieldPrefix: string,
): SafetySettings {
  let hotkey: { combo?: KeyCombo; label?: string };
  try {
    hotkey = raw.stopHotkey === undefined ? { combo: DEFAULT_SAFETY.stopHotkey, label: DEFAULT_SAFETY.stopHotkeyLabel } : parseStopHotkey(raw.stopHotkey);
  } catch (error) {
    throw new Error(`${fieldPrefix}stopHotkey: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return {
    ...(hotkey.combo ? { stopHotkey: hotkey.combo, stopHotkeyLabel: hotkey.label } : {}),
    failSafeCorner: raw.failSafeCorner ?? DEFAULT_SAFETY.failSafeCorner,
    pauseOnTakeover: raw.pauseOnTakeover ?? DEFAULT_SAFETY.pauseOnTakeover,
  };
}
