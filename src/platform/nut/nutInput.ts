import { errorMessage } from '../../common/errors';
import { sleep } from '../../common/timing';
import { canonicalKey, keystrokeFor } from '../../desktop/input/keys';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../../desktop/ports/inputPort';
import { loadNut, type NutModule } from './nutLoader';

type NutKey = NutModule['Key'][keyof NutModule['Key']];

/**
 * Mouse and keyboard through nut-js. Coordinates arrive in screen pixels and are divided by
 * the display scale (HiDPI). Typing works around nut-js's `type()`: shifted symbols go as
 * Shift + base key and text outside US ASCII is pasted from the clipboard, which is restored.
 */
export class NutInput implements InputPort {
  constructor(
    private readonly scaleFactor: () => Promise<number>,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  async move(to: Point): Promise<void> {
    const nut = await loadNut();
    await nut.mouse.setPosition(await this.toInput(to));
  }

  async position(): Promise<Point> {
    const nut = await loadNut();
    const at = await nut.mouse.getPosition();
    const scale = await this.scaleFactor();
    return { x: Math.round(at.x * scale), y: Math.round(at.y * scale) };
  }

  async click(at: Point, button: MouseButton, count: ClickCount, modifiers: readonly Modifier[] = []): Promise<void> {
    const nut = await loadNut();
    await nut.mouse.setPosition(await this.toInput(at));
    const b = toButton(nut, button);
    const times = count === true ? 2 : count === false ? 1 : count;
    await this.withModifiers(nut, modifiers, async () => {
      if (times === 2) await nut.mouse.doubleClick(b);
      else if (times === 1) await nut.mouse.click(b);
      else {
        // No triple click in nut-js: three quick press/release pairs at one spot, well inside
        // the toolkits' multi-click time.
        for (let i = 0; i < times; i++) {
          await nut.mouse.pressButton(b);
          await nut.mouse.releaseButton(b);
        }
      }
    });
  }

  drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    return this.dragAlong([from, to], button);
  }

  async dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    const first = path[0];
    if (!first || path.length < 2) throw new Error('a drag needs at least two points');
    const nut = await loadNut();
    const b = toButton(nut, button);
    let here = await this.toInput(first);
    await nut.mouse.setPosition(here);
    await nut.mouse.pressButton(b);
    try {
      // Intermediate points on each leg: many toolkits need motion events to start a drag.
      for (const point of path.slice(1)) {
        const next = await this.toInput(point);
        for (let i = 1; i <= 10; i++) {
          await nut.mouse.setPosition(new nut.Point(here.x + ((next.x - here.x) * i) / 10, here.y + ((next.y - here.y) * i) / 10));
        }
        here = next;
      }
    } finally {
      await nut.mouse.releaseButton(b);
    }
  }

  async mouseDown(button: MouseButton): Promise<void> {
    const nut = await loadNut();
    await nut.mouse.pressButton(toButton(nut, button));
  }

  async mouseUp(button: MouseButton): Promise<void> {
    const nut = await loadNut();
    await nut.mouse.releaseButton(toButton(nut, button));
  }

  async scroll(direction: ScrollDirection, amount: number, modifiers: readonly Modifier[] = []): Promise<void> {
    const nut = await loadNut();
    await this.withModifiers(nut, modifiers, () => this.wheel(nut, direction, amount));
  }

  private async wheel(nut: NutModule, direction: ScrollDirection, amount: number): Promise<void> {
    if (direction === 'up') await nut.mouse.scrollUp(amount);
    else if (direction === 'down') await nut.mouse.scrollDown(amount);
    // libnut's X11 backend sends button 7 (right) for scrollLeft and 6 for scrollRight; the
    // X convention is 6 = left, 7 = right, so on Linux the calls are swapped back.
    else if ((direction === 'left') !== (this.platform === 'linux')) await nut.mouse.scrollLeft(amount);
    else await nut.mouse.scrollRight(amount);
  }

  async typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    const nut = await loadNut();
    const chars = [...text];
    for (let i = 0; i < chars.length; ) {
      if (signal?.aborted) throw new Error('typing was cancelled');
      const stroke = keystrokeFor(chars[i]!);
      if (stroke) {
        await this.tap(nut, [...(stroke.shift ? [nut.Key.LeftShift] : []), this.keyCode(nut, stroke.key)]);
        i++;
      } else {
        let end = i;
        while (end < chars.length && !keystrokeFor(chars[end]!)) end++;
        await this.paste(nut, chars.slice(i, end).join(''));
        i = end;
      }
      if (delayMs > 0 && i < chars.length) await sleep(delayMs);
    }
  }

  async pressKey(combo: KeyCombo): Promise<void> {
    const nut = await loadNut();
    await this.tap(nut, [...combo.modifiers.map((m) => this.modifierCode(nut, m)), this.keyCode(nut, combo.key)]);
  }

  async holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    const nut = await loadNut();
    const keys = [...combo.modifiers.map((m) => this.modifierCode(nut, m)), this.keyCode(nut, combo.key)];
    await nut.keyboard.pressKey(...keys);
    try {
      await sleep(ms, signal);
    } finally {
      await nut.keyboard.releaseKey(...keys);
    }
  }

  isKnownKey(name: string): boolean {
    const canonical = canonicalKey(name);
    return canonical !== undefined && canonical in KEY_CODES;
  }

  /** The last key is the key; the ones before it are held as modifiers (libnut's convention for both calls). */
  private async tap(nut: NutModule, keys: NutKey[]): Promise<void> {
    await nut.keyboard.pressKey(...keys);
    await nut.keyboard.releaseKey(...keys);
  }

  /** Runs `action` with `modifiers` held; they are released whatever happens. */
  private async withModifiers(nut: NutModule, modifiers: readonly Modifier[], action: () => Promise<void>): Promise<void> {
    const keys = modifiers.map((m) => this.modifierCode(nut, m));
    if (keys.length) await nut.keyboard.pressKey(...keys);
    try {
      await action();
    } finally {
      if (keys.length) await nut.keyboard.releaseKey(...keys);
    }
  }

  private async paste(nut: NutModule, text: string): Promise<void> {
    let previous: string | undefined;
    try {
      previous = await nut.clipboard.getContent();
    } catch {
      previous = undefined; // an empty or non-text clipboard
    }
    try {
      await nut.clipboard.setContent(text);
    } catch (error) {
      throw new Error(`cannot type "${text}": the clipboard is not available (${errorMessage(error)})`, { cause: error });
    }
    await this.tap(nut, [this.modifierCode(nut, 'command'), nut.Key.V]);
    // Give the application time to read the clipboard before it is restored.
    await sleep(80);
    if (previous !== undefined) await nut.clipboard.setContent(previous).catch(() => undefined);
  }

  private modifierCode(nut: NutModule, modifier: Modifier): NutKey {
    switch (modifier) {
      case 'command':
        return this.platform === 'darwin' ? nut.Key.LeftCmd : nut.Key.LeftControl;
      case 'ctrl':
        return nut.Key.LeftControl;
      case 'alt':
        return nut.Key.LeftAlt;
      case 'shift':
        return nut.Key.LeftShift;
      case 'super':
        return this.platform === 'darwin' ? nut.Key.LeftCmd : nut.Key.LeftSuper;
    }
  }

  private keyCode(nut: NutModule, name: string): NutKey {
    const keyName = KEY_CODES[canonicalKey(name) ?? ''];
    if (!keyName) throw new Error(`"${name}" is not a known key`);
    return nut.Key[keyName];
  }

  private async toInput(p: Point): Promise<InstanceType<NutModule['Point']>> {
    const nut = await loadNut();
    const scale = await this.scaleFactor();
    return new nut.Point(Math.round(p.x / scale), Math.round(p.y / scale));
  }
}

/** Canonical key names → nut-js Key names. `enter` is Return, not keypad Enter. */
const KEY_CODES: Record<string, keyof NutModule['Key']> = {
  enter: 'Return', tab: 'Tab', escape: 'Escape', space: 'Space', backspace: 'Backspace', delete: 'Delete',
  insert: 'Insert', home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown', up: 'Up', down: 'Down',
  left: 'Left', right: 'Right', capslock: 'CapsLock', printscreen: 'Print', menu: 'Menu',
  // Modifiers pressed alone (e.g. super opens the launcher; shift held for a range).
  shift: 'LeftShift', ctrl: 'LeftControl', alt: 'LeftAlt', super: 'LeftSuper',
  minus: 'Minus', equal: 'Equal', comma: 'Comma', period: 'Period', slash: 'Slash', backslash: 'Backslash',
  semicolon: 'Semicolon', quote: 'Quote', grave: 'Grave', leftbracket: 'LeftBracket', rightbracket: 'RightBracket',
  ...Object.fromEntries('abcdefghijklmnopqrstuvwxyz'.split('').map((c) => [c, c.toUpperCase() as keyof NutModule['Key']])),
  ...Object.fromEntries('0123456789'.split('').map((d) => [d, `Num${d}` as keyof NutModule['Key']])),
  ...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`f${i + 1}`, `F${i + 1}` as keyof NutModule['Key']])),
};

function toButton(nut: NutModule, button: MouseButton): NutModule['Button'][keyof NutModule['Button']] {
  return button === 'right' ? nut.Button.RIGHT : button === 'middle' ? nut.Button.MIDDLE : nut.Button.LEFT;
}
