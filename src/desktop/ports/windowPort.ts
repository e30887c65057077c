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
}
