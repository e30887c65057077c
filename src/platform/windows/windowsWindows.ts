import type { WindowInfo, WindowPort } from '../../desktop/ports/windowPort';
import type { PhysicalPixels } from './physicalPixels';
import type { UiaHelper } from './uiaHelper';

// Windows' top-level windows through the helper: EnumWindows in z-order (topmost first), the
// visible, uncloaked ones with a title, bounded by DWM's extended frame (the window as drawn,
// without the invisible resize border), named by the executable without ".exe".

interface RawWindow {
  id?: unknown;
  title?: unknown;
  app?: unknown;
  pid?: unknown;
  type?: unknown;
  x?: unknown;
  y?: unknown;
  width?: unknown;
  height?: unknown;
}

export class WindowsWindows implements WindowPort {
  constructor(
    private readonly helper: UiaHelper,
    private readonly pixels: PhysicalPixels,
  ) {}

  async activeWindow(): Promise<WindowInfo | undefined> {
    const answer = await this.helper.request('active');
    return answer.window ? this.info(answer.window as RawWindow) : undefined;
  }

  async activeWindowId(): Promise<string | undefined> {
    const answer = await this.helper.request('activeId');
    return typeof answer.windowId === 'string' ? answer.windowId : undefined;
  }

  async listWindows(): Promise<WindowInfo[]> {
    return (await this.all()).filter((w) => w.type !== 'popup_menu');
  }

  /** Open menus (the #32768 window class): drawn above the windows, each named by the program that owns it. */
  async listPopups(): Promise<WindowInfo[]> {
    return (await this.all()).filter((w) => w.type === 'popup_menu');
  }

  private async all(): Promise<WindowInfo[]> {
    const answer = await this.helper.request('windows');
    if (!Array.isArray(answer.windows)) throw new Error('the UI Automation helper answered "windows" without a list');
    return Promise.all((answer.windows as RawWindow[]).map((raw) => this.info(raw)));
  }

  private async info(raw: RawWindow): Promise<WindowInfo> {
    const title = typeof raw.title === 'string' ? raw.title : '';
    const app = typeof raw.app === 'string' && raw.app ? raw.app : title; // a process we may not query (elevated): its title
    return {
      title,
      appName: app,
      bounds: await this.pixels.box({ x: num(raw.x), y: num(raw.y), width: num(raw.width), height: num(raw.height) }),
      ...(typeof raw.id === 'string' ? { id: raw.id } : {}),
      ...(typeof raw.pid === 'number' && raw.pid > 0 ? { pid: raw.pid } : {}),
      ...(typeof raw.type === 'string' ? { type: raw.type } : {}),
    };
  }
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
