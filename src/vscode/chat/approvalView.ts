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

/** Screen pixels around the point, and the picture's width: enough to recognise the place, small to keep. */
const CROP = { width: 480, height: 300 };
export const APPROVAL_PICTURE_WIDTH = 320;
/** Longest wait for the window title or the focused element. */
const LOOKUP_MS = 300;

/** What the card asks of the call's tool: whether it types, whether its points are screenshot pixels. */
export type ApprovalTool = Pick<AnyTool, 'typesText' | 'screenshotCoordinates'>;

export interface ApprovalSources {
  desktop: Pick<Desktop, 'windows' | 'accessibility' | 'images'>;
  /** The tools by name (the runtime's registry): each says what its card needs. */
  tools: { get(name: string): ApprovalTool | undefined };
  /** The screen reader's newest reading (already protected: private windows and secrets withheld). */
  latestReading(): LatestReading | undefined;
  /** Screen pixels per screenshot pixel of the native computer tool, when known. */
  computerScale?(): Promise<number | undefined>;
}

export async function buildApprovalView(request: ApprovalRequest, sources: ApprovalSources): Promise<ApprovalView> {
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
  const first = describeAction(request.call, context);
  const point = first.point ?? request.target?.points[0];
  const reading = point ? sources.latestReading() : undefined;
  if (!point || !reading) return { text: first.text };
  const target = textAt(point, reading.analysis.elements);
  const text = target ? describeAction(request.call, { ...context, targetText: target }).text : first.text;
  const region = around(point, reading.image);
  if (!region) return { text };
  const picture = await buildScreenPicture(
    sources.desktop.images,
    { image: crop(reading.image, region), analysis: { ...reading.analysis, elements: [] } },
    [{ ...point, label: 'will click here', kind: 'click' }],
    APPROVAL_PICTURE_WIDTH,
  );
  return { text, picture };
}

/** The crop rectangle around the point, inside the image; undefined when the point is outside it. */
export function around(point: { x: number; y: number }, image: { width: number; height: number; origin: { x: number; y: number } }): { x: number; y: number; width: number; height: number } | undefined {
  const { x: ox, y: oy } = image.origin;
  if (point.x < ox || point.y < oy || point.x >= ox + image.width || point.y >= oy + image.height) return undefined;
  const width = Math.min(CROP.width, image.width);
  const height = Math.min(CROP.height, image.height);
  const x = Math.round(Math.min(Math.max(point.x - width / 2, ox), ox + image.width - width));
  const y = Math.round(Math.min(Math.max(point.y - height / 2, oy), oy + image.height - height));
  return { x, y, width, height };
}

/** The smallest OCR word (or line) that holds the point: what a click there lands on. */
export function textAt(point: { x: number; y: number }, elements: ReadonlyArray<{ text: string; bbox: { x: number; y: number; width: number; height: number } }>): string | undefined {
  let best: { text: string; area: number } | undefined;
  for (const { text, bbox } of elements) {
    if (point.x < bbox.x || point.y < bbox.y || point.x > bbox.x + bbox.width || point.y > bbox.y + bbox.height || text.trim() === '') continue;
    const area = bbox.width * bbox.height;
    if (!best || area < best.area) best = { text: text.trim().slice(0, 80), area };
  }
  return best?.text;
}

async function within<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LOOKUP_MS)));
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
