import { describeCombo } from '../../../desktop/input/keys';
import type { KeyCombo } from '../../../desktop/ports/inputPort';
import type { InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch } from '../../../desktop/ports/interruptPort';
import { HotkeyOnlyWatch } from './hotkeyOnlyWatch';
import { SWAY_BINDING_EVENT, SwayMessage, type SwayIpc } from './swayIpc';

// sway: the stop hotkey is a binding GAI adds over IPC for the length of a request (`bindsym
// … nop gai-stop-…`), heard as sway's `binding` event whatever window is focused. A Wayland
// client cannot see the person's input or the pointer, so the takeover pause and the fail-safe
// corner are not available here; that is said once per request.

const MODIFIERS: Record<string, string> = { ctrl: 'Ctrl', command: 'Ctrl', alt: 'Mod1', shift: 'Shift', super: 'Mod4' };
const KEYS: Record<string, string> = { escape: 'Escape', enter: 'Return', space: 'space', tab: 'Tab', pause: 'Pause', backspace: 'BackSpace', delete: 'Delete' };

export function swayCombo(combo: KeyCombo): string {
  const key = KEYS[combo.key] ?? (/^f\d{1,2}$/.test(combo.key) ? combo.key.toUpperCase() : combo.key);
  return [...combo.modifiers.map((m) => MODIFIERS[m] ?? m), key].join('+');
}

export class SwayInterrupts implements InterruptPort {
  private count = 0;

  constructor(private readonly ipc: SwayIpc) {}

  async watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch> {
    const missing = [options.watchInput ? 'the takeover pause' : '', options.failSafeCorner ? 'the fail-safe corner' : ''].filter(Boolean);
    if (missing.length) handlers.onWarning(`${missing.join(' and ')} cannot work on sway: a Wayland program cannot see the person's input or the pointer; the stop hotkey and Stop still work`);
    if (!options.stopHotkey) return new SwayWatch(undefined, undefined, this.ipc);
    const combo = swayCombo(options.stopHotkey);
    const tag = `gai-stop-${process.pid}-${++this.count}`;
    const config = await this.ipc.ask<{ config?: string }>(SwayMessage.GET_CONFIG).catch(() => ({ config: '' }));
    if (new RegExp(`^\\s*bindsym\\s+(--\\S+\\s+)*${escapeRegExp(combo)}\\s`, 'im').test(config.config ?? '')) {
      handlers.onWarning(`${describeCombo(options.stopHotkey)} is already bound in your sway config; GAI does not take it over, so the stop hotkey is off (Stop, Escape and Ctrl+C still work)`);
      return new SwayWatch(undefined, undefined, this.ipc);
    }
    const subscription = await this.ipc.subscribe(
      ['binding'],
      (type, payload) => {
        const command = (payload as { binding?: { command?: string } }).binding?.command ?? '';
        if (type === SWAY_BINDING_EVENT && command.includes(tag)) handlers.onStop('hotkey', { seenAt: performance.now() });
      },
      () => undefined,
    );
    try {
      await this.ipc.command(`bindsym --no-repeat --inhibited ${combo} nop ${tag}`);
    } catch (error) {
      subscription.close();
      throw error;
    }
    return new SwayWatch(combo, subscription, this.ipc);
  }
}

class SwayWatch extends HotkeyOnlyWatch {
  private closed = false;

  constructor(
    private readonly combo: string | undefined,
    private readonly subscription: { close(): void } | undefined,
    private readonly ipc: SwayIpc,
  ) {
    super(combo !== undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.close();
    if (this.combo) await this.ipc.command(`unbindsym --inhibited ${this.combo}`).catch(() => undefined);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
