import type { AccessibilityPort } from './accessibilityPort';
import type { AppLauncher } from './appLauncherPort';
import type { ImageCodec } from './imageCodec';
import type { InputPort } from './inputPort';
import type { OcrEngine } from './ocrPort';
import type { ScreenPort } from './screenPort';
import type { WindowPort } from './windowPort';

export type PlatformName = 'linux' | 'darwin' | 'win32';

/** Everything the desktop tools need, one implementation per platform. */
export interface Desktop {
  platform: PlatformName;
  screen: ScreenPort;
  input: InputPort;
  ocr: OcrEngine;
  windows: WindowPort;
  launcher: AppLauncher;
  images: ImageCodec;
  /** The platform's accessibility tree, where it can be read (AT-SPI on Linux). */
  accessibility?: AccessibilityPort;
  /** Ends what the desktop keeps running (OCR workers, helper processes); without it, dispose the OCR engine. */
  dispose?(): Promise<void>;
}
