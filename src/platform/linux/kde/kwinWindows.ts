import { toWindowInfo, type BridgeWindow } from '../bridgeWindow';
import type { WindowInfo, WindowPort } from '../../../desktop/ports/windowPort';
import type { DesktopBridge } from '../desktopBridge';

/** A window question through KWin's scripting takes 4-6 ms; this bounds a stuck KWin. */
const KWIN_TIMEOUT_MS = 3_000;

/**
 * Windows on KDE Plasma's Wayland session, as KWin knows them (bridgeKwinScript.ts): caption,
 * class, process, client area and stacking, topmost first. Asked through the desktop bridge,
 * which also places the accessibility tree with the same answers.
 */
export class KwinWindows implements WindowPort {
  constructor(private readonly bridge: DesktopBridge) {}

  async activeWindowId(): Promise<string | undefined> {
    const answer = await this.bridge.request('activeId', {}, { timeoutMs: KWIN_TIMEOUT_MS });
    return typeof answer.windowId === 'string' ? answer.windowId : undefined;
  }

  async activeWindow(): Promise<WindowInfo | undefined> {
    const answer = await this.bridge.request('active', {}, { timeoutMs: KWIN_TIMEOUT_MS });
    return answer.window ? toWindowInfo(answer.window as BridgeWindow) : undefined;
  }

  async listWindows(): Promise<WindowInfo[]> {
    const answer = await this.bridge.request('windows', {}, { timeoutMs: KWIN_TIMEOUT_MS });
    return (answer.windows as BridgeWindow[]).map(toWindowInfo);
  }

  async listPopups(): Promise<WindowInfo[]> {
    const answer = await this.bridge.request('popups', {}, { timeoutMs: KWIN_TIMEOUT_MS });
    return (answer.windows as BridgeWindow[]).map(toWindowInfo);
  }
}
