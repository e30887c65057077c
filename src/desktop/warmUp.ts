import { errorMessage } from '../common/errors';
import type { Desktop } from './ports/desktop';

// What a long-lived host (the extension) starts ahead of the first request, so that the first
// click by text is as fast as the tenth: the OCR workers, the window connection and the
// accessibility trees, the window in front's first. Nothing is read off the screen by OCR here.

export interface WarmUpReport {
  ms: number;
  /** The parts that could not start, with why; the tools say so again when used. */
  problems: string[];
}

export async function warmUpDesktop(desktop: Desktop, signal?: AbortSignal): Promise<WarmUpReport> {
  const started = performance.now();
  const problems: string[] = [];
  const attempt = async (what: string, work: () => Promise<unknown> | undefined): Promise<void> => {
    try {
      await work();
    } catch (error) {
      if (!signal?.aborted) problems.push(`${what}: ${errorMessage(error)}`);
    }
  };
  const tree = desktop.accessibility;
  await Promise.all([
    attempt('OCR', () => desktop.ocr.warmUp?.()),
    attempt('windows', () => (desktop.windows.listWindows ? desktop.windows.listWindows() : desktop.windows.activeWindow())),
    attempt('accessibility', async () => {
      if (!tree || !(await tree.available())) return;
      await tree.elements({ activeWindowOnly: true, ...(signal ? { signal } : {}) });
      // Then every window's: the walks are kept until their apps change them, and the first
      // label behind the active window would otherwise wait for all of them (0.8 s on a desktop of seven apps).
      await tree.elements({ activeWindowOnly: false, ...(signal ? { signal } : {}) });
    }),
  ]);
  return { ms: Math.round(performance.now() - started), problems };
}
