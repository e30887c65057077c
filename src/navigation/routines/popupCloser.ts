// A menu or completion list of the app left open (it was not open when the routine was recorded)
// takes the next click: GTK and most toolkits only close a popup on a click outside it. The replay
// closes it the way a person would, with Escape, and only when the popup and the focus are the
// routine's app; anything else is a stop with the reason.
import { sleep } from '../../common/timing';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { WindowInfo } from '../../desktop/ports/windowPort';
import type { ExecuteOptions } from '../../runtime/toolRuntime';
import type { ToolCaller } from '../routes/pathReplayer';
import { sameApp } from './anchorFinder';

const CLOSE_WAIT_MS = 1_500;

/** Escape to the app, then waits for the popup to go; the problem in words when it is not done. */
export async function closePopup(
  popup: WindowInfo,
  app: string | undefined,
  deps: { services: DesktopServices; callTool: ToolCaller },
  signal: AbortSignal,
  approval: ExecuteOptions,
): Promise<string | undefined> {
  const { windows } = deps.services.desktop;
  if (!sameApp(popup.appName, app)) return `the open popup belongs to "${popup.appName}", not to "${app ?? 'the app'}", so it is left alone`;
  const active = await windows.activeWindow().catch(() => undefined);
  if (!active || !sameApp(active.appName, app)) return `Escape would go to "${active?.title || active?.appName || 'no window'}", not to "${app}"`;
  const result = await deps.callTool({ name: 'press_key', input: { key: 'Escape' } }, signal, approval);
  if (!result.success) return `closing it with Escape failed: ${result.observation}`;
  const deadline = performance.now() + CLOSE_WAIT_MS;
  for (;;) {
    const open = (await windows.listPopups?.().catch(() => [])) ?? [];
    if (!open.some((w) => samePopup(w, popup))) return undefined;
    if (performance.now() >= deadline) return 'it stayed open after Escape';
    await sleep(100, signal);
  }
}

function samePopup(a: WindowInfo, b: WindowInfo): boolean {
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id;
  return a.bounds.x === b.bounds.x && a.bounds.y === b.bounds.y && a.bounds.width === b.bounds.width && a.bounds.height === b.bounds.height;
}
