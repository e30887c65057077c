import type { BBox } from '../../core/types';

export interface WindowInfo {
  title: string;
  /** The application: WM_CLASS on X11, the process name elsewhere. */
  appName: string;
  /** Client area in screen pixels. */
  bounds: BBox;
  id?: string;
  pid?: number;
}

export interface WindowPort {
  activeWindow(): Promise<WindowInfo | undefined>;
  /**
   * Only the active window's id, where that is cheaper than activeWindow() (one X round trip
   * instead of three programs): lets a caller reuse what it knows about a window it has seen.
   */
  activeWindowId?(): Promise<string | undefined>;
}
