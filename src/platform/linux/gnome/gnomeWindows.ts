import type { BBox } from '../../../common/geometry';
import type { AccessibilityPort } from '../../../desktop/ports/accessibilityPort';
import type { ScreenPort } from '../../../desktop/ports/screenPort';
import type { WindowInfo, WindowPort } from '../../../desktop/ports/windowPort';
import type { TopLevel } from '../atspi/atspiAccessibility';
import { windowKey } from './placedTree';
import type { WindowPlacer } from './windowPlacer';

// The active window on GNOME Wayland, as an ordinary client can know it: AT-SPI says which
// window is active (title, application, process); its box is its reported box moved by the place
// the placer keeps for it (a glance confirms it), else where its placed elements are
// (placedTree.ts), or the whole screen when none could be placed.
export class GnomeWindows implements WindowPort {
  constructor(
    private readonly tree: AccessibilityPort,
    private readonly screen: ScreenPort,
    private readonly topLevels?: { activeTopLevel(): Promise<TopLevel | undefined> },
    private readonly placer?: WindowPlacer,
  ) {}

  async activeWindow(): Promise<WindowInfo | undefined> {
    const top = await this.topLevels?.activeTopLevel().catch(() => undefined);
    const offset = top && this.placer ? await this.placer.knownOffset(windowKey(top)) : undefined;
    if (top && offset) {
      return {
        title: top.window.name,
        appName: top.app,
        bounds: { x: top.box.x + offset.dx, y: top.box.y + offset.dy, width: top.box.width, height: top.box.height },
        ...(top.pid ? { pid: top.pid, id: `${top.pid}:${top.window.name}` } : {}),
        type: 'normal',
      };
    }
    return this.fromElements();
  }

  /** The slow way, which also places the window: from the active window's placed elements. */
  private async fromElements(): Promise<WindowInfo | undefined> {
    const elements = await this.tree.elements({ activeWindowOnly: true });
    let own = elements.filter((e) => e.window?.active && !e.popups?.length);
    if (own.length === 0) {
      // No window says it is active: only a lone window can be named as the person's.
      const windows = new Set(elements.map((e) => `${e.pid}\u0000${e.window?.name}`));
      if (windows.size !== 1) return undefined;
      own = elements;
    }
    const first = own[0];
    if (!first?.window) return undefined;
    const mine = own;
    const bounds = mine.length > 0 ? union(mine.map((e) => e.bbox)) : { x: 0, y: 0, ...(await this.screen.size()) };
    return {
      title: first.window.name,
      appName: first.app ?? '',
      bounds,
      ...(first.pid ? { pid: first.pid, id: `${first.pid}:${first.window.name}` } : {}),
      type: 'normal',
    };
  }
}

function union(boxes: readonly BBox[]): BBox {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}
