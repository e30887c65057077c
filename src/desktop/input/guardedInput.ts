import { AsyncLocalStorage } from 'node:async_hooks';
import type { Desktop } from '../ports/desktop';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../ports/inputPort';
import type { WindowInfo, WindowPort } from '../ports/windowPort';
import { InputRefusedError } from './watchedInput';

// The last line of defence of the per-app permission: whatever a tool does, input sent while a
// guarded call runs reaches only windows the person allowed. A pointer action is judged by the
// window under its point, keys and text by the focused window (the one that receives them),
// looked up right before the input is sent.

/** How input reaches a window: at a point of it, or as keys to the focused window. */
export type InputWay = 'pointer' | 'keys';

/** What a guarded call allows; undefined from `refusal`: the input may go there. */
export interface InputPermission {
  /** `window` undefined: the point is on no window (the desktop), or no window has the focus. */
  refusal(window: WindowInfo | undefined, way: InputWay): Promise<string | undefined>;
}

/**
 * The permission of the call running now, carried through its asynchronous work: a guard runs
 * the tool inside `run`, and the input port asks `current()`. Outside any guarded call (the
 * person's own commands), there is none and input is not judged.
 */
export class InputPermissionScope {
  private readonly storage = new AsyncLocalStorage<InputPermission>();

  run<T>(permission: InputPermission, work: () => Promise<T>): Promise<T> {
    return this.storage.run(permission, work);
  }

  current(): InputPermission | undefined {
    return this.storage.getStore();
  }
}

/**
 * The topmost window holding each point (client area), or undefined there; one lookup for all.
 * An open menu is above every managed window, so it answers first, as its owner's: a menu of an
 * allowed app that hangs over another app's window is that allowed app's.
 */
export async function windowsAtPoints(windows: WindowPort, points: readonly Point[]): Promise<Array<WindowInfo | undefined>> {
  if (points.length === 0) return [];
  if (windows.listWindows) {
    const [popups, listed] = await Promise.all([
      windows.listPopups ? windows.listPopups().catch(() => []) : Promise.resolve([]),
      windows.listWindows(),
    ]);
    const stack = [...popups, ...listed].filter((w) => w.bounds.width > 0 && w.bounds.height > 0);
    return points.map((p) => stack.find((w) => holds(w, p)));
  }
  // Without a stacking list only the active window is known: a point elsewhere is judged by it.
  const active = await windows.activeWindow();
  return points.map(() => active);
}

function holds(window: WindowInfo, point: Point): boolean {
  const { x, y, width, height } = window.bounds;
  return point.x >= x && point.y >= y && point.x < x + width && point.y < y + height;
}

/**
 * Decorates an InputPort: under a guarded call, every input is checked against the windows it
 * reaches before it is sent, and refused (InputRefusedError) when one is not allowed. Releasing a
 * button is never refused: it gives the pointer back rather than acting.
 */
export class GuardedInput implements InputPort {
  constructor(
    private readonly inner: InputPort,
    private readonly windows: WindowPort,
    private readonly scope: InputPermissionScope,
  ) {}

  async move(to: Point): Promise<void> {
    await this.checkPoints([to]);
    return this.inner.move(to);
  }

  position(): Promise<Point> {
    return this.inner.position();
  }

  async click(at: Point, button: MouseButton, count: ClickCount, modifiers?: readonly Modifier[]): Promise<void> {
    await this.checkPoints([at]);
    return this.inner.click(at, button, count, modifiers);
  }

  async drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    await this.checkPoints([from, to]);
    return this.inner.drag(from, to, button);
  }

  async dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    await this.checkPoints(path);
    return this.inner.dragAlong(path, button);
  }

  async mouseDown(button: MouseButton): Promise<void> {
    await this.checkPointer();
    return this.inner.mouseDown(button);
  }

  mouseUp(button: MouseButton): Promise<void> {
    return this.inner.mouseUp(button);
  }

  /** The wheel turns whatever is under the pointer. */
  async scroll(direction: ScrollDirection, amount: number, modifiers?: readonly Modifier[]): Promise<void> {
    await this.checkPointer();
    return this.inner.scroll(direction, amount, modifiers);
  }

  async typeText(text: string, delayMs: number, signal?: AbortSignal): Promise<void> {
    await this.checkKeys();
    return this.inner.typeText(text, delayMs, signal);
  }

  async pressKey(combo: KeyCombo): Promise<void> {
    await this.checkKeys();
    return this.inner.pressKey(combo);
  }

  async holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    await this.checkKeys();
    return this.inner.holdKey(combo, ms, signal);
  }

  isKnownKey(name: string): boolean {
    return this.inner.isKnownKey(name);
  }

  private async checkPointer(): Promise<void> {
    if (!this.scope.current()) return;
    await this.checkPoints([await this.inner.position()]);
  }

  private async checkPoints(points: readonly Point[]): Promise<void> {
    const permission = this.scope.current();
    if (!permission) return;
    const found = await this.lookUp(() => windowsAtPoints(this.windows, points));
    for (const window of unique(found)) await this.judge(permission, window, 'pointer');
  }

  private async checkKeys(): Promise<void> {
    const permission = this.scope.current();
    if (!permission) return;
    const focused = await this.lookUp(() => this.windows.activeWindow());
    await this.judge(permission, focused, 'keys');
  }

  private async judge(permission: InputPermission, window: WindowInfo | undefined, way: InputWay): Promise<void> {
    const refusal = await permission.refusal(window, way);
    if (refusal !== undefined) throw new InputRefusedError(refusal);
  }

  /** A window lookup that fails refuses the input: not knowing where it lands is no permission. */
  private async lookUp<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw new InputRefusedError(`could not tell which window the input reaches (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}

function unique(windows: Array<WindowInfo | undefined>): Array<WindowInfo | undefined> {
  const seen = new Set<string>();
  return windows.filter((w) => {
    const key = w ? (w.id ?? `${w.appName}\u0000${w.title}`) : '';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The desktop with its input judged under `scope` (what the composition roots build). */
export function withGuardedInput(desktop: Desktop, scope: InputPermissionScope): Desktop {
  return { ...desktop, input: new GuardedInput(desktop.input, desktop.windows, scope) };
}
