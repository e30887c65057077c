import type { WindowInfo, WindowPort } from '../../../desktop/ports/windowPort';
import { swayViews, type SwayIpc, type SwayNode } from './swayIpc';

/**
 * Windows on sway, from its tree: the only place a Wayland client can learn where other
 * windows are. sway keeps no global stacking order; floating windows are drawn above tiled
 * ones and the focused one above its kind, which is the order given here.
 */
export class SwayWindows implements WindowPort {
  /** The tree asked for and not answered yet: questions asked together (a click asks for the window list and the active window at once) share it. */
  private asking: Promise<SwayNode> | undefined;

  constructor(private readonly ipc: SwayIpc) {}

  private tree(): Promise<SwayNode> {
    this.asking ??= this.ipc.tree().finally(() => (this.asking = undefined));
    return this.asking;
  }

  async activeWindow(): Promise<WindowInfo | undefined> {
    const focused = swayViews(await this.tree()).find((view) => view.focused);
    return focused ? toWindow(focused) : undefined;
  }

  async activeWindowId(): Promise<string | undefined> {
    return (await this.activeWindow())?.id;
  }

  async listWindows(): Promise<WindowInfo[]> {
    const views = swayViews(await this.tree()).filter((view) => view.visible !== false);
    const rank = (view: SwayNode): number => (view.type === 'floating_con' ? 0 : 2) + (view.focused ? 0 : 1);
    return views.sort((a, b) => rank(a) - rank(b)).map(toWindow);
  }
}

function toWindow(view: SwayNode): WindowInfo {
  const inner = view.window_rect ?? { x: 0, y: 0, width: view.rect.width, height: view.rect.height };
  return {
    title: view.name ?? view.window_properties?.title ?? '',
    appName: view.app_id ?? view.window_properties?.class ?? '',
    bounds: { x: view.rect.x + inner.x, y: view.rect.y + inner.y, width: inner.width, height: inner.height },
    id: String(view.id),
    ...(view.pid !== undefined ? { pid: view.pid } : {}),
    // sway floats dialogs and fixed-size windows; what a floating window is, it does not say.
    ...(view.type === 'floating_con' ? {} : { type: 'normal' }),
  };
}
