// The desktop of one stack: the platform's ports, perception through the front's wrapper (the
// CLI's warm daemon), the person's input watched by the safety monitor, and the shared services.
// Built on first use: nothing touches the display until a desktop tool runs.
import { createDesktopServices, type DesktopServices } from '../desktop/desktopServices';
import { askedFrom } from '../platform/linux/askedFrom';
import { InputPermissionScope, withGuardedInput } from '../desktop/input/guardedInput';
import { withWatchedInput } from '../desktop/input/watchedInput';
import { InputClock } from '../desktop/input/inputClock';
import type { Desktop } from '../desktop/ports/desktop';
import type { InterruptPort } from '../desktop/ports/interruptPort';
import { warmUpDesktop } from '../desktop/warmUp';
import { createPlatformDesktop } from '../platform/platformDesktop';
import { createPlatformInterrupts } from '../platform/platformInterrupts';
import { SafetyMonitor } from '../safety/safetyMonitor';
import { ComputerDisplay } from '../tools/desktop/computer/computerDisplay';
import type { StackFront, StackSettings } from './stackTypes';

export class DesktopAssembly {
  /** The permission of the guarded call running now: the input port refuses input to a window it does not allow. */
  readonly inputScope = new InputPermissionScope();
  private interrupts?: InterruptPort;
  private monitor?: SafetyMonitor;
  private services?: DesktopServices;
  private display?: ComputerDisplay;

  constructor(
    private readonly settings: StackSettings,
    private readonly front: StackFront,
  ) {}

  /** The stop hotkey, fail-safe corner and takeover pause: one per stack, guarding every runtime that acts for a model or a script. */
  get safety(): SafetyMonitor {
    this.monitor ??= new SafetyMonitor({
      interrupts: (this.interrupts = this.front.interrupts ?? createPlatformInterrupts(this.front.env)),
      settings: this.settings.safety,
      ...(this.front.onTakeover ? { onTakeover: this.front.onTakeover } : {}),
      ...(this.front.onSafetyWarning ? { onWarning: this.front.onSafetyWarning } : {}),
      ...(this.front.onStopped ? { onStopped: this.front.onStopped } : {}),
      logger: this.front.logger,
    });
    return this.monitor;
  }

  get desktopServices(): DesktopServices {
    if (this.services) return this.services;
    const { desktop } = this.settings;
    const { front } = this;
    const local =
      front.platform?.() ??
      createPlatformDesktop({
        ocrLanguage: desktop.ocrLanguage,
        ...(front.desktopEnv ? { env: front.desktopEnv } : {}),
        holdsSecret: (value) => front.redactor.containsKnownSecret(value),
        launchAllow: desktop.launchAllow,
        onWarning: (message) => front.logger.warn(message),
        ...(desktop.bridgeIdleMs !== undefined ? { bridgeIdleMs: desktop.bridgeIdleMs } : {}),
      });
    // Perception may go elsewhere (the warm daemon); the input is always watched here, and under
    // a guarded call reaches only windows of apps the person allowed (judged at the input port).
    const perceived = front.perception ? front.perception(local) : local;
    // Each input is noted as it ends, for the reader's wait after it.
    const inputs = new InputClock();
    this.services = createDesktopServices(withGuardedInput(withWatchedInput(perceived, this.safety, inputs), this.inputScope), {
      inputs,
      screenshotMaxWidth: desktop.screenshotMaxWidth,
      // The terminal or editor GAI was started from shows the request: click by text looks past it.
      ...(front.platform ? {} : { asker: askedFrom(front.env, front.desktopEnv) }),
      redactor: front.redactor,
      privateWindowTitles: desktop.privateWindowTitles,
    });
    return this.services;
  }

  /** The display as the `computer` tool shows it (the agent sets the model's image limits on it). */
  get computerDisplay(): ComputerDisplay {
    this.display ??= new ComputerDisplay(this.desktopServices.desktop.screen);
    return this.display;
  }

  /** Starts the OCR workers, the window connection and the tree; says how long it took. */
  async warmUp(): Promise<string> {
    const report = await warmUpDesktop(this.desktopServices.desktop);
    return `desktop engine warm in ${report.ms} ms${report.problems.length ? ` (not started: ${report.problems.join('; ')})` : ''}`;
  }

  async dispose(): Promise<void> {
    // The stop hotkey's helper waits in standby between requests.
    this.interrupts?.dispose?.();
    const desktop = this.services?.desktop;
    // The OCR worker thread would keep a process alive.
    if (desktop) await (desktop.dispose ? desktop.dispose() : desktop.ocr.dispose());
  }
}

/** The warm daemon's perception: the platform desktop, its bridge kept warm while the daemon runs. */
export function daemonPerception(ocrLanguage: string, env: NodeJS.ProcessEnv): Desktop {
  return createPlatformDesktop({ ocrLanguage, env, bridgeIdleMs: 0 });
}
