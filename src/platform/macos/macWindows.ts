import type { BBox } from '../../common/geometry';
import type { WindowInfo, WindowPort } from '../../desktop/ports/windowPort';
import type { MacHelper } from './macHelper';

// Windows from CGWindowListCopyWindowInfo, front to back. Quartz gives frames in points; nut-js
// grabs the screen in pixels and GAI's input divides by the scale itself (NutScreen/NutInput), so
// every frame is multiplied by the main display's backing scale (2 on Retina) here.

/** A macOS window: the app's bundle id is what per-app rules should key on (names are localized). */
export interface MacWindowInfo extends WindowInfo {
  /** Quartz's window level: 0 normal windows, 101 pop-up menus, 3 floating panels. */
  layer: number;
}

interface RawWindow {
  id: string;
  title: string;
  pid: number;
  layer: number;
  owner: string;
  appName: string;
  bundleId?: string;
  bounds: BBox;
}

/** Window Server's own surfaces (menu bar, Dock, Control Center) that cover no app. */
const SYSTEM_OWNERS = new Set(['Window Server', 'Dock', 'Control Center', 'Notification Center', 'SystemUIServer']);
const POPUP_LAYERS = new Set([3, 8, 101]); // floating, modal panel, pop-up menu

export class MacWindows implements WindowPort {
  constructor(
    private readonly helper: MacHelper,
    /** Screen pixels per point: the main display's backing scale (nut-js grabs that display). */
    private readonly scale: () => Promise<number>,
  ) {}

  async activeWindow(): Promise<MacWindowInfo | undefined> {
    const { windows, frontPid } = await this.read();
    return windows.find((w) => w.layer === 0 && w.pid === frontPid);
  }

  async listWindows(): Promise<MacWindowInfo[]> {
    return (await this.read()).windows.filter((w) => w.layer === 0);
  }

  async listPopups(): Promise<MacWindowInfo[]> {
    return (await this.read()).windows.filter((w) => POPUP_LAYERS.has(w.layer));
  }

  private async read(): Promise<{ windows: MacWindowInfo[]; frontPid: number }> {
    const [answer, scale] = await Promise.all([this.helper.request('windows'), this.scale()]);
    const raw = Array.isArray(answer.windows) ? (answer.windows as RawWindow[]) : [];
    const windows = raw
      .filter((w) => !SYSTEM_OWNERS.has(w.owner) && w.bounds.width > 1 && w.bounds.height > 1)
      .map((w): MacWindowInfo => ({
        id: w.id,
        title: w.title,
        appName: w.appName || w.owner,
        ...(w.bundleId ? { bundleId: w.bundleId } : {}),
        pid: w.pid,
        layer: w.layer,
        type: w.layer === 101 ? 'popup_menu' : w.layer === 0 ? 'normal' : 'utility',
        bounds: toPixels(w.bounds, scale),
      }));
    return { windows, frontPid: typeof answer.frontPid === 'number' ? answer.frontPid : -1 };
  }
}

export function toPixels(box: BBox, scale: number): BBox {
  return { x: Math.round(box.x * scale), y: Math.round(box.y * scale), width: Math.round(box.width * scale), height: Math.round(box.height * scale) };
}

/** The main display's scale from the helper (NSScreen.backingScaleFactor of the display holding the menu bar). */
export async function mainDisplayScale(helper: MacHelper): Promise<number> {
  const answer = await helper.request('screens');
  const screens = Array.isArray(answer.screens) ? (answer.screens as Array<{ scale: number; main: boolean }>) : [];
  const main = screens.find((s) => s.main);
  if (!main || !(main.scale > 0)) throw new Error('the macOS helper reported no main display, so its scale (Retina or not) is unknown');
  return main.scale;
}
