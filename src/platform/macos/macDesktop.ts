import type { AccessibilityPort } from '../../desktop/ports/accessibilityPort';
import type { InterruptPort } from '../../desktop/ports/interruptPort';
import { MacAccessibility } from './macAccessibility';
import { MacHelper, type MacHelperOptions } from './macHelper';
import { MacInterrupts } from './macInterrupts';
import { checkMacPermissions, type MacPermissionReport } from './macPermissions';
import { MacWindows, mainDisplayScale } from './macWindows';

export interface MacPortsOptions {
  /** Screen pixels per point, as the screen port grabs them (NutScreen.scaleFactor); default: the helper's main display. */
  scaleFactor?: () => Promise<number>;
  /** Told once when a part cannot work (the tree unreadable: OCR only). */
  onWarning?: (message: string) => void;
  /** The helper program; tests start a scripted helper in place of osascript. */
  helper?: Pick<MacHelperOptions, 'command' | 'args' | 'idleMs'>;
  /** How often the interrupt watch polls the stop hotkey and the person's input. */
  pollMs?: number;
}

export interface MacPorts {
  windows: MacWindows;
  accessibility: AccessibilityPort;
  interrupts: InterruptPort;
  /** Which macOS permission is missing for which app, and the System Settings pane to open. */
  permissions(signal?: AbortSignal): Promise<MacPermissionReport>;
  /**
   * Asks macOS to show its own prompts (Accessibility: the dialog that opens the pane with the
   * host listed; Screen Recording: the request, shown once per app), then reports as `permissions`.
   */
  requestPermissions(signal?: AbortSignal): Promise<MacPermissionReport>;
  dispose(): Promise<void>;
}

/** The macOS ports over one helper (windows, tree, permissions) and one per interrupt watch; nothing starts until asked. */
export function createMacPorts(env: NodeJS.ProcessEnv = process.env, options: MacPortsOptions = {}): MacPorts {
  const helperOptions: MacHelperOptions = { ...options.helper, env };
  const helper = new MacHelper(helperOptions);
  let scale: Promise<number> | undefined;
  const scaleFactor = options.scaleFactor ?? ((): Promise<number> => (scale ??= mainDisplayScale(helper).catch((error: unknown) => {
    scale = undefined; // asked again next time; no guessed scale, which would put every box at the wrong place on Retina
    throw error;
  })));
  return {
    windows: new MacWindows(helper, scaleFactor),
    accessibility: new MacAccessibility(helper, scaleFactor, options.onWarning),
    interrupts: new MacInterrupts({ ...helperOptions, idleMs: 0 }, scaleFactor, options.pollMs),
    permissions: (signal) => checkMacPermissions(helper, env, signal),
    requestPermissions: async (signal) => {
      await helper.request('prompt', {}, { signal });
      return checkMacPermissions(helper, env, signal);
    },
    dispose: () => helper.dispose(),
  };
}
