// The desktop of one stack: the platform's ports, perception through the front's wrapper (the
// CLI's warm daemon), the person's input watched by the safety monitor, and the shared services.
// Built on first use: nothing touches the display until a desktop tool runs.
import { createDesktopServices, type DesktopServices } from '../desktop/desktopServices';
import { askedFrom } from '../platform/linux/askedFrom';
import type { Asker } from '../desktop/grounding/askerWindows';
import type { InputRecorderPort } from '../desktop/ports/inputRecorderPort';
import { createPlatformRecorder } from '../platform/platformRecorder';
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
import type { InputPort } from '../desktop/ports/inputPort';
import type { SentInput } from '../desktop/input/inputClock';
import { LiveFrames, type LiveFramesOptions } from '../desktop/live/liveFrames';
import { ownLiveDesktop } from '../platform/linux/x11/ownLiveDesktop';
import type { PersonHold } from '../safety/personHold';

/** What the live view of GAI's own desktop works with (DesktopAssembly.live). */
export interface LiveDesktop {
  display: string;
  /** Frames only when the screen changed; start and stop them with the view. */
  frames(options: LiveFramesOptions): LiveFrames;
  /** The person's clicks and keys after Take over: not GAI's input, so neither watched nor guarded. */
  personInput: InputPort;
  hold: PersonHold;
  onGaiInput(listener: (input: SentInput) => void): () => void;
}

export class DesktopAssembly {
  /** The permission of the guarded call running now: the input port refuses input to a window it does not allow. */
  readonly inputScope = new InputPermissionScope();
  /** Each input GAI sent, noted as it ends: the reader waits for its effect, the live view marks it. */
  readonly inputs = new InputClock();
  private interrupts?: InterruptPort;
  private monitor?: SafetyMonitor;
  private services?: DesktopServices;
  private display?: ComputerDisplay;
  private inputRecorder?: InputRecorderPort;

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
    const { inputs } = this;
    this.services = createDesktopServices(withGuardedInput(withWatchedInput(perceived, this.safety, inputs), this.inputScope), {
      inputs,
      screenshotMaxWidth: desktop.screenshotMaxWidth,
      // The terminal or editor GAI was started from shows the request: click by text looks past it.
      ...(this.asker ? { asker: this.asker } : {}),
      redactor: front.redactor,
      privateWindowTitles: desktop.privateWindowTitles,
    });
    return this.services;
  }

  /**
   * GAI's own desktop as the live view sees it (its pixels, the person's input there, the hold that
   * pauses GAI while they have it, GAI's inputs as they land); undefined when GAI works elsewhere.
   */
  get live(): LiveDesktop | undefined {
    const port = process.platform === 'linux' ? ownLiveDesktop(this.front.desktopEnv ?? this.front.env) : undefined;
    if (!port) return undefined;
    return {
      display: port.display,
      personInput: port.input,
      hold: this.safety.personHold,
      frames: (options) => new LiveFrames(port, this.desktopServices.desktop.images, options),
      onGaiInput: (listener) => this.inputs.onInput(listener),
    };
  }

  /** The person's input as Record Steps watches it, on the display GAI works on. */
  get recorder(): InputRecorderPort {
    this.inputRecorder ??= this.front.recorder ?? createPlatformRecorder(this.front.desktopEnv ?? this.front.env);
    return this.inputRecorder;
  }

  /** The windows requests come from (the terminal, the editor); none for a test's own platform. */
  get asker(): Asker | undefined {
    return this.front.platform ? undefined : askedFrom(this.front.env, this.front.desktopEnv);
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
