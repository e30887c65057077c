// Looks at the screen the cheap way, before any OCR: the active window, a frame and (where the
// platform keeps one) the accessibility tree's digest, as an observed screen signature.
import { raceAbort } from '../../common/timing';
import type { DesktopServices } from '../../desktop/desktopServices';
import { clipBox, type BBox } from '../../common/geometry';
import type { ScreenImage, ScreenPort } from '../../desktop/ports/screenPort';
import type { WindowInfo } from '../../desktop/ports/windowPort';
import { observeSignature, type ObservedSignature } from './screenSignature';

/** The tree digest is served from the adapter's cache; past this it is not waited for (pixels decide). */
const TREE_DIGEST_BUDGET_MS = 150;

export interface SignatureProbe {
  /** What was looked at: the active window's part of the screen, or the whole screen (`full`). */
  frame: ScreenImage;
  full: boolean;
  window?: WindowInfo;
  /** Undefined when the window lies (almost) off the frame. */
  observed?: ObservedSignature;
}

/**
 * `frame`: a full-screen frame grabbed already. Without one only the active window is grabbed:
 * a fraction of a full-screen grab (~4 ms against 30–300 ms at 1920x1080 on a busy machine).
 */
export async function probeSignature(services: DesktopServices, signal?: AbortSignal, frame?: ScreenImage): Promise<SignatureProbe> {
  const { screen, windows } = services.desktop;
  const [window, tree] = await Promise.all([windows.activeWindow().catch(() => undefined), treeDigest(services, signal)]);
  const region = !frame && window ? await windowRegion(screen, window.bounds) : undefined;
  const image = frame ?? (await screen.grab(region));
  const observed = observeSignature({
    programName: window?.appName.trim() || 'unknown',
    windowTitle: window?.title ?? '',
    ...(window ? { bounds: window.bounds } : {}),
    image,
    ...(tree ? { tree } : {}),
  });
  return { frame: image, full: !region, ...(window ? { window } : {}), ...(observed ? { observed } : {}) };
}

/** Less of a window than this on screen is no region to look at. */
const MIN_REGION = 16;

/** A window's bounds cut to the screen in whole pixels, or undefined when little of it is on it. */
export async function windowRegion(screen: ScreenPort, bounds: BBox): Promise<BBox | undefined> {
  const size = await screen.size();
  const region = clipBox(bounds, { x: 0, y: 0, width: size.width, height: size.height });
  return region && region.width >= MIN_REGION && region.height >= MIN_REGION ? region : undefined;
}

async function treeDigest(services: DesktopServices, signal?: AbortSignal): Promise<string | undefined> {
  const digest = services.desktop.accessibility?.treeDigest?.(signal);
  if (!digest) return undefined;
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), TREE_DIGEST_BUDGET_MS);
  try {
    return await raceAbort(digest, budget.signal);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
