// What a recorded step is anchored on, read from a snapshot of the screen as it was when the
// person acted: the accessible element under the point, the text drawn there, the two nearest
// other texts (landmarks) and a small picture with secret fields blacked out.
import { boxArea, centreOf, clipBox, containsPoint, distance, padBox, type BBox } from '../../common/geometry';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { AccessibleElement } from '../../desktop/ports/accessibilityPort';
import type { Point } from '../../desktop/ports/inputPort';
import type { RecordedWindow } from '../../desktop/ports/inputRecorderPort';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import type { WindowInfo } from '../../desktop/ports/windowPort';
import type { OcrElement } from '../../desktop/ocr/ocrTypes';
import { crop } from '../../desktop/reading/screenDiff';
import { isSecretRole } from '../../desktop/reading/screenPrivacy';
import { elementAt, isChecked, isGrabbingPopup, listAllWindows, TOGGLE_ROLES } from '../recognition/pointScene';
import type { ElementAnchor, Landmark, RoutineAnchors, WindowAnchor } from '../store/routineTypes';

/** The screen as it was before an input: its pixels, its tree, its windows (topmost first). */
export interface ScreenSnapshot {
  frame: ScreenImage;
  elements: AccessibleElement[];
  windows: WindowInfo[];
  /** performance.now() when the grab began. */
  takenAt: number;
}

/** Around the point, what OCR reads for the label and landmarks (a window's part, not the screen). */
const READ_AROUND = { width: 900, height: 420 };
const CROP = { width: 200, height: 72 };
const MAX_LANDMARK_GAP = 320;

export async function takeSnapshot(services: DesktopServices, signal?: AbortSignal): Promise<ScreenSnapshot> {
  const { desktop } = services;
  const takenAt = performance.now();
  const tree = desktop.accessibility && (await desktop.accessibility.available().catch(() => false)) ? desktop.accessibility : undefined;
  const [frame, elements, windows] = await Promise.all([
    desktop.screen.grab(),
    tree ? tree.elements({ activeWindowOnly: true, ...(signal ? { signal } : {}) }).catch(() => []) : Promise.resolve([]),
    listAllWindows(services),
  ]);
  return { frame, elements, windows, takenAt };
}

/** The window a point falls in (topmost first), preferring the one the recorder named. */
export function windowAt(snapshot: ScreenSnapshot, point: Point, recorded?: RecordedWindow): WindowInfo | undefined {
  const containing = snapshot.windows.filter((w) => containsPoint(w.bounds, point));
  const named = recorded ? containing.find((w) => sameWindow(w, recorded)) : undefined;
  return named ?? containing[0];
}

export function windowAnchor(window: WindowInfo | undefined, recorded?: RecordedWindow): WindowAnchor | undefined {
  const app = recorded?.app ?? window?.appName;
  const title = recorded?.title ?? window?.title ?? '';
  return app ? { app: app.slice(0, 200), title: title.slice(0, 500) } : undefined;
}

export function elementAnchor(element: AccessibleElement): ElementAnchor {
  return {
    role: element.role.slice(0, 100) || 'unknown',
    name: element.name.slice(0, 300),
    ancestors: (element.ancestors ?? []).slice(-4).map((a) => ({ role: a.role.slice(0, 100), name: a.name.slice(0, 300) })),
    // A check box's state before the click: a replay leaves it alone when it is already as the click left it.
    ...(TOGGLE_ROLES.has(element.role) ? { checked: isChecked(element) } : {}),
  };
}

export interface CaptureOptions {
  services: DesktopServices;
  snapshot: ScreenSnapshot;
  point: Point;
  recorded?: RecordedWindow;
  signal?: AbortSignal;
  /** Keep a picture around the point (default true). */
  crop?: boolean;
}

/** Every anchor of a click or scroll at `point`; what cannot be read is left out, never guessed. */
export async function captureAnchors(options: CaptureOptions): Promise<RoutineAnchors> {
  const { snapshot, point, services } = options;
  const window = windowAt(snapshot, point, options.recorded);
  const element = elementAt(snapshot.elements, point);
  const screen = { x: snapshot.frame.origin.x, y: snapshot.frame.origin.y, width: snapshot.frame.width, height: snapshot.frame.height };
  const bounds = window ? clipBox(window.bounds, screen) : undefined;
  const secretBoxes = snapshot.elements.filter((e) => isSecretRole(e.role)).map((e) => e.bbox);
  const privateWindow = window !== undefined && services.privacy.isPrivateWindow(window) !== undefined;
  // A private window's text and pixels are never kept: only its element and where it was.
  const read = privateWindow ? [] : await readAround(services, snapshot.frame, point, bounds ?? screen, secretBoxes, options.signal);
  const lines = read.filter((e) => e.level === 'line');
  const label = labelAt(lines, point);
  const anchors: RoutineAnchors = {
    landmarks: landmarksAround(lines, read.filter((e) => e.level === 'word'), point, label),
    point: { x: Math.round(point.x), y: Math.round(point.y) },
  };
  const win = windowAnchor(window, options.recorded);
  // Popups are listed first: the topmost window at the point says whether it was in an open menu or list.
  const topmost = snapshot.windows.find((w) => containsPoint(w.bounds, point));
  if (win) anchors.window = topmost && isGrabbingPopup(topmost) ? { ...win, popup: true } : win;
  if (element && !isSecretRole(element.role)) anchors.element = elementAnchor(element);
  if (label) anchors.label = label.text.slice(0, 300);
  if (bounds && bounds.width > 0 && bounds.height > 0) {
    anchors.offset = { x: clampUnit((point.x - bounds.x) / bounds.width), y: clampUnit((point.y - bounds.y) / bounds.height) };
  }
  if (options.crop !== false && !privateWindow) {
    const picture = await cropAround(services, snapshot.frame, point, secretBoxes);
    if (picture) anchors.crop = picture;
  }
  return anchors;
}

async function readAround(services: DesktopServices, frame: ScreenImage, point: Point, within: BBox, secrets: BBox[], signal?: AbortSignal): Promise<OcrElement[]> {
  const region = clipBox(
    { x: Math.round(point.x - READ_AROUND.width / 2), y: Math.round(point.y - READ_AROUND.height / 2), width: READ_AROUND.width, height: READ_AROUND.height },
    within,
  );
  if (!region || region.width < 8 || region.height < 8) return [];
  const image = services.privacy.maskImage(crop(frame, region), secrets.map((b) => padBox(b, 2)));
  const analysis = await services.desktop.ocr.recognize(image, signal ? { signal } : {}).catch(() => undefined);
  if (!analysis) return [];
  return analysis.elements.filter((e) => e.text.trim() !== '' && !secrets.some((s) => containsPoint(padBox(s, 2), centreOf(e.bbox))));
}

/** The text line at the point, or the nearest within a few pixels (a click just beside a label). */
function labelAt(lines: readonly OcrElement[], point: Point): OcrElement | undefined {
  const holding = lines.filter((l) => containsPoint(padBox(l.bbox, 3), point));
  if (holding.length > 0) return holding.reduce((a, b) => (boxArea(a.bbox) <= boxArea(b.bbox) ? a : b));
  const near = lines.map((l) => ({ l, gap: gapTo(l.bbox, point) })).filter((x) => x.gap <= 12).sort((a, b) => a.gap - b.gap);
  return near[0]?.l;
}

/**
 * Two other texts near the point and where the point is from each, in the pixels of now: the
 * field's own label first when there is one (left on its row or just above, ending in ':'), then
 * the nearest. Only a line's words count: a check box or arrow read as "4", "#" or "w" beside them
 * changes with the theme and the size, and the line would no longer be found whole.
 */
function landmarksAround(lines: readonly OcrElement[], words: readonly OcrElement[], point: Point, label: OcrElement | undefined): Landmark[] {
  const near = lines
    .filter((l) => l !== label && l.confidence >= 0.6)
    .map((l) => wordsOf(l, words))
    .filter((t): t is Text => t !== undefined && /\p{L}{3,}/u.test(t.text))
    .map((t) => ({ t, gap: gapTo(t.bbox, point) }))
    .filter((x) => x.gap <= MAX_LANDMARK_GAP)
    .sort((a, b) => a.gap - b.gap)
    .map((x) => x.t);
  const own = near.find((t) => isLabelOf(t, point));
  return [...(own ? [own] : []), ...near.filter((t) => t !== own)].slice(0, 2).map((t) => {
    const centre = centreOf(t.bbox);
    return { text: t.text.slice(0, 200), dx: Math.round(point.x - centre.x), dy: Math.round(point.y - centre.y), height: Math.max(1, t.bbox.height), width: Math.max(1, t.bbox.width) };
  });
}

interface Text {
  text: string;
  bbox: BBox;
}

/** The line without the marks at its ends that are not words (glyphs read as letters or digits). */
function wordsOf(line: OcrElement, words: readonly OcrElement[]): Text | undefined {
  const inLine = words.filter((w) => containsPoint(padBox(line.bbox, 2), centreOf(w.bbox))).sort((a, b) => a.bbox.x - b.bbox.x);
  if (inLine.length === 0) return { text: line.text.trim(), bbox: line.bbox };
  const isWord = (w: OcrElement): boolean => /^[\p{L}][\p{L}'’-]*[\p{L}.:…]?$/u.test(w.text.trim()) && /\p{L}{2}/u.test(w.text);
  const first = inLine.findIndex(isWord);
  if (first < 0) return undefined;
  const last = inLine.length - 1 - [...inLine].reverse().findIndex(isWord);
  const kept = inLine.slice(first, last + 1);
  const x = Math.min(...kept.map((w) => w.bbox.x));
  const y = Math.min(...kept.map((w) => w.bbox.y));
  const right = Math.max(...kept.map((w) => w.bbox.x + w.bbox.width));
  const bottom = Math.max(...kept.map((w) => w.bbox.y + w.bbox.height));
  return { text: kept.map((w) => w.text.trim()).join(' '), bbox: { x, y, width: right - x, height: bottom - y } };
}

/** A field's label: ends in ':' and lies to its left on the same row, or just above it. */
function isLabelOf(text: Text, point: Point): boolean {
  if (!/:$/.test(text.text)) return false;
  const { bbox } = text;
  const sameRow = Math.abs(point.y - (bbox.y + bbox.height / 2)) <= bbox.height && bbox.x + bbox.width <= point.x;
  const above = bbox.y + bbox.height <= point.y && point.y - (bbox.y + bbox.height) <= 3 * bbox.height && bbox.x <= point.x + 40 && point.x - bbox.x <= 400;
  return sameRow || above;
}

async function cropAround(services: DesktopServices, frame: ScreenImage, point: Point, secrets: BBox[]): Promise<RoutineAnchors['crop']> {
  const screen = { x: frame.origin.x, y: frame.origin.y, width: frame.width, height: frame.height };
  const region = clipBox({ x: Math.round(point.x - CROP.width / 2), y: Math.round(point.y - CROP.height / 2), width: CROP.width, height: CROP.height }, screen);
  if (!region || region.width < 4 || region.height < 4) return undefined;
  try {
    const masked = services.privacy.maskImage(crop(frame, region), secrets.map((b) => padBox(b, 2)));
    const encoded = await services.desktop.images.encode(masked, 'png');
    return { mediaType: 'image/png', data: encoded.data.toString('base64'), width: encoded.width, height: encoded.height };
  } catch {
    return undefined;
  }
}

function sameWindow(window: WindowInfo, recorded: RecordedWindow): boolean {
  if (window.id !== undefined && (window.id === recorded.id || Number(window.id) === Number(recorded.id))) return true;
  return window.title === recorded.title && (recorded.app === undefined || window.appName.toLowerCase() === recorded.app.toLowerCase());
}

function gapTo(box: BBox, point: Point): number {
  const dx = Math.max(box.x - point.x, 0, point.x - (box.x + box.width));
  const dy = Math.max(box.y - point.y, 0, point.y - (box.y + box.height));
  return distance({ x: 0, y: 0 }, { x: dx, y: dy });
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, Math.round(value * 10_000) / 10_000));
}
