import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { hasExited, waitForExit } from '../../../common/childProcesses';
import { describeCombo } from '../../../desktop/input/keys';
import type { KeyCombo } from '../../../desktop/ports/inputPort';
import type { InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch } from '../../../desktop/ports/interruptPort';
import { HotkeyOnlyWatch } from './hotkeyOnlyWatch';
import { PORTAL_SHORTCUTS_SCRIPT } from './portalShortcutsScript';

// The stop hotkey where the desktop offers the GlobalShortcuts portal (KDE Plasma): one helper
// per request holds a portal session whose shortcut is the stop hotkey (portalShortcutsScript.ts).
// As on sway, a Wayland program cannot see the person's input or the pointer, so the takeover
// pause and the fail-safe corner are not available; that is said once per request.

const START_TIMEOUT_MS = 10_000;
const CLOSE_TIMEOUT_MS = 2_000;

const MODIFIERS: Record<string, string> = { ctrl: 'CTRL', command: 'CTRL', alt: 'ALT', shift: 'SHIFT', super: 'LOGO' };
const KEYS: Record<string, string> = { escape: 'Escape', enter: 'Return', space: 'space', tab: 'Tab', pause: 'Pause', backspace: 'BackSpace', delete: 'Delete' };

/** A combo as the XDG shortcuts specification writes a trigger: "CTRL+ALT+Escape". */
export function portalTrigger(combo: KeyCombo): string {
  const key = KEYS[combo.key] ?? (/^f\d{1,2}$/.test(combo.key) ? combo.key.toUpperCase() : combo.key);
  return [...combo.modifiers.map((m) => MODIFIERS[m] ?? m.toUpperCase()), key].join('+');
}

export class PortalInterrupts implements InterruptPort {
  private readonly python: string;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** The desktop, for messages ("KDE Plasma"). */
    private readonly desktop: string,
  ) {
    this.python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  }

  async watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch> {
    const missing = [options.watchInput ? 'the takeover pause' : '', options.failSafeCorner ? 'the fail-safe corner' : ''].filter(Boolean);
    if (missing.length) handlers.onWarning(`${missing.join(' and ')} cannot work on ${this.desktop}'s Wayland session: a Wayland program cannot see the person's input or the pointer; the stop hotkey and Stop still work`);
    if (!options.stopHotkey) return new PortalWatch(undefined);
    const label = describeCombo(options.stopHotkey);
    const child = spawn(this.python, ['-E', '-c', PORTAL_SHORTCUTS_SCRIPT, portalTrigger(options.stopHotkey), 'Stop GAI'], { env: this.env, stdio: ['pipe', 'pipe', 'ignore'] });
    const trigger = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the desktop portal did not set up the stop hotkey within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start the stop-hotkey helper (${this.python}): ${error.message}`));
      });
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error('the stop-hotkey helper ended before the desktop answered'));
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        let message: { type?: string; trigger?: string; error?: string };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return;
        }
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(message.trigger ?? '');
        } else if (message.type === 'error') {
          clearTimeout(timer);
          reject(new Error(`the stop hotkey is not available: ${message.error ?? 'the portal failed'}; use the Stop button, Escape or Ctrl+C`));
        } else if (message.type === 'stop') {
          handlers.onStop('hotkey', { seenAt: performance.now() });
        }
      });
    }).catch((error: unknown) => {
      end(child);
      throw error;
    });
    if (trigger && !sameTrigger(trigger, options.stopHotkey)) {
      handlers.onWarning(`on ${this.desktop} the stop hotkey is ${trigger}, the key System Settings > Shortcuts gives "Stop GAI"`);
    }
    if (!trigger) {
      const killWindow = sameTrigger('Ctrl+Alt+Esc', options.stopHotkey) ? ' (KWin\'s "Kill Window" has it by default)' : '';
      handlers.onWarning(`${label} is taken by another shortcut on ${this.desktop}${killWindow}, so the stop hotkey is off: choose another in gai.safety.stopHotkey, or give "Stop GAI" a key in System Settings > Shortcuts (Stop, Escape and Ctrl+C still work)`);
    }
    return new PortalWatch(trigger ? child : undefined, child);
  }
}

class PortalWatch extends HotkeyOnlyWatch {
  constructor(
    hotkey: ChildProcess | undefined,
    private readonly child?: ChildProcess,
  ) {
    super(hotkey !== undefined);
  }

  async close(): Promise<void> {
    if (this.child) await end(this.child);
  }
}

/** Ends the helper: its stdin closed, it closes the portal session and exits; by PID if it does not. */
async function end(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  child.stdin?.end();
  if (!(await waitForExit(child, CLOSE_TIMEOUT_MS))) child.kill('SIGKILL');
}

/** Whether the desktop's description of a trigger ("Ctrl+Alt+Esc") is the combo asked for. */
function sameTrigger(described: string, combo: KeyCombo): boolean {
  const norm = (text: string): string[] => text.toLowerCase().replace(/\besc\b/g, 'escape').replace(/\bmeta\b/g, 'super').split('+').map((part) => part.trim()).sort();
  const wanted = [...combo.modifiers.map((m) => (m === 'command' ? 'ctrl' : m)), combo.key.toLowerCase()];
  return norm(described).join('+') === norm(wanted.join('+')).join('+');
}
