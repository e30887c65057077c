import { describeCombo } from '../../desktop/input/keys';
import type { Point } from '../../desktop/ports/inputPort';
import type {
  InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch, PersonActivity, WatchCapabilities,
} from '../../desktop/ports/interruptPort';
import { MacHelper, type MacHelperOptions } from './macHelper';
import { flagsMatch, macFlags, macKeyCode } from './macKeyCodes';

// macOS: a helper of its own (a tree walk must not delay the stop) is polled for the HID event
// counters (CGEventSourceCounterForEventType: the person's key and button presses), the pointer
// and the stop hotkey's key state (CGEventSourceKeyState). JXA cannot run the CFRunLoop an event
// tap or NSEvent's global monitor needs while it reads stdin, so the hotkey is polled: a press
// shorter than the poll interval can be missed (a deliberate press lasts ~100 ms; we poll at 40).

const POLL_MS = 40;
const CORNER_POINTS = 2;

interface InputSample {
  keys: number;
  buttons: number;
  pointer: Point;
  down: boolean[];
  flags: number;
}

export class MacInterrupts implements InterruptPort {
  constructor(
    private readonly helperOptions: MacHelperOptions = {},
    private readonly scale: () => Promise<number> = () => Promise.resolve(1),
    private readonly pollMs = POLL_MS,
  ) {}

  async watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch> {
    const helper = new MacHelper({ ...this.helperOptions, idleMs: 0 });
    try {
      const [scale, screens, first] = await Promise.all([this.scale(), helper.request('screens'), helper.request('input', { keyCodes: [] })]);
      const main = (screens.screens as Array<{ width: number; height: number; main: boolean }> | undefined)?.find((s) => s.main);
      return new MacWatch(helper, options, handlers, scale, main ? { width: main.width, height: main.height } : undefined, sample(first), this.pollMs);
    } catch (error) {
      await helper.dispose();
      throw new Error(`the stop hotkey and takeover watch cannot start on macOS: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}

class MacWatch implements InterruptWatch {
  readonly capabilities: WatchCapabilities;
  private readonly keyCode: number | undefined;
  private readonly flags: number;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private base: InputSample;
  private last: InputSample;
  private left: Point;
  private hotkeyHeld = false;
  private stopped = false;

  constructor(
    private readonly helper: MacHelper,
    private readonly options: InterruptOptions,
    private readonly handlers: InterruptHandlers,
    private readonly scale: number,
    private readonly screen: { width: number; height: number } | undefined,
    first: InputSample,
    private readonly pollMs: number,
  ) {
    this.base = first;
    this.last = first;
    this.left = first.pointer;
    const combo = options.stopHotkey;
    this.keyCode = combo ? macKeyCode(combo.key) : undefined;
    this.flags = combo ? macFlags(combo) : 0;
    if (combo && this.keyCode === undefined) handlers.onWarning(`the stop hotkey ${describeCombo(combo)} has a key macOS GAI cannot watch; choose letters, digits, F1–F12 or Escape`);
    const corner = options.failSafeCorner && this.screen !== undefined;
    if (options.failSafeCorner && !corner) handlers.onWarning('the fail-safe corner is off: the main display\'s size is unknown');
    this.capabilities = { hotkey: this.keyCode !== undefined, corner, input: options.watchInput };
    this.schedule();
  }

  async beginOwnInput(_points: Point[]): Promise<PersonActivity> {
    const activity = await this.activity();
    return activity;
  }

  async endOwnInput(): Promise<Point | undefined> {
    // GAI's own posted events reach the HID counters too: what it sent is the new baseline.
    const now = await this.poll();
    if (!now) return undefined;
    this.base = now;
    this.left = now.pointer;
    return this.toPixels(now.pointer);
  }

  async activity(): Promise<PersonActivity> {
    const now = (await this.poll()) ?? this.last;
    const moved = Math.abs(now.pointer.x - this.left.x) > 1 || Math.abs(now.pointer.y - this.left.y) > 1;
    return {
      keys: this.options.watchInput ? Math.max(0, now.keys - this.base.keys) : 0,
      buttons: this.options.watchInput ? Math.max(0, now.buttons - this.base.buttons) : 0,
      moved: this.options.watchInput && moved,
      pointer: this.toPixels(now.pointer),
      left: this.toPixels(this.left),
    };
  }

  async reset(): Promise<void> {
    const now = await this.poll();
    if (!now) return;
    this.base = now;
    this.left = now.pointer;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.helper.dispose();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.poll().then(() => this.schedule()), this.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<InputSample | undefined> {
    if (this.closed) return undefined;
    try {
      const now = sample(await this.helper.request('input', { keyCodes: this.keyCode === undefined ? [] : [this.keyCode] }));
      this.last = now;
      this.check(now);
      return now;
    } catch (error) {
      if (this.closed) return undefined;
      this.handlers.onWarning(`the macOS stop hotkey watch failed (${error instanceof Error ? error.message : String(error)}); use the Stop button`);
      this.closed = true;
      clearTimeout(this.timer);
      return undefined;
    }
  }

  private check(now: InputSample): void {
    if (this.stopped) return;
    const held = this.keyCode !== undefined && now.down[0] === true && flagsMatch(now.flags, this.flags);
    if (held && !this.hotkeyHeld) return this.stop('hotkey');
    this.hotkeyHeld = held;
    if (this.capabilities.corner && this.screen && inCorner(now.pointer, this.screen)) this.stop('corner');
  }

  private stop(trigger: 'hotkey' | 'corner'): void {
    this.stopped = true;
    this.handlers.onStop(trigger, { seenAt: Number(process.hrtime.bigint() / 1_000_000n) });
  }

  private toPixels(p: Point): Point {
    return { x: Math.round(p.x * this.scale), y: Math.round(p.y * this.scale) };
  }
}

function inCorner(p: Point, screen: { width: number; height: number }): boolean {
  const nearX = p.x <= CORNER_POINTS || p.x >= screen.width - 1 - CORNER_POINTS;
  const nearY = p.y <= CORNER_POINTS || p.y >= screen.height - 1 - CORNER_POINTS;
  return nearX && nearY;
}

function sample(answer: Record<string, unknown>): InputSample {
  const pointer = answer.pointer as Point | undefined;
  return {
    keys: Number(answer.keys ?? 0),
    buttons: Number(answer.buttons ?? 0),
    pointer: pointer ?? { x: 0, y: 0 },
    down: Array.isArray(answer.down) ? (answer.down as boolean[]) : [],
    flags: Number(answer.flags ?? 0),
  };
}
