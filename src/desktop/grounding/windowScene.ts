import { centreOf, containsBox, containsPoint, sameBox, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { WindowInfo, WindowPort } from '../ports/windowPort';

// Which window a point or an accessible element belongs to, and whether a window or an open
// popup above hides it: a label in the tree of a window that another window covers, or under a
// menu it is not part of (a Qt menu is no top-level window), is not where a click lands.

/** The screen's windows at one moment. */
export interface WindowScene {
  screen: BBox;
  active?: WindowInfo;
  /** Mapped top-level windows, topmost first; just the active one where the port cannot list them. */
  windows: WindowInfo[];
  /** Whether `windows` is the real stacking list (WindowPort.listWindows) rather than a guess. */
  listed: boolean;
}

/** AT-SPI roles of override-redirect popups (menus, combo lists, tooltips): always drawn on top. */
const POPUP_ROLES = new Set(['window', 'menu', 'popup menu', 'tool tip']);
/** AT-SPI roles of dialogs, and EWMH types of dialog windows. */
const DIALOG_ROLES = new Set(['dialog', 'alert', 'file chooser']);

export async function readScene(windows: WindowPort, screen: BBox): Promise<WindowScene> {
  const [active, listed] = await Promise.all([
    windows.activeWindow().catch(() => undefined),
    windows.listWindows ? windows.listWindows().catch(() => undefined) : Promise.resolve(undefined),
  ]);
  const shown = (listed ?? []).filter((w) => w.bounds.width > 0 && w.bounds.height > 0);
  if (listed) return { screen, ...(active ? { active: sameWindowIn(shown, active) ?? active } : {}), windows: shown, listed: true };
  return { screen, ...(active ? { active } : {}), windows: active ? [active] : [], listed: false };
}

/** The listed window that is `window` (by id, else title and bounds). */
function sameWindowIn(list: WindowInfo[], window: WindowInfo): WindowInfo | undefined {
  return list.find((w) => (w.id !== undefined && w.id === window.id) || (w.title === window.title && sameBox(w.bounds, window.bounds)));
}

export function isActive(scene: WindowScene, window: WindowInfo | undefined): boolean {
  if (!window || !scene.active) return false;
  return window === scene.active || (window.id !== undefined && window.id === scene.active.id);
}

export function isDialogWindow(window: WindowInfo | undefined): boolean {
  return window?.type === 'dialog';
}

export function isDialogElement(element: AccessibleElement, owner: WindowInfo | undefined): boolean {
  return DIALOG_ROLES.has(element.window?.role ?? '') || isDialogWindow(owner);
}

/** In a popup: a top-level one (GTK menus, combo lists), or one inside its window's tree (Qt menus). */
export function isPopupElement(element: AccessibleElement): boolean {
  return POPUP_ROLES.has(element.window?.role ?? '') || (element.popups?.length ?? 0) > 0;
}

/** Whether a window above `owner` (topmost first) covers the point; without an owner, any window that is not its own. */
export function coveredAt(scene: WindowScene, point: { x: number; y: number }, owner: WindowInfo | undefined): boolean {
  for (const window of scene.windows) {
    if (owner && (window === owner || (window.id !== undefined && window.id === owner.id))) return false;
    if (containsPoint(window.bounds, point)) return owner !== undefined;
  }
  return false;
}

/** The topmost window holding the point. */
export function windowAt(scene: WindowScene, point: { x: number; y: number }): WindowInfo | undefined {
  return scene.windows.find((w) => containsPoint(w.bounds, point));
}

/**
 * The window an element belongs to: among those holding its centre, one of its process and
 * title, else of its title, else of its process. Undefined when none fits (a popup, an
 * unlisted window).
 */
export function ownerOf(scene: WindowScene, element: AccessibleElement): WindowInfo | undefined {
  const centre = centreOf(element.bbox);
  const holding = scene.windows.filter((w) => containsPoint(w.bounds, centre));
  const title = element.window?.name;
  const samePid = (w: WindowInfo): boolean => element.pid !== undefined && w.pid === element.pid;
  const sameTitle = (w: WindowInfo): boolean => title !== undefined && title !== '' && w.title === title;
  const owner = holding.find((w) => samePid(w) && sameTitle(w)) ?? holding.find(sameTitle) ?? holding.find(samePid);
  if (owner) return owner;
  // The tree said which window is active; the port knows where it is.
  if (element.window?.active && scene.active && containsPoint(scene.active.bounds, centre)) return scene.active;
  return undefined;
}

/**
 * Whether the element can take a click where the tree says it is: on the screen, and not
 * under another window. Popups are drawn above everything; an element whose window cannot be
 * told is trusted only where the topmost window there is not another application's.
 */
export function elementVisible(scene: WindowScene, element: AccessibleElement): { visible: boolean; owner?: WindowInfo } {
  const centre = centreOf(element.bbox);
  if (!containsPoint(scene.screen, centre)) return { visible: false };
  if (isPopupElement(element)) {
    // A menu inside its window's tree (Qt) still belongs to that window: a private one stays unread.
    const owner = element.popups?.length ? ownerOf(scene, element) : undefined;
    return { visible: true, ...(owner ? { owner } : {}) };
  }
  const owner = ownerOf(scene, element);
  if (owner) return { visible: !coveredAt(scene, centre, owner), owner };
  const top = windowAt(scene, centre);
  if (!top) return { visible: true };
  const foreign = (element.pid !== undefined && top.pid !== undefined && top.pid !== element.pid) || (element.window?.name !== undefined && element.window.name !== '' && top.title !== element.window.name && element.pid === undefined);
  return foreign ? { visible: false } : { visible: true, owner: top };
}

/** A window wholly under one window above it shows nothing. */
export function hidden(scene: WindowScene, window: WindowInfo): boolean {
  for (const above of scene.windows) {
    if (above === window) return false;
    if (containsBox(above.bounds, window.bounds)) return true;
  }
  return false;
}

/**
 * The boxes of the open popups the elements are drawn in, each once. A "popup" with the box of a
 * managed window (`windows`, from the window manager's list) is a normal window that calls
 * itself one: the stacking order already says what it covers.
 */
export function popupCovers(elements: readonly AccessibleElement[], windows: readonly WindowInfo[] = []): BBox[] {
  const covers: BBox[] = [];
  const managed = (box: BBox): boolean => windows.some((w) => Math.abs(w.bounds.x - box.x) <= 2 && Math.abs(w.bounds.y - box.y) <= 2 && Math.abs(w.bounds.width - box.width) <= 2 && Math.abs(w.bounds.height - box.height) <= 2);
  for (const element of elements) {
    for (const box of element.popups ?? []) if (!covers.some((c) => sameBox(c, box)) && !managed(box)) covers.push(box);
  }
  return covers;
}

/** Whether an open popup that the element is not drawn in lies over its centre. */
export function underPopup(element: AccessibleElement, covers: readonly BBox[]): boolean {
  const centre = centreOf(element.bbox);
  return covers.some((cover) => containsPoint(cover, centre) && !(element.popups ?? []).some((own) => sameBox(own, cover)));
}

/** The elements no open popup they are not part of lies over. */
export function uncovered(elements: readonly AccessibleElement[], windows: readonly WindowInfo[] = []): AccessibleElement[] {
  const covers = popupCovers(elements, windows);
  return covers.length === 0 ? [...elements] : elements.filter((e) => !underPopup(e, covers));
}
