import type { InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch } from '../desktop/ports/interruptPort';
import { X11InterruptWatcher } from './linux/x11/x11InterruptWatcher';
import { detectDisplaySession } from './linux/displaySession';
import { unsupportedReason } from './linux/wayland/waylandDesktop';
import { SwayInterrupts } from './linux/wayland/swayInterrupts';
import { SwayIpc } from './linux/wayland/swayIpc';
import { PortalInterrupts } from './linux/wayland/portalInterrupts';
import { createMacPorts } from './macos/macDesktop';
import { createWindowsInterrupts } from './windows/windowsDesktop';

/** The interrupt watcher of this platform; nothing starts until a request runs. */
export function createPlatformInterrupts(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): InterruptPort {
  // The helper starts only when a watch starts.
  if (platform === 'darwin') return createMacPorts(env).interrupts;
  // Windows: RegisterHotKey, the corner and GetLastInputInfo in a PowerShell helper of its own.
  if (platform === 'win32') return createWindowsInterrupts(env);
  if (platform !== 'linux') return new UnavailableInterrupts(`the global stop hotkey is not available on ${platform} yet; use the Stop button`);
  const session = detectDisplaySession(env);
  if (session.kind !== 'wayland') return new X11InterruptWatcher({ env });
  if (session.compositor === 'sway' && session.swaySocket) return new SwayInterrupts(new SwayIpc(session.swaySocket));
  if (session.compositor === 'gnome') {
    return new UnavailableInterrupts('the global stop hotkey is not available on GNOME\'s Wayland: Mutter lets a program register no global shortcut (the GlobalShortcuts portal comes with GNOME 48); use the Stop button, Escape or Ctrl+C');
  }
  // KDE Plasma 5.27 and later: the stop hotkey through the desktop portal's GlobalShortcuts.
  if (session.compositor === 'kde') return new PortalInterrupts(env, 'KDE Plasma');
  return new UnavailableInterrupts(`the global stop hotkey is not available: ${unsupportedReason(session).message}; use the Stop button`);
}

/**
 * Platforms and Wayland desktops where GAI has no global watch: every watch fails with the
 * reason, which the safety monitor shows once.
 */
export class UnavailableInterrupts implements InterruptPort {
  constructor(private readonly why: string) {}

  watch(_options: InterruptOptions, _handlers: InterruptHandlers): Promise<InterruptWatch> {
    return Promise.reject(new Error(this.why));
  }
}
