import { describeCombo } from '../../desktop/input/keys';
import type { KeyCombo, Point } from '../../desktop/ports/inputPort';
import type {
  InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch, PersonActivity, WatchCapabilities,
} from '../../desktop/ports/interruptPort';
import type { PhysicalPixels } from './physicalPixels';
import type { UiaAnswer, UiaEvent, UiaHelper } from './uiaHelper';
import { windowsHotkey } from './virtualKeys';

// Windows: the stop hotkey through RegisterHotKey on a helper thread with a message queue (held
// by another program: a warning, the rest still works), the fail-safe corner from a cursor poll
// on that thread, and the person's activity from GetLastInputInfo: any input after the tick GAI's
// own input ended at is the person's.

/** RegisterHotKey's error when another program holds the combination. */
const ERROR_HOTKEY_ALREADY_REGISTERED = 1409;

export class WindowsInterrupts implements InterruptPort {
  constructor(
    private readonly helper: UiaHelper,
    private readonly pixels: PhysicalPixels,
    /** The helper is this port's alone (not shared with the desktop's ports): dispose ends it. */
    private readonly ownsHelper = false,
  ) {}

  async watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch> {
    try {
      await this.helper.start();
    } catch (error) {
      throw new Error(`the stop hotkey and takeover watch cannot run: ${error instanceof Error ? error.message : String(error)}; use the Stop button`, { cause: error });
    }
    let hotkey = options.stopHotkey ? windowsHotkey(options.stopHotkey) : undefined;
    if (options.stopHotkey && !hotkey) {
      handlers.onWarning(`the stop hotkey ${describeCombo(options.stopHotkey)} has a key Windows' RegisterHotKey cannot take; use the Stop button or choose another key`);
      hotkey = undefined;
    }
    const watch = new WindowsWatch(this.helper, this.pixels, handlers, options.watchInput);
    const answer = await this.helper.request('watch', { modifiers: hotkey?.modifiers ?? 0, vk: hotkey?.vk ?? 0, corner: options.failSafeCorner });
    const registered = answer.hotkey === true;
    if (options.stopHotkey && hotkey && !registered) handlers.onWarning(hotkeyWarning(options.stopHotkey, Number(answer.hotkeyError)));
    await watch.begin({ hotkey: registered, corner: answer.corner === true, input: options.watchInput });
    return watch;
  }

  dispose(): void {
    // A shared helper is ended by windowsDesktop's dispose.
    if (this.ownsHelper) void this.helper.dispose();
  }
}

function hotkeyWarning(combo: KeyCombo, code: number): string {
  const label = describeCombo(combo);
  if (code === ERROR_HOTKEY_ALREADY_REGISTERED) return `the stop hotkey ${label} is held by another program, so it does not stop GAI; use the Stop button, or choose another stop hotkey`;
  return `the stop hotkey ${label} could not be registered (Windows error ${Number.isFinite(code) ? code : 'unknown'}); use the Stop button`;
}

class WindowsWatch implements InterruptWatch {
  capabilities: WatchCapabilities = { hotkey: false, corner: false, input: false };
  private baseline = 0;
  private left: Point = { x: 0, y: 0 };
  private closed = false;
  private warnedEnd = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly helper: UiaHelper,
    private readonly pixels: PhysicalPixels,
    private readonly handlers: InterruptHandlers,
    private readonly watchInput: boolean,
  ) {
    this.unsubscribe = helper.onEvent((event) => this.onEvent(event));
  }

  async begin(capabilities: WatchCapabilities): Promise<void> {
    this.capabilities = capabilities;
    await this.mark();
  }

  async beginOwnInput(_points: Point[]): Promise<PersonActivity> {
    return this.activity();
  }

  async endOwnInput(): Promise<Point | undefined> {
    await this.mark();
    return this.left;
  }

  async activity(): Promise<PersonActivity> {
    const now = await this.read();
    // GetLastInputInfo's tick is 32-bit milliseconds: compare modulo 2^32.
    const person = ((now.tick - this.baseline) >>> 0) > 0 && ((now.tick - this.baseline) >>> 0) < 0x80000000;
    const moved = now.pointer.x !== this.left.x || now.pointer.y !== this.left.y;
    // One tick says that some input came, not which: a key or a click where the pointer stayed.
    return { keys: this.watchInput && person && !moved ? 1 : 0, buttons: 0, moved: this.watchInput && moved, pointer: now.pointer, left: this.left };
  }

  async reset(): Promise<void> {
    await this.mark();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.warnedEnd) return; // the helper that died released the hotkey with it: starting one to say so is a waste
    await this.helper.request('unwatch').catch(() => undefined);
  }

  private async mark(): Promise<void> {
    const now = await this.read();
    this.baseline = now.tick;
    this.left = now.pointer;
  }

  private async read(): Promise<{ tick: number; pointer: Point }> {
    const answer: UiaAnswer = await this.helper.request('input');
    const factor = await this.pixels.factor();
    return {
      tick: Number(answer.lastInput) >>> 0,
      pointer: { x: Math.round(Number(answer.x) * factor), y: Math.round(Number(answer.y) * factor) },
    };
  }

  private onEvent(event: UiaEvent): void {
    if (this.closed) return;
    if (event.event === 'stop' && (event.trigger === 'hotkey' || event.trigger === 'corner')) {
      this.handlers.onStop(event.trigger, { seenAt: Number(process.hrtime.bigint() / 1_000_000n) });
    } else if (event.event === 'ended' && !this.warnedEnd) {
      this.warnedEnd = true;
      this.handlers.onWarning('the stop hotkey watch ended with the UI Automation helper; use the Stop button');
    }
  }
}
