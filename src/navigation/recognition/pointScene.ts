import { boxArea, containsPoint } from '../../common/geometry';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { AccessibleElement } from '../../desktop/ports/accessibilityPort';
import type { Point } from '../../desktop/ports/inputPort';
import type { WindowInfo } from '../../desktop/ports/windowPort';

// What is at a point of the screen, for recording a step there and for finding it again.

/** Every window, open popups (menus) first, then managed windows topmost first. */
export async function listAllWindows(services: DesktopServices): Promise<WindowInfo[]> {
  const { windows } = services.desktop;
  const [popups, managed] = await Promise.all([
    windows.listPopups?.().catch(() => []) ?? Promise.resolve([]),
    windows.listWindows ? windows.listWindows().catch(() => []) : windows.activeWindow().then((w) => (w ? [w] : []), () => []),
  ]);
  return [...popups, ...managed];
}

/**
 * Popups that hold the pointer while open (menus, drop-downs, a field's completion list): a click
 * outside one only closes it. Tooltips and notifications do not, and are not listed here.
 */
const GRABBING_POPUP_TYPES: ReadonlySet<string> = new Set(['popup_menu', 'dropdown_menu', 'menu', 'combo', 'popup']);

export function isGrabbingPopup(window: Pick<WindowInfo, 'type'>): boolean {
  return window.type !== undefined && GRABBING_POPUP_TYPES.has(window.type);
}

/** The element under the point: the smallest one whose box holds it. */
export function elementAt(elements: readonly AccessibleElement[], point: Point): AccessibleElement | undefined {
  let best: AccessibleElement | undefined;
  for (const element of elements) {
    if (!containsPoint(element.bbox, point)) continue;
    if (!best || boxArea(element.bbox) < boxArea(best.bbox)) best = element;
  }
  return best;
}

/** Controls whose click flips a state the tree reports: a replay skips the click when it is already as the recording left it. */
export const TOGGLE_ROLES: ReadonlySet<string> = new Set(['check box', 'radio button', 'check menu item', 'radio menu item', 'switch']);

export function isChecked(element: Pick<AccessibleElement, 'states'>): boolean {
  return element.states.includes('checked');
}
