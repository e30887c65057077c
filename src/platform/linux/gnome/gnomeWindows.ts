import { clipBox, intersects, offsetBox, union, type BBox } from '../../../common/geometry';
import type { AccessibilityPort } from '../../../desktop/ports/accessibilityPort';
import type { ScreenPort } from '../../../desktop/ports/screenPort';
import type { WindowInfo, WindowPort } from '../../../desktop/ports/windowPort';
import type { TopLevel } from '../atspi/atspiAccessibility';
import { SHELL_APPS, windowKey } from './placedTree';
import type { WindowPlacer } from './windowPlacer';

// The windows of a GNOME Wayland session, as an ordinary client can know them: AT-SPI names the
// top-level windows and which is active (title, application, process); each one's box is its
// reported box moved by the place the placer keeps for it (a glance confirms it), found by
// reading the placed tree when not known yet. GNOME tells no stacking order: the active window is
// on top (GNOME raises it), and of the others only those that overlap no other one are listed.

export interface TopLevelSource {
  topLevels(activeOnly: boolean, signal?: AbortSignal): Promise<TopLevel[]>;
}

export class GnomeWindows implements WindowPort {
  constructor(
    private readonly tree: AccessibilityPort,
    private readonly screen: ScreenPort,
    private readonly source: TopLevelSource,
    private readonly placer: WindowPlacer,
  ) {}

  async activeWindow(): Promise<WindowInfo | undefined> {
    const [top] = await this.source.topLevels(true).catch(() => [] as TopLevel[]);
    if (!top) return undefined;
    const offset = await this.placer.knownOffset(windowKey(top));
    if (offset) return info(top, offset, this.placer.contentOf(windowKey(top)));
    // Placed by reading its tree; when it cannot be, its box is where its elements are.
    const elements = await this.tree.elements({ activeWindowOnly: true });
    const placed = await this.placer.knownOffset(windowKey(top));
    if (placed) return info(top, placed, this.placer.contentOf(windowKey(top)));
    const own = elements.filter((e) => windowKey(e) === windowKey(top));
    const bounds = own.length > 0 ? union(own.map((e) => e.bbox)) : { x: 0, y: 0, ...(await this.screen.size()) };
    return { ...info(top, { dx: 0, dy: 0 }), bounds };
  }

  async listWindows(): Promise<WindowInfo[]> {
    const tops = (await this.source.topLevels(false)).filter((top) => !SHELL_APPS.has(top.app));
    const offsets = await Promise.all(tops.map((top) => this.placer.knownOffset(windowKey(top))));
    const retry = await Promise.all(tops.map(async (top, i) => offsets[i] === undefined && !(await this.placer.failedRecently(windowKey(top)))));
    if (retry.some(Boolean)) {
      await this.tree.elements({ activeWindowOnly: false }); // places what can be placed
      for (const [i, top] of tops.entries()) offsets[i] ??= await this.placer.knownOffset(windowKey(top));
    }
    const placed = tops.flatMap((top, i) => (offsets[i] ? [info(top, offsets[i]!, this.placer.contentOf(windowKey(top)))] : []));
    const active = placed.filter((_, i) => tops[i]?.window.active);
    const listed = [...active];
    for (const window of placed) {
      if (listed.includes(window)) continue;
      // Which of two overlapping inactive windows is above cannot be told: neither is listed.
      const others = placed.filter((w) => w !== window && !active.includes(w));
      if (!others.some((w) => intersects(w.bounds, window.bounds))) listed.push(window);
    }
    return listed;
  }
}

/**
 * A window's box on the screen: where its elements are (its drawn part, a few pixels inside its
 * edges), else its reported box, which may hold shadow margins that overlap a neighbour.
 */
function info(top: TopLevel, offset: { dx: number; dy: number }, content?: BBox): WindowInfo {
  const reported = offsetBox(top.box, offset.dx, offset.dy);
  const drawn = content ? clipBox(offsetBox(content, offset.dx, offset.dy), reported) : undefined;
  return {
    title: top.window.name,
    appName: top.app,
    bounds: drawn ?? reported,
    ...(top.pid ? { pid: top.pid, id: `${top.pid}:${top.window.name}` } : {}),
    type: 'normal',
  };
}
