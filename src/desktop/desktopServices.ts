import { SecretRedactor } from '../common/redact';
import type { Logger } from '../common/logger';
import type { Desktop } from './ports/desktop';
import type { WindowTitleRule } from './reading/privateWindows';
import { ScreenPrivacy } from './reading/screenPrivacy';
import { ScreenReader } from './reading/screenReader';
import type { InputTimes } from './reading/settle';
import { TargetLocator } from './grounding/targetLocator';
import type { Asker } from './grounding/askerWindows';

/** The desktop plus the shared, stateful helpers built on it (one per host). */
export interface DesktopServices {
  desktop: Desktop;
  /** Every reading it gives out is protected: secret fields black, private windows withheld. */
  reader: ScreenReader;
  privacy: ScreenPrivacy;
  /** Finds where to click for a label (tree first, then the pixels of the window it is in). */
  locator: TargetLocator;
  /** Tells secrets in text apart (type_text masks what it matches). */
  redactor: SecretRedactor;
  /** Largest width of screenshots sent to a model; they are downscaled beyond it. */
  screenshotMaxWidth: number;
}

export interface DesktopServicesOptions {
  screenshotMaxWidth?: number;
  /** Windows whose screenshots and text never go to a model (gai.redact.windowTitles). */
  privateWindowTitles?: readonly WindowTitleRule[];
  redactor?: SecretRedactor;
  logger?: Logger;
  /** Where requests come from (the terminal, the editor): click by text looks past those windows. */
  asker?: Asker;
  /** GAI's input as the desktop's input port notes it (WatchedInput's clock): a reading right after it shows its effect. */
  inputs?: InputTimes;
}

export function createDesktopServices(desktop: Desktop, options: DesktopServicesOptions = {}): DesktopServices {
  const privacy = new ScreenPrivacy({
    windows: desktop.windows,
    accessibility: desktop.accessibility,
    windowTitles: options.privateWindowTitles,
    logger: options.logger,
  });
  const services: Omit<DesktopServices, 'locator'> = {
    desktop,
    reader: new ScreenReader(desktop.screen, desktop.ocr, { privacy, ...(options.inputs ? { inputs: options.inputs } : {}) }),
    privacy,
    redactor: options.redactor ?? new SecretRedactor(),
    screenshotMaxWidth: options.screenshotMaxWidth ?? 1280,
  };
  return { ...services, locator: new TargetLocator(services, options.asker ? { asker: options.asker } : {}) };
}
