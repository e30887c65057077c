import type { BBox } from '../../common/geometry';

export interface WindowInfo {
  title: string;
  /** The application: WM_CLASS on X11, the process name elsewhere. */
  appName: string;
  /** Client area in screen pixels. */
  bounds: BBox;
  id?: string;
  pid?: number;
  /** macOS: the app's bundle id (com.apple.Safari): per-app rules key on it, names are localized. */
  bundleId?: string;
  /**
   * EWMH window type in lower case when known: 'normal' | 'dialog' | 'menu' | 'popup_menu' |
   * 'dropdown_menu' | 'utility' | ... Lets a caller prefer the topmost dialog over its owner.
   */
  type?: string;
}

export interface WindowPort {
  activeWindow(): Promise<WindowInfo | undefined>;
  /**
   * Only the active window's id, where that is cheaper than activeWindow() (one X round trip
   * instead of three programs): lets a caller reuse what it knows about a window it has seen.
   */
  activeWindowId?(): Promise<string | undefined>;
  /**
   * Mapped top-level windows, TOPMOST FIRST (X11: _NET_CLIENT_LIST_STACKING reversed), client
   * bounds in screen pixels. Optional: callers fall back to activeWindow().
   */
  listWindows?(): Promise<WindowInfo[]>;
  /**
   * Unmanaged windows drawn above every managed one (X11 override-redirect: open menus,
   * dropdowns, tooltips), topmost first, each named by the app that owns it. Optional: without
   * it a point on a menu is judged by the managed window beneath.
   */
  listPopups?(): Promise<WindowInfo[]>;
}
