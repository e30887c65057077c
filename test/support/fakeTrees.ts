import type { AccessibilityPort, AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';

// Stand-ins for the window list and the accessibility tree of a desktop with several windows,
// for the target locator's tests.

/** Windows in stacking order, topmost first; the topmost is the active one. */
export class StackedWindows implements WindowPort {
  constructor(private readonly windows: WindowInfo[]) {}
  async activeWindow(): Promise<WindowInfo | undefined> {
    return this.windows[0];
  }
  async listWindows(): Promise<WindowInfo[]> {
    return this.windows;
  }
}

/** A tree that answers per window: the active window's elements are those marked active. */
export class WindowTree implements AccessibilityPort {
  readonly name = 'window-tree';
  constructor(private readonly all: AccessibleElement[]) {}
  async available(): Promise<boolean> {
    return true;
  }
  async elements(options: { activeWindowOnly?: boolean } = {}): Promise<AccessibleElement[]> {
    return options.activeWindowOnly === false ? this.all : this.all.filter((e) => e.window?.active);
  }
}
