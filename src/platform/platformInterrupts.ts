import type { InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch } from '../desktop/ports/interruptPort';
import { X11InterruptWatcher } from './linux/x11/x11InterruptWatcher';

/** The interrupt watcher of this platform; nothing starts until a request runs. */
export function createPlatformInterrupts(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): InterruptPort {
  return platform === 'linux' ? new X11InterruptWatcher({ env }) : new UnavailableInterrupts(platform);
}

/**
 * macOS and Windows: the global hotkey (RegisterHotKey, a CGEventTap) and the input watch are
 * not built yet. Every watch fails with the reason, which the safety monitor shows once.
 */
export class UnavailableInterrupts implements InterruptPort {
  constructor(private readonly platform: string) {}

  watch(_options: InterruptOptions, _handlers: InterruptHandlers): Promise<InterruptWatch> {
    return Promise.reject(new Error(`the global stop hotkey is not available on ${this.platform} yet; use the Stop button`));
  }
}
