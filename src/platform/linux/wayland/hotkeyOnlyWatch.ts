import type { Point } from '../../../desktop/ports/inputPort';
import type { InterruptWatch, PersonActivity } from '../../../desktop/ports/interruptPort';

/**
 * A watch on Wayland, where no program sees the person's input or the pointer: at most a stop
 * hotkey (a sway binding, a portal shortcut), never a takeover or a corner. Subclasses release
 * their hotkey in close().
 */
export abstract class HotkeyOnlyWatch implements InterruptWatch {
  readonly capabilities: InterruptWatch['capabilities'];

  protected constructor(hotkey: boolean) {
    this.capabilities = { hotkey, corner: false, input: false };
  }

  async beginOwnInput(points: Point[]): Promise<PersonActivity> {
    return nothing(points[0]);
  }

  async endOwnInput(): Promise<Point | undefined> {
    return undefined;
  }

  async activity(): Promise<PersonActivity> {
    return nothing(undefined);
  }

  async reset(): Promise<void> {}

  abstract close(): Promise<void>;
}

function nothing(at: Point | undefined): PersonActivity {
  const point = at ?? { x: 0, y: 0 };
  return { keys: 0, buttons: 0, moved: false, pointer: point, left: point };
}
