import { sleep } from '../../../common/timing';
import { canonicalKey } from '../../../desktop/input/keys';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../../../desktop/ports/inputPort';
import { xKeysym } from '../xKeysyms';
import type { LayoutSource } from './grimScreen';
import type { WaylandHelper } from './waylandHelper';

// Mouse and keyboard on a wlroots compositor through its virtual-pointer and virtual-keyboard
// protocols (wlrInputScript.ts), held on the seat by the long-lived helper (wlrHelper.ts).


type HelperMods = Array<'shift' | 'ctrl' | 'alt' | 'super'>;

export class WaylandInput implements InputPort {
  /** Where GAI left the pointer: a Wayland client cannot ask where the pointer is. */
  private at: Point | undefined;

  constructor(
    private readonly helper: WaylandHelper,
    private readonly outputs: LayoutSource,
  ) {}

  async move(to: Point): Promise<void> {
    await this.moveTo(to, false);
  }

  /** `follows`: more input is sent at once, whose answer says this move is in too (GNOME's helper then need not wait for it). */
  private async moveTo(to: Point, follows: boolean): Promise<void> {
    const { width, height, scale } = await this.outputs.layout();
    await this.send({ cmd: 'move', x: Math.round(to.x / scale), y: Math.round(to.y / scale), width, height, ...(follows ? { follows } : {}) });
    this.at = { x: to.x, y: to.y };
  }

  /** Where GAI put the pointer last (the compositor does not tell clients); the screen's centre before that. */
  async position(): Promise<Point> {
    if (this.at) return this.at;
    const { width, height, scale } = await this.outputs.layout();
    return { x: Math.round((width * scale) / 2), y: Math.round((height * scale) / 2) };
  }

  async click(at: Point, button: MouseButton, count: ClickCount, modifiers: readonly Modifier[] = []): Promise<void> {
    const times = count === true ? 2 : count === false ? 1 : count;
    await this.moveTo(at, true);
    await this.withModifiers(modifiers, async () => {
      for (let i = 0; i < times; i++) {
        await this.send({ cmd: 'button', button, pressed: true, follows: true });
        await this.send({ cmd: 'button', button, pressed: false });
      }
    });
  }

  drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    return this.dragAlong([from, to], button);
  }

  async dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    const first = path[0];
    if (!first || path.length < 2) throw new Error('a drag needs at least two points');
    await this.move(first);
    await this.send({ cmd: 'button', button, pressed: true });
    try {
      let here = first;
      // Motion on the way: toolkits start a drag only after the pointer moved a few pixels.
      for (const next of path.slice(1)) {
        for (let i = 1; i <= 10; i++) await this.move({ x: here.x + ((next.x - here.x) * i) / 10, y: here.y + ((next.y - here.y) * i) / 10 });
        here = next;
      }
    } finally {
      await this.send({ cmd: 'button', button, pressed: false });
    }
  }

  async mouseDown(button: MouseButton): Promise<void> {
    await this.send({ cmd: 'button', button, pressed: true });
  }

  async mouseUp(button: MouseButton): Promise<void> {
    await this.send({ cmd: 'button', button, pressed: false });
  }

  async scroll(direction: ScrollDirection, amount: number, modifiers: readonly Modifier[] = []): Promise<void> {
    const axis = direction === 'up' || direction === 'down' ? 0 : 1;
    const sign = direction === 'up' || direction === 'left' ? -1 : 1;
    await this.withModifiers(modifiers, () => this.send({ cmd: 'scroll', axis, steps: sign * Math.max(1, Math.round(amount)) }));
  }

  async typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    // One keysym per character, as wtype types: any character, whatever the person's layout.
    const keysyms = [...text].map((char) => (char === '\n' ? 'Return' : char === '\t' ? 'Tab' : `U${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`));
    if (delayMs <= 0) return this.send({ cmd: 'keys', keysyms });
    for (const keysym of keysyms) {
      if (signal?.aborted) return;
      await this.send({ cmd: 'keys', keysyms: [keysym] });
      await sleep(delayMs);
    }
  }

  async pressKey(combo: KeyCombo): Promise<void> {
    await this.send({ cmd: 'keys', keysyms: [this.keysym(combo.key)], mods: helperMods(combo.modifiers) });
  }

  async holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    // The virtual keyboard has no "hold": the modifiers stay down for the time, then the key.
    await this.send({ cmd: 'mods', mods: helperMods(combo.modifiers) });
    try {
      await sleep(ms, signal).catch(() => undefined);
    } finally {
      await this.send({ cmd: 'mods', mods: [] });
    }
    if (!signal?.aborted) await this.pressKey({ modifiers: [], key: combo.key });
  }

  isKnownKey(name: string): boolean {
    return canonicalKey(name) !== undefined;
  }

  private keysym(key: string): string {
    return xKeysym(key);
  }

  private async withModifiers(modifiers: readonly Modifier[], action: () => Promise<void>): Promise<void> {
    if (modifiers.length === 0) return action();
    await this.send({ cmd: 'mods', mods: helperMods(modifiers) });
    try {
      await action();
    } finally {
      await this.send({ cmd: 'mods', mods: [] });
    }
  }

  private async send(request: Record<string, unknown>): Promise<void> {
    await this.helper.request(request);
  }
}

function helperMods(modifiers: readonly Modifier[]): HelperMods {
  return [...new Set(modifiers.map((m) => (m === 'command' ? 'ctrl' : m)))] as HelperMods;
}
