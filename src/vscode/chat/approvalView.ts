// What an approval card shows beside the raw input: the call in words (describeAction) and, when
// the call has a screen point, a small crop of the latest reading around it with the point marked.
// Everything here is best effort and bounded in time: a slow window manager or tree must not hold
// the question back. No vscode import: unit-tested directly.
import type { Desktop } from '../../desktop/ports/desktop';
import type { LatestReading } from '../../desktop/reading/screenReader';
import { crop } from '../../desktop/reading/screenDiff';
import type { ApprovalView } from '../../shared/protocol';
import { describeAction, type ActionContext } from '../../tools/actionDescription';
import { targetWindow } from '../../tools/actionTarget';
import type { ApprovalRequest } from '../../runtime/toolRuntime';
import type { AnyTool } from '../../tools/toolBase';
import { buildScreenPicture } from './screenPictures';

/** Screen pixels around the point, and the picture's width: near 1:1 at a sidebar's width, so the label stays legible. */
const CROP = { width: 400, height: 240 };
export const APPROVAL_PICTURE_WIDTH = 360;
/** Longest wait for the window title or the focused element. */
const LOOKUP_MS = 300;
/** Longest wait for the screen as it is now (grab and privacy probe); past it, the latest reading is shown. */
const GLANCE_MS = 800;

/** What the card asks of the call's tool: whether it types, whether its points are screenshot pixels. */
export type ApprovalTool = Pick<AnyTool, 'typesText' | 'screenshotCoordinates'>;

export interface ApprovalSources {
  desktop: Pick<Desktop, 'windows' | 'accessibility' | 'images'>;
  /** The tools by name (the runtime's registry): each says what its card needs. */
  tools: { get(name: string): ApprovalTool | undefined };
  /** The screen reader's newest reading (already protected: private windows and secrets withheld). */
  latestReading(): LatestReading | undefined;
  /** The screen as it is now, protected (ScreenReader.glance): a click found in the tree has no reading to show. */
  glance?(): Promise<LatestReading>;
  /** Screen pixels per screenshot pixel of the native computer tool, when known. */
  computerScale?(): Promise<number | undefined>;
}

export async function buildApprovalView(request: ApprovalRequest, sources: ApprovalSources): Promise<ApprovalView> {
  const app = request.app ? { app: { name: request.app.name, undecided: request.app.undecided } } : {};
  return { ...(await describedView(request, sources)), ...app };
}

async function describedView(request: ApprovalRequest, sources: ApprovalSources): Promise<ApprovalView> {
  const context: ActionContext = {};
  const tool = sources.tools.get(request.call.name);
  const typing = tool?.typesText(request.call.input) ?? false;
  // The window the action reaches when the runtime located it (under the point, or focused for keys).
  const located = request.target ? targetWindow(request.target) : undefined;
  const [window, focused, scale] = await Promise.all([
    located ? located.window : within(sources.desktop.windows.activeWindow()),
    typing ? within(sources.desktop.accessibility?.focusedElement?.() ?? Promise.resolve(undefined)) : undefined,
    tool?.screenshotCoordinates && sources.computerScale ? within(sources.computerScale()) : undefined,
  ]);
  if (window?.title) context.windowTitle = window.title;
  if (located?.window?.appName) context.appName = located.window.appName;
  if (focused?.name) context.focusedName = focused.name;
  if (scale) context.computerScale = scale;
  if (request.target?.way) context.way = request.target.way;
  const first = describeAction(request.call, context);
  const point = first.point ?? request.target?.points[0];
  if (!point) return { text: first.text };
  const latest = sources.latestReading();
  // The element the tool found there, else the OCR word the agent saw at the point.
  const element = (first.point ? undefined : request.target?.element) ?? (latest && contains(latest.image, point) ? elementAt(point, latest.analysis.elements) : undefined);
  const text = element ? describeAction(request.call, { ...context, targetText: element.text.trim().slice(0, 80) }).text : first.text;
  const now = sources.glance ? await within(sources.glance(), GLANCE_MS) : undefined;
  const reading = [now, latest].find((candidate) => candidate && contains(candidate.image, point));
  const region = reading ? around(point, reading.image, element?.box) : undefined;
  if (!reading || !region) return { text };
  const picture = await buildScreenPicture(
    sources.desktop.images,
    { image: crop(reading.image, region), analysis: { elements: element ? [{ text: element.text, bbox: element.box, confidence: 1, level: 'line' }] : [], fullText: '' } },
    [{ ...point, label: element ? (context.way === 'accessibility' ? 'will press this' : 'will click here') : 'will click at this point', kind: element ? 'target' : 'click' }],
    APPROVAL_PICTURE_WIDTH,
  );
  return { text, picture: { ...picture, boxes: picture.boxes.map((box) => ({ ...box, kind: 'target' as const })) } };
}

function contains(image: { width: number; height: number; origin: { x: number; y: number } }, point: { x: number; y: number }): boolean {
  const { x: ox, y: oy } = image.origin;
  return point.x >= ox && point.y >= oy && point.x < ox + image.width && point.y < oy + image.height;
}

/**
 * The crop rectangle around the point, inside the image, holding the target's box when it fits;
 * undefined when the point is outside the image.
 */
export function around(point: { x: number; y: number }, image: { width: number; height: number; origin: { x: number; y: number } }, box?: { x: number; y: number; width: number; height: number }): { x: number; y: number; width: number; height: number } | undefined {
  if (!contains(image, point)) return undefined;
  const { x: ox, y: oy } = image.origin;
  const width = Math.min(CROP.width, image.width);
  const height = Math.min(CROP.height, image.height);
  // Centred on the box when there is one (a click point may sit at its edge), else on the point.
  const centre = box && box.width <= width && box.height <= height ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : point;
  const x = Math.round(Math.min(Math.max(centre.x - width / 2, ox), ox + image.width - width));
  const y = Math.round(Math.min(Math.max(centre.y - height / 2, oy), oy + image.height - height));
  return { x, y, width, height };
}

/** The smallest OCR word (or line) that holds the point: what a click there lands on. */
export function textAt(point: { x: number; y: number }, elements: ReadonlyArray<{ text: string; bbox: { x: number; y: number; width: number; height: number } }>): string | undefined {
  return elementAt(point, elements)?.text.trim().slice(0, 80);
}

function elementAt(point: { x: number; y: number }, elements: ReadonlyArray<{ text: string; bbox: { x: number; y: number; width: number; height: number } }>): { text: string; box: { x: number; y: number; width: number; height: number } } | undefined {
  let best: { text: string; box: { x: number; y: number; width: number; height: number }; area: number } | undefined;
  for (const { text, bbox } of elements) {
    if (point.x < bbox.x || point.y < bbox.y || point.x > bbox.x + bbox.width || point.y > bbox.y + bbox.height || text.trim() === '') continue;
    const area = bbox.width * bbox.height;
    if (!best || area < best.area) best = { text, box: bbox, area };
  }
  return best ? { text: best.text, box: best.box } : undefined;
}

async function within<T>(work: Promise<T>, ms = LOOKUP_MS): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
