// What the brain sees: the active window and the OCR of the screen, as the reading that state
// identification works on (and the picture, for a new node's thumbnail). No model.
import { containsPointInclusive } from '../../common/geometry';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import type { WindowInfo } from '../../desktop/ports/windowPort';
import { readingFromOcr, type ScreenText } from './fingerprint';

export interface ObservedScreen {
  reading: ScreenText;
  window?: WindowInfo;
  analysis: OcrAnalysis;
  /** The screen as read (screen pixels). */
  image: ScreenImage;
  ocrMs: number;
}

export interface ObserveOptions {
  /** A full-screen frame grabbed already (after settling): read, not grabbed again; an unchanged one is served from the reader's cache. */
  frame?: ScreenImage;
  /** The active window looked up already for this frame (null: there was none). */
  window?: WindowInfo | null;
}

export async function observeScreen(services: DesktopServices, signal?: AbortSignal, options: ObserveOptions = {}): Promise<ObservedScreen> {
  const window = options.window === undefined ? await services.desktop.windows.activeWindow().catch(() => undefined) : (options.window ?? undefined);
  const screen = await services.reader.read({ signal, ...(options.frame ? { frame: options.frame } : {}) });
  const reading = readingFromOcr(window ?? { appName: 'unknown', title: '' }, screen.analysis, window ? { bounds: window.bounds } : {});
  return { reading, ...(window ? { window } : {}), analysis: screen.analysis, image: screen.image, ocrMs: screen.ocrMs };
}

/** The OCR word under a point (what a click by coordinates hit), so a path can click it by text. */
export function textAtPoint(analysis: OcrAnalysis | undefined, point: { x: number; y: number }): string | undefined {
  if (!analysis) return undefined;
  const inside = (e: OcrAnalysis['elements'][number]): boolean => containsPointInclusive(e.bbox, point);
  const word = analysis.elements.find((e) => e.level === 'word' && inside(e) && e.text.trim().length > 1);
  return word?.text.trim();
}
