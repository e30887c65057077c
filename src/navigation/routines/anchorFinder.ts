// Where a recorded click or scroll goes now, by its anchors in order: the accessible element
// (role, name, its menu or pane), the visible text, then the two landmarks around it. A point is
// only given when the anchor was found in a window of the recorded app and nothing covers it
// there: an anchor that is not found is a stop with the reason, never a click where it used to be.
import { centreOf, containsPoint, distance, type BBox } from '../../common/geometry';
import { sleep } from '../../common/timing';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { Candidate } from '../../desktop/grounding/candidate';
import type { AccessibleElement } from '../../desktop/ports/accessibilityPort';
import type { Point } from '../../desktop/ports/inputPort';
import type { WindowInfo } from '../../desktop/ports/windowPort';
import type { ClickStep, ScrollStep, WindowAnchor } from '../store/routineTypes';
import { elementAt, isGrabbingPopup, listAllWindows } from '../recognition/pointScene';

export type AnchorRung = 'element' | 'text' | 'landmarks' | 'model';

export interface FoundTarget {
  point: Point;
  via: AnchorRung;
  window: WindowInfo;
  /** The tree's element there now, when the tree is read (its state decides whether a toggle needs the click). */
  element?: AccessibleElement;
}

/** The app's windows, every window (topmost first) and the tree as it is now, read once per step. */
interface Scene {
  windows: WindowInfo[];
  all: WindowInfo[];
  elements?: AccessibleElement[];
}

/** inTheWay: an open popup that would take the click (one over the target, or one elsewhere that a click only closes). */
export type FindResult = { found: FoundTarget } | { problem: string; inTheWay?: WindowInfo };

export interface FindContext {
  services: DesktopServices;
  signal: AbortSignal;
  /** How long a window of the step's app may take to appear (a dialog opening); default 4 s. */
  windowWaitMs?: number;
}

export async function findTarget(step: ClickStep | ScrollStep, context: FindContext): Promise<FindResult> {
  const { anchors } = step;
  const windows = await appWindows(anchors.window, context);
  if ('problem' in windows) return windows;
  const scene: Scene = { ...windows, ...(await readTree(step, context)) };
  const problems: string[] = [];
  // Found behind a popup ends the search too: the next rung would find the same place behind it.
  const byElement = fromElement(step, scene);
  if (byElement && ('found' in byElement || byElement.inTheWay)) return byElement;
  if (byElement) problems.push(byElement.problem);
  const label = anchors.label ?? (anchors.element?.name.trim() || undefined);
  if (label) {
    const byText = await fromText(label, step, scene, context);
    if ('found' in byText || byText.inTheWay) return byText;
    problems.push(byText.problem);
  }
  if (anchors.landmarks.length > 0) {
    const byLandmarks = await fromLandmarks(step, Boolean(label), scene, context);
    if ('found' in byLandmarks || byLandmarks.inTheWay) return byLandmarks;
    problems.push(byLandmarks.problem);
  }
  return { problem: problems.length ? problems.join('; ') : 'the step has nothing to find it by (no element, text or landmark was recorded)' };
}

/** Windows of the recorded app (popups first, then managed ones, topmost first), waiting a little for one to appear. */
export async function appWindows(anchor: WindowAnchor | undefined, context: FindContext): Promise<{ windows: WindowInfo[]; all: WindowInfo[] } | { problem: string }> {
  const deadline = performance.now() + (context.windowWaitMs ?? 4_000);
  for (;;) {
    const all = await listAllWindows(context.services);
    const windows = anchor ? all.filter((w) => sameApp(w.appName, anchor.app)) : all;
    if (windows.length > 0) return { windows, all };
    if (performance.now() >= deadline) return { problem: `no window of "${anchor?.app ?? 'the app'}" is open` };
    context.signal.throwIfAborted();
    await sleep(150, context.signal);
  }
}

export function sameApp(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = a.toLowerCase().replace(/[^a-z0-9]/g, '');
  const y = b.toLowerCase().replace(/[^a-z0-9]/g, '');
  return x !== '' && y !== '' && (x === y || x.includes(y) || y.includes(x));
}

/** Labels as people see them: case, mnemonic underscores, ellipses and spacing do not count. */
export function sameLabel(a: string, b: string): boolean {
  const norm = (s: string): string => s.replace(/_/g, '').replace(/…|\.\.\./g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return norm(a) === norm(b);
}

async function readTree(step: ClickStep | ScrollStep, context: FindContext): Promise<{ elements?: AccessibleElement[] }> {
  const tree = context.services.desktop.accessibility;
  if (!tree || !(await tree.available().catch(() => false))) return {};
  const active = await context.services.desktop.windows.activeWindow().catch(() => undefined);
  // The app's window may be behind another (a covering window is the active one): then every window's tree.
  const activeOnly = active !== undefined && sameApp(active.appName, step.anchors.window?.app);
  const elements = await tree.elements({ activeWindowOnly: activeOnly, signal: context.signal }).catch(() => undefined);
  return elements ? { elements } : {};
}

function fromElement(step: ClickStep | ScrollStep, scene: Scene): FindResult | undefined {
  const anchor = step.anchors.element;
  if (!anchor || !scene.elements) return undefined;
  let matches = scene.elements.filter((e) => e.role === anchor.role && sameLabel(e.name, anchor.name) && inWindows(e.bbox, scene.windows));
  if (anchor.name.trim() === '' && matches.length !== 1) return undefined; // an unnamed element is no anchor among several
  const nearest = anchor.ancestors.at(-1);
  if (nearest && matches.length > 1) {
    const under = matches.filter((e) => e.ancestors?.some((a) => sameLabel(a.name, nearest.name)));
    if (under.length > 0) matches = under;
  }
  if (matches.length === 0) return { problem: `no ${anchor.role} "${anchor.name}" in the tree of "${step.anchors.window?.app ?? 'the app'}"` };
  const chosen = nearestToOffset(matches.map((e) => e.bbox), step, scene.windows);
  return visible(chosen, 'element', scene, step.anchors.window);
}

async function fromText(label: string, step: ClickStep | ScrollStep, scene: Scene, context: FindContext): Promise<FindResult> {
  const result = await context.services.locator.locate(label, { signal: context.signal });
  const app = step.anchors.window?.app ?? 'the app';
  // Only the whole label: "Replace all in:" is not "Replace All".
  if (result.status === 'found' && (result.kind === 'exact' || sameLabel(result.text, label))) {
    if (!inWindows(result.bbox, scene.windows)) return { problem: `"${label}" was found, but not in a window of "${app}"` };
    return sameKind(visible(result.bbox, 'text', scene, step.anchors.window), step, scene, label);
  }
  if (result.status === 'ambiguous' || result.status === 'low_confidence' || result.status === 'found') {
    const candidates = result.status === 'found' ? [] : result.candidates;
    const boxes = candidates.filter((c: Candidate) => c.bbox && sameLabel(c.text, label) && inWindows(c.bbox, scene.windows)).map((c) => c.bbox);
    if (boxes.length === 0) return { problem: `the text "${label}" is not shown whole in a window of "${app}"` };
    return sameKind(visible(nearestToOffset(boxes, step, scene.windows), 'text', scene, step.anchors.window), step, scene, label);
  }
  return { problem: `the text "${label}" is not on the screen` };
}

async function fromLandmarks(step: ClickStep | ScrollStep, hadLabel: boolean, scene: Scene, context: FindContext): Promise<FindResult> {
  const { landmarks } = step.anchors;
  const placed: Array<{ point: Point; reach: number }> = [];
  for (const landmark of landmarks) {
    // Read by OCR, as when recorded: a tree's box (a label's whole widget) has another centre and size.
    const result = await context.services.locator.locate(landmark.text, { signal: context.signal, accessibility: false });
    if (result.status !== 'found' || !sameLabel(result.text, landmark.text) || !inWindows(result.bbox, scene.windows)) continue;
    // The same words' width says how much the look grew (a larger font); OCR's box heights vary too much.
    const ratio = landmark.width ? result.bbox.width / landmark.width : result.bbox.height / landmark.height;
    const scale = Math.min(3, Math.max(0.5, ratio));
    const centre = centreOf(result.bbox);
    const offset = { x: landmark.dx * scale, y: landmark.dy * scale };
    placed.push({ point: { x: Math.round(centre.x + offset.x), y: Math.round(centre.y + offset.y) }, reach: Math.hypot(offset.x, offset.y) });
  }
  const names = landmarks.map((l) => `"${l.text}"`).join(' and ');
  // One landmark alone places an unlabelled icon; a labelled target needs both to agree.
  const needed = hadLabel || landmarks.length > 1 ? 2 : 1;
  if (placed.length < needed) return { problem: `the landmarks ${names} were not both found near it` };
  // The farther a landmark, the more a small error in its scale moves the point: the nearer one places it.
  placed.sort((a, b) => a.reach - b.reach);
  const tolerance = Math.max(24, 0.12 * (placed.at(-1)?.reach ?? 0));
  if (placed.length === 2 && distance(placed[0]!.point, placed[1]!.point) > tolerance) return { problem: `the landmarks ${names} disagree about where it is` };
  const point = placed[0]!.point;
  return sameKind(visible({ x: point.x - 1, y: point.y - 1, width: 2, height: 2 }, 'landmarks', scene, step.anchors.window), step, scene, names);
}

/** Where the tree knows what lies at the point, it must be the kind of control recorded (not a check box for a button). */
function sameKind(found: FindResult, step: ClickStep | ScrollStep, scene: Scene, what: string): FindResult {
  if (!('found' in found) || !scene.elements) return found;
  const there = elementAt(scene.elements, found.found.point);
  const wanted = step.anchors.element;
  if (!there) return found;
  if (wanted && there.role !== wanted.role) return { problem: `at ${what.startsWith('"') ? what : `"${what}"`} there is a ${there.role} "${there.name}", not the ${wanted.role} recorded` };
  return { found: { ...found.found, element: there } };
}

/** Whether a point someone else found (the model) lies in a window of the step's app, uncovered. */
export async function checkPoint(point: Point, step: ClickStep | ScrollStep, context: FindContext): Promise<FindResult> {
  const windows = await appWindows(step.anchors.window, { ...context, windowWaitMs: 0 });
  if ('problem' in windows) return windows;
  return visible({ x: point.x - 1, y: point.y - 1, width: 2, height: 2 }, 'model', windows, step.anchors.window);
}

/**
 * The box's centre when it lies in a window of the app, the topmost window there is one of the
 * app's, and no open menu or list would take the click: one over the point when the step was not
 * recorded in one, or one elsewhere (a click outside a popup only closes it).
 */
function visible(box: BBox, via: AnchorRung, found: Scene, anchor: WindowAnchor | undefined): FindResult {
  const point = centreOf(box);
  const top = found.all.find((w) => containsPoint(w.bounds, point));
  const named = (w: WindowInfo): string => `"${w.appName}"${w.type ? ` (${w.type.replace(/_/g, ' ')})` : ''}`;
  if (top && isGrabbingPopup(top) && !anchor?.popup) {
    return { problem: `an open popup of ${named(top)} lies over it; the step was not in one`, inTheWay: top };
  }
  const elsewhere = top && isGrabbingPopup(top) ? undefined : found.all.find((w) => isGrabbingPopup(w) && !containsPoint(w.bounds, point));
  if (elsewhere) return { problem: `an open popup of ${named(elsewhere)} would take the click (a click outside it only closes it)`, inTheWay: elsewhere };
  if (!top || !found.windows.includes(top)) {
    const by = via === 'element' ? 'its accessible element' : via === 'model' ? 'the model' : `its ${via}`;
    return { problem: `it is covered${top ? ` by "${top.title || top.appName}"` : ''}${top ? '' : ' or outside every window of the app'} (found by ${by}${anchor ? ` in "${anchor.app}"` : ''})` };
  }
  const element = found.elements ? elementAt(found.elements, point) : undefined;
  return { found: { point, via, window: top, ...(element ? { element } : {}) } };
}

function inWindows(box: BBox, windows: readonly WindowInfo[]): boolean {
  const centre = centreOf(box);
  return windows.some((w) => containsPoint(w.bounds, centre));
}

/** Among equal matches, the one nearest to where the step was inside its window (moved or resized windows included). */
function nearestToOffset(boxes: readonly BBox[], step: ClickStep | ScrollStep, windows: readonly WindowInfo[]): BBox {
  if (boxes.length === 1 || !step.anchors.offset) return boxes[0]!;
  const offset = step.anchors.offset;
  const score = (box: BBox): number => {
    const centre = centreOf(box);
    const window = windows.find((w) => containsPoint(w.bounds, centre));
    if (!window) return Number.POSITIVE_INFINITY;
    const wanted = { x: window.bounds.x + offset.x * window.bounds.width, y: window.bounds.y + offset.y * window.bounds.height };
    return distance(centre, wanted);
  };
  return [...boxes].sort((a, b) => score(a) - score(b))[0]!;
}
