import type { AccessibilityPort } from '../../desktop/ports/accessibilityPort';
import type { InterruptPort } from '../../desktop/ports/interruptPort';
import type { ScreenSize } from '../../desktop/ports/screenPort';
import type { WindowPort } from '../../desktop/ports/windowPort';
import { PhysicalPixels } from './physicalPixels';
import { UiaAccessibility } from './uiaAccessibility';
import { UiaHelper } from './uiaHelper';
import { WindowsInterrupts } from './windowsInterrupts';
import { WindowsWindows } from './windowsWindows';

export interface WindowsPortsOptions {
  /** The size of GAI's screenshots (the screen port's size()): boxes are scaled to it. */
  screenSize?: () => Promise<ScreenSize>;
  /** Told once of what does not work here (the tree unreadable, a DPI mismatch). */
  onWarning?: (message: string) => void;
  /** How long the helper may sit idle; 0: never. */
  idleMs?: number;
  /** Start this instead of powershell.exe (tests: a scripted helper). */
  helperCommand?: string;
  helperArgs?: string[];
}

export interface WindowsPorts {
  windows: WindowPort;
  accessibility: AccessibilityPort;
  interrupts: InterruptPort;
  /** Ends the shared helper. */
  dispose(): Promise<void>;
}

/**
 * Windows' windows, UI Automation tree and interrupts over one PowerShell helper, started on
 * first use. Nothing runs until a port is asked.
 */
export function createWindowsPorts(env: NodeJS.ProcessEnv = process.env, options: WindowsPortsOptions = {}): WindowsPorts {
  const helper = new UiaHelper({
    env,
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.helperCommand ? { command: options.helperCommand } : {}),
    ...(options.helperArgs ? { args: options.helperArgs } : {}),
  });
  const pixels = new PhysicalPixels(helper, options.screenSize, options.onWarning);
  return {
    windows: new WindowsWindows(helper, pixels),
    accessibility: new UiaAccessibility(helper, pixels, options.onWarning),
    interrupts: new WindowsInterrupts(helper, pixels),
    dispose: () => helper.dispose(),
  };
}

/**
 * The interrupt port alone, for createPlatformInterrupts (made apart from the desktop): its own
 * helper, started when a request's watch begins, ended by dispose. Pointer positions stay in
 * physical pixels: they are only compared with each other.
 */
export function createWindowsInterrupts(env: NodeJS.ProcessEnv = process.env, options: Pick<WindowsPortsOptions, 'helperCommand' | 'helperArgs' | 'idleMs'> = {}): InterruptPort {
  const helper = new UiaHelper({
    env,
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
    ...(options.helperCommand ? { command: options.helperCommand } : {}),
    ...(options.helperArgs ? { args: options.helperArgs } : {}),
  });
  return new WindowsInterrupts(helper, new PhysicalPixels(helper), true);
}
