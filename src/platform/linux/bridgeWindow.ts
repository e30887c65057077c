import type { WindowInfo } from '../../desktop/ports/windowPort';

/** A window as the desktop bridge answers it, from X11 or from KWin (bounds as [x, y, width, height]). */
export interface BridgeWindow {
  id: string;
  title: string;
  appName: string;
  type?: string;
  pid?: number;
  bounds: [number, number, number, number];
}

export function toWindowInfo(raw: BridgeWindow): WindowInfo {
  const [x, y, width, height] = raw.bounds;
  return {
    id: raw.id,
    title: raw.title,
    appName: raw.appName,
    bounds: { x, y, width, height },
    ...(raw.pid !== undefined ? { pid: raw.pid } : {}),
    ...(raw.type !== undefined ? { type: raw.type } : {}),
  };
}
