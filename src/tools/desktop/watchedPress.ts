// A press through accessibility whose effect is checked. The toolkit saying it did the action is
// not proof the app reacted (a stale element, an app that ignores the synthetic action), so the
// window is watched: its pixels, then the set of windows, then the element's own state. What a
// person could not see happen did not take, and the click tool may then use the pointer.
import { errorMessage } from '../../common/errors';
import { clipBox, type BBox } from '../../common/geometry';
import type { AccessibilityPort } from '../../desktop/ports/accessibilityPort';
import type { Desktop } from '../../desktop/ports/desktop';
import type { WindowPort } from '../../desktop/ports/windowPort';
import { waitForChange } from '../../desktop/reading/settle';

/** How long a pressed control's app has to show an effect before the press counts as not taken. */
export const PRESS_REACTION_MS = 600;

export interface PressOutcome {
  /** The toolkit's action done ("click", "press"...). */
  action: string;
  /** Whether anything changed that a person could see. */
  took: boolean;
  /** What showed it: the window's pixels, the windows (one opened, closed or renamed), or the element's state. */
  seen?: 'screen' | 'windows' | 'element';
}

/** Presses `ref` and watches `region` (the window it is in; the whole screen when unknown) for its effect; `error` when the toolkit refused. */
export async function pressAndWatch(desktop: Pick<Desktop, 'screen' | 'windows' | 'accessibility'>, ref: string, region: BBox | undefined, signal?: AbortSignal): Promise<PressOutcome | { error: string }> {
  const tree = desktop.accessibility;
  if (!tree?.perform) return { error: "this desktop's accessibility tree offers no actions" };
  const size = await desktop.screen.size();
  const area = region ? clipBox(region, { x: 0, y: 0, ...size }) : undefined;
  const [before, windowsBefore, elementBefore] = await Promise.all([desktop.screen.grab(area), windowsState(desktop.windows), elementBeforePress(tree, ref, signal)]);
  let action: string;
  try {
    action = await tree.perform(ref, { kind: 'press' }, signal);
  } catch (error) {
    return { error: errorMessage(error) };
  }
  if (await waitForChange(desktop.screen, before, { ...(area ? { region: area } : {}), withinMs: PRESS_REACTION_MS, ...(signal ? { signal } : {}) })) return { action, took: true, seen: 'screen' };
  if ((await windowsState(desktop.windows)) !== windowsBefore) return { action, took: true, seen: 'windows' };
  // Unknown before (not in the tree's cache): nothing to compare, so no proof it took.
  if (elementBefore !== undefined && (await elementState(tree, ref, { fresh: true, activeOnly: elementBefore.activeOnly }, signal)) !== elementBefore.state) return { action, took: true, seen: 'element' };
  return { action, took: false };
}

/** The windows as a string that changes when one opens, closes, is renamed or becomes active. */
async function windowsState(windows: WindowPort): Promise<string> {
  try {
    const [all, active] = await Promise.all([windows.listWindows?.() ?? [], windows.activeWindow()]);
    return JSON.stringify([active?.id ?? active?.title, all.map((w) => [w.id, w.title])]);
  } catch {
    return '';
  }
}

/** States a press changes for good (not focus, not the moment it is armed). */
const LASTING_STATES = new Set(['checked', 'selected', 'expanded', 'collapsed', 'pressed', 'indeterminate', 'enabled', 'sensitive', 'showing', 'visible']);

/**
 * The element's state before the press, from the tree's cache: the active window's first (what
 * the locator read, at no cost), all windows' only when it is elsewhere (a walk of each).
 */
async function elementBeforePress(tree: AccessibilityPort, ref: string, signal?: AbortSignal): Promise<{ state: string; activeOnly: boolean } | undefined> {
  for (const activeOnly of [true, false]) {
    const state = await elementState(tree, ref, { fresh: false, activeOnly }, signal);
    if (state !== undefined) return { state, activeOnly };
  }
  return undefined;
}

/** The element's name, text and lasting states; `gone` when a fresh read no longer has it; undefined when it cannot be read. */
async function elementState(tree: AccessibilityPort, ref: string, read: { fresh: boolean; activeOnly: boolean }, signal?: AbortSignal): Promise<string | undefined> {
  try {
    const element = (await tree.elements({ activeWindowOnly: read.activeOnly, fresh: read.fresh, ...(signal ? { signal } : {}) })).find((e) => e.ref === ref);
    if (!element) return read.fresh ? 'gone' : undefined;
    return JSON.stringify([element.name, element.text ?? '', element.states.filter((s) => LASTING_STATES.has(s)).sort()]);
  } catch {
    return undefined;
  }
}
