import type { WindowInfo } from '../ports/windowPort';

// The windows GAI was asked from: the terminal a `gai click Save` was typed in, the VS Code window
// whose chat holds "click Save". They show the request's own words, so OCR finds the label
// there first (the terminal is the active window), and their own controls are not what the
// person means either: click by text looks past them.

/** Where a request comes from, as the platform can tell. */
export interface Asker {
  /** The processes above GAI's (its parent, that one's parent...): a terminal or an editor among them owns its window. */
  pids: readonly number[];
  /** Windows named by the environment (a terminal's WINDOWID), in any base. */
  windowIds: readonly string[];
}

export function isAskerWindow(window: WindowInfo, asker: Asker | undefined): boolean {
  if (!asker) return false;
  if (window.pid !== undefined && asker.pids.includes(window.pid)) return true;
  const id = windowNumber(window.id);
  return id !== undefined && asker.windowIds.some((named) => windowNumber(named) === id);
}

function windowNumber(id: string | undefined): number | undefined {
  if (!id) return undefined;
  const value = /^0x/i.test(id) ? Number.parseInt(id.slice(2), 16) : Number.parseInt(id, 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
