// Mouse and keyboard on an X display other than this process's own, through xdotool (XTEST) with
// that display in its environment: GAI's own desktop seen from the VS Code extension host, whose
// in-process libnut holds the person's display (or none). One short xdotool run per input.
import { execFile } from 'node:child_process';
import { DesktopUnavailableError, errorMessage } from '../../../common/errors';
import { sleep } from '../../../common/timing';
import { canonicalKey } from '../../../desktop/input/keys';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../../../desktop/ports/inputPort';
import { xKeysym } from '../xKeysyms';

const BUTTONS: Record<MouseButton, string> = { left: '1', middle: '2', right: '3' };
const WHEEL: Record<ScrollDirection, string> = { up: '4', down: '5', left: '6', right: '7' };
/** Typed in pieces, so a stop ends typing within a piece. */
const TYPE_PIECE = 16;
const REMAP_DELAY_MS = 30;

export class XdotoolInput implements InputPort {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async move(to: Point): Promise<void> {
    await this.run(['mousemove', String(Math.round(to.x)), String(Math.round(to.y))]);
  }

  async position(): Promise<Point> {
    const out = await this.run(['getmouselocation', '--shell']);
    const x = /X=(-?\d+)/.exec(out);
    const y = /Y=(-?\d+)/.exec(out);
    if (!x || !y) throw new DesktopUnavailableError(`xdotool did not say where the pointer is: ${out.trim().slice(0, 120)}`, 'check GAI\'s own desktop with gai desktop status');
    return { x: Number(x[1]), y: Number(y[1]) };
  }

  async click(at: Point, button: MouseButton, count: ClickCount, modifiers: readonly Modifier[] = []): Promise<void> {
    const times = count === true ? 2 : count === false ? 1 : count;
    const mods = modifierKeysyms(modifiers);
    // One run: the modifiers are released in it whatever the click did.
    await this.run([
      'mousemove', String(Math.round(at.x)), String(Math.round(at.y)),
      ...(mods.length ? ['keydown', mods.join('+')] : []),
      'click', '--repeat', String(times), '--delay', '40', BUTTONS[button],
      ...(mods.length ? ['keyup', mods.join('+')] : []),
    ]);
  }

  drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    return this.dragAlong([from, to], button);
  }

  async dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    const first = path[0];
    if (!first || path.length < 2) throw new Error('a drag needs at least two points');
    // Motion on the way: toolkits start a drag only after the pointer moved a few pixels.
    const moves: string[] = [];
    let here = first;
    for (const next of path.slice(1)) {
      for (let i = 1; i <= 10; i++) moves.push('mousemove', String(Math.round(here.x + ((next.x - here.x) * i) / 10)), String(Math.round(here.y + ((next.y - here.y) * i) / 10)));
      here = next;
    }
    await this.run(['mousemove', String(Math.round(first.x)), String(Math.round(first.y)), 'mousedown', BUTTONS[button], ...moves, 'mouseup', BUTTONS[button]]);
  }

  async mouseDown(button: MouseButton): Promise<void> {
    await this.run(['mousedown', BUTTONS[button]]);
  }

  async mouseUp(button: MouseButton): Promise<void> {
    await this.run(['mouseup', BUTTONS[button]]);
  }

  async scroll(direction: ScrollDirection, amount: number, modifiers: readonly Modifier[] = []): Promise<void> {
    const mods = modifierKeysyms(modifiers);
    await this.run([
      ...(mods.length ? ['keydown', mods.join('+')] : []),
      'click', '--repeat', String(Math.max(1, Math.round(amount))), '--delay', '20', WHEEL[direction],
      ...(mods.length ? ['keyup', mods.join('+')] : []),
    ]);
  }

  async typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    const chars = [...text];
    for (let i = 0; i < chars.length; i += TYPE_PIECE) {
      if (signal?.aborted) return;
      const piece = chars.slice(i, i + TYPE_PIECE).join('');
      // A character off the keyboard map is typed through a key xdotool remaps first: without a
      // pause the app reads the key before it learns the new map (Tk then sees "??").
      const delay = /[^\x20-\x7e\n\t]/.test(piece) ? Math.max(delayMs, REMAP_DELAY_MS) : delayMs;
      // Through stdin, never argv: what is typed may be a secret, and argv is visible to every user.
      await this.run(['type', '--delay', String(Math.max(0, Math.round(delay))), '--file', '-'], piece);
    }
  }

  async pressKey(combo: KeyCombo): Promise<void> {
    await this.run(['key', comboText(combo)]);
  }

  async holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    const keys = comboText(combo);
    await this.run(['keydown', keys]);
    try {
      await sleep(ms, signal).catch(() => undefined);
    } finally {
      await this.run(['keyup', keys]);
    }
  }

  isKnownKey(name: string): boolean {
    return canonicalKey(name) !== undefined;
  }

  private run(args: string[], stdin?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile('xdotool', args, { env: this.env, timeout: 15_000 }, (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(
          new DesktopUnavailableError(
            missing ? 'xdotool is not installed: GAI sends input to its own desktop through it' : `input to ${this.env.DISPLAY ?? 'the display'} failed: ${(stderr || errorMessage(error)).trim().slice(0, 200)}`,
            missing ? 'install it: gai doctor --fix (Debian/Ubuntu: apt install xdotool)' : 'check GAI\'s own desktop with gai desktop status',
          ),
        );
      });
      // xdotool may be done (or gone) before its empty stdin is closed: the EPIPE says nothing the exit does not.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(stdin ?? '');
    });
  }
}

function modifierKeysyms(modifiers: readonly Modifier[]): string[] {
  return [...new Set(modifiers.map((m) => (m === 'command' ? 'ctrl' : m)))].map(xKeysym);
}

function comboText(combo: KeyCombo): string {
  return [...modifierKeysyms(combo.modifiers), xKeysym(combo.key)].join('+');
}
