// Looks at the screen the cheap way, before any OCR: the active window, a frame and (where the
// platform keeps one) the accessibility tree's digest, as an observed screen signature.
import { raceAbort } from '../core/timing';
import type { DesktopServices } from '../desktop/desktopServices';
import type { ScreenImage } from '../desktop/ports/screenPort';
import type { WindowInfo } from '../desktop/ports/windowPort';
import { observeSignature, type ObservedSignature } from './screenSignature';

/** The tree digest is served from the adapter's cache; past this it is not waited for (pixels decide). */
const TREE_DIGEST_BUDGET_MS = 150;

export interface SignatureProbe {
  frame: ScreenImage;
  window?: WindowInfo;
  /** Undefined when the window lies (almost) off the frame. */
  observed?: ObservedSignature;
}

export async function probeSignature(services: DesktopServices, signal?: AbortSignal, frame?: ScreenImage): Promise<SignatureProbe> {
  const { screen, windows } = services.desktop;
  const [image, window, tree] = await Promise.all([
    frame ?? screen.grab(),
    windows.activeWindow().catch(() => undefined),
    treeDigest(services, signal),
  ]);
  const observed = observeSignature({
    programName: window?.appName.trim() || 'unknown',
    windowTitle: window?.title ?? '',
    ...(window ? { bounds: window.bounds } : {}),
    image,
    ...(tree ? { tree } : {}),
  });
  return { frame: image, ...(window ? { window } : {}), ...(observed ? { observed } : {}) };
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
