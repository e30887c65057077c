import type { Desktop } from './ports/desktop';
import { ScreenReader } from './screenReader';

/** The desktop plus the shared, stateful helpers built on it (one per host). */
export interface DesktopServices {
  desktop: Desktop;
  reader: ScreenReader;
  /** Largest width of screenshots sent to a model; they are downscaled beyond it. */
  screenshotMaxWidth: number;
}

export function createDesktopServices(desktop: Desktop, options: { screenshotMaxWidth?: number } = {}): DesktopServices {
  return { desktop, reader: new ScreenReader(desktop.screen, desktop.ocr), screenshotMaxWidth: options.screenshotMaxWidth ?? 1280 };
}
