// The screen after an action, for the tool card: the person sees the effect of the click, the
// typing or the scroll, with the point where it acted. The card shows the part of the screen
// around the point, with what changed near it (a calculator's display above the key), legible at
// the sidebar's width; the whole screen is kept for opening in a tab. Cheap: a tool that read the
// screen after its action already (returnScreen) gives that reading; otherwise one grab once the
// screen has settled, protected like any reading (secret fields black, a private window withheld)
// but with no OCR, downscaled to small JPEGs. No vscode import: unit-tested with the real codec.
import type { AnyTool } from '../../tools/toolBase';
import type { ToolResult } from '../../tools/toolTypes';
import type { ImageCodec } from '../../desktop/ports/imageCodec';
import type { ScreenPort } from '../../desktop/ports/screenPort';
import type { LatestReading, ScreenReader } from '../../desktop/reading/screenReader';
import { waitForSettle } from '../../desktop/reading/settle';
import { changedRegions, crop } from '../../desktop/reading/screenDiff';
import { clampBox, imageBounds, union, type BBox } from '../../common/geometry';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import type { ScreenMark } from '../../tools/screenMarks';
import type { ScreenPicture } from '../../shared/protocol';
import { buildScreenPicture } from './screenPictures';

/** The whole screen, opened from the card: readable when opened, ~20–50 KB. */
export const AFTER_PICTURE_MAX_WIDTH = 800;
/** The part the card shows: near 1:1 at a sidebar's width. */
export const AFTER_DETAIL_WIDTH = 360;
/** Screen pixels around the point (at least), and at most with the changes near it. */
const DETAIL = { width: 400, height: 240 } as const;
const DETAIL_MAX = { width: 800, height: 480 } as const;
/** An app that reacts later than this is shown as it was then (the agent does not wait for it). */
const SETTLE = { timeoutMs: 700, reactionMs: 150, intervalMs: 40 } as const;

export interface AfterPictureParts {
  screen: ScreenPort;
  images: ImageCodec;
  reader: Pick<ScreenReader, 'latestSeen' | 'glance'>;
}

/** A finished call as the picture needs it: its tool's declarations and its (public) input. */
export interface AfterCall {
  tool: Pick<AnyTool, 'showsScreenAfter' | 'screenMarks'>;
  input: unknown;
}

/**
 * The picture for a finished call, or undefined when there is none to show: a tool that does
 * not declare one (showsScreenAfter), a call that failed (a denied or cancelled one included),
 * or a private window on top. The points are the tool's screenMarks.
 * `seenBefore`: the reader's newest reading when the call started.
 */
export async function buildAfterPicture(
  parts: AfterPictureParts,
  call: AfterCall,
  result: ToolResult,
  seenBefore: LatestReading | undefined,
  signal?: AbortSignal,
): Promise<AfterPictures | undefined> {
  if (!call.tool.showsScreenAfter || !result.success) return undefined;
  const reading = await readingAfter(parts, result, seenBefore, signal);
  if (reading.withheld) return undefined;
  const marks = call.tool.screenMarks(call.input, result);
  const full = await buildScreenPicture(parts.images, reading, marks, AFTER_PICTURE_MAX_WIDTH);
  const region = detailRegion(reading.image, marks, seenBefore?.image);
  if (!region) return { shown: full };
  const inside = reading.analysis.elements.filter(({ bbox }) => bbox.x >= region.x && bbox.y >= region.y && bbox.x + bbox.width <= region.x + region.width && bbox.y + bbox.height <= region.y + region.height);
  const detail = await buildScreenPicture(parts.images, { image: crop(reading.image, region), analysis: { ...reading.analysis, elements: inside } }, marks, AFTER_DETAIL_WIDTH);
  return { shown: detail, full };
}

/** What a card shows (`shown`), and the whole screen to open when `shown` is only a part of it. */
export interface AfterPictures {
  shown: ScreenPicture;
  full?: ScreenPicture;
}

/**
 * The part of the screen a card shows: a box around the points the tool marked, grown by the
 * changes near them (nearest first, while the whole stays within DETAIL_MAX); without points,
 * the changes alone when they are small. Undefined: show the whole screen.
 */
export function detailRegion(image: ScreenImage, marks: readonly ScreenMark[], before: ScreenImage | undefined): BBox | undefined {
  const screen = imageBounds(image);
  const changes = before ? changedRegions(before, image) : [];
  let region: BBox | undefined;
  if (marks.length > 0) {
    region = union(marks.map((mark) => ({ x: mark.x - DETAIL.width / 2, y: mark.y - DETAIL.height / 2, width: DETAIL.width, height: DETAIL.height })));
    if (region.width > DETAIL_MAX.width || region.height > DETAIL_MAX.height) return undefined;
  }
  const centre = region ? { x: region.x + region.width / 2, y: region.y + region.height / 2 } : undefined;
  const nearest = centre ? [...changes].sort((a, b) => distance(a, centre) - distance(b, centre)) : changes;
  for (const change of nearest) {
    const grown = region ? union([region, change]) : change;
    if (grown.width <= DETAIL_MAX.width && grown.height <= DETAIL_MAX.height) region = grown;
  }
  if (!region) return undefined;
  // At least DETAIL in size (a one-character change is shown with its surroundings), inside the screen.
  const width = Math.min(screen.width, Math.max(DETAIL.width, region.width));
  const height = Math.min(screen.height, Math.max(DETAIL.height, region.height));
  const sized = { x: Math.round(region.x + region.width / 2 - width / 2), y: Math.round(region.y + region.height / 2 - height / 2), width: Math.round(width), height: Math.round(height) };
  const inside = clampBox({ ...sized, x: Math.min(Math.max(sized.x, screen.x), screen.x + screen.width - sized.width), y: Math.min(Math.max(sized.y, screen.y), screen.y + screen.height - sized.height) }, screen);
  // Most of the screen anyway: the whole screen says it better.
  return inside.width * inside.height > 0.6 * screen.width * screen.height ? undefined : inside;
}

function distance(box: BBox, point: { x: number; y: number }): number {
  const dx = Math.max(box.x - point.x, 0, point.x - (box.x + box.width));
  const dy = Math.max(box.y - point.y, 0, point.y - (box.y + box.height));
  return Math.hypot(dx, dy);
}

async function readingAfter(parts: AfterPictureParts, result: ToolResult, seenBefore: LatestReading | undefined, signal?: AbortSignal): Promise<LatestReading> {
  const data = result.data as { screenAfter?: unknown } | undefined;
  const latest = parts.reader.latestSeen();
  // The tool read the screen after acting: that reading is the newest one.
  if (data?.screenAfter !== undefined && latest && latest !== seenBefore) return latest;
  const settled = await waitForSettle(parts.screen, { ...SETTLE, ...(signal ? { signal } : {}) });
  return parts.reader.glance({ frame: settled.frame, ...(signal ? { signal } : {}) });
}
