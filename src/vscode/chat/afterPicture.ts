// The screen after an action, for the tool card: the person sees the effect of the click, the
// typing or the scroll, with the point where it acted. Cheap: a tool that read the screen after
// its action already (returnScreen) gives that reading; otherwise one grab once the screen has
// settled, protected like any reading (secret fields black, a private window withheld) but with
// no OCR, downscaled to a small JPEG. No vscode import: unit-tested with the real codec.
import type { ToolCall } from '../../model/messages';
import type { ToolResult } from '../../tools/toolTypes';
import type { ImageCodec } from '../../desktop/ports/imageCodec';
import type { ScreenPort } from '../../desktop/ports/screenPort';
import type { LatestReading, ScreenReader } from '../../desktop/reading/screenReader';
import { waitForSettle } from '../../desktop/reading/settle';
import type { ScreenPicture } from '../../shared/protocol';
import { buildScreenPicture, type PicturePoint } from './screenPictures';

/** The tools whose card shows the screen after them. */
export const AFTER_ACTION_TOOLS: ReadonlySet<string> = new Set(['click', 'type_text', 'press_key', 'scroll', 'drag']);
/** A card's picture: readable as a thumbnail and when opened, ~20–50 KB. */
export const AFTER_PICTURE_MAX_WIDTH = 800;
/** An app that reacts later than this is shown as it was then (the agent does not wait for it). */
const SETTLE = { timeoutMs: 700, reactionMs: 150, intervalMs: 40 } as const;

export interface AfterPictureParts {
  screen: ScreenPort;
  images: ImageCodec;
  reader: Pick<ScreenReader, 'latestSeen' | 'glance'>;
}

/**
 * The picture for a finished call, or undefined when there is none to show: a call that failed
 * (a denied or cancelled one included), or a private window on top.
 * `seenBefore`: the reader's newest reading when the call started.
 */
export async function buildAfterPicture(
  parts: AfterPictureParts,
  call: Pick<ToolCall, 'name' | 'input'>,
  result: ToolResult,
  seenBefore: LatestReading | undefined,
  signal?: AbortSignal,
): Promise<ScreenPicture | undefined> {
  if (!AFTER_ACTION_TOOLS.has(call.name) || !result.success) return undefined;
  const reading = await readingAfter(parts, result, seenBefore, signal);
  if (reading.withheld) return undefined;
  return buildScreenPicture(parts.images, reading, actionPoints(call, result), AFTER_PICTURE_MAX_WIDTH);
}

async function readingAfter(parts: AfterPictureParts, result: ToolResult, seenBefore: LatestReading | undefined, signal?: AbortSignal): Promise<LatestReading> {
  const data = result.data as { screenAfter?: unknown } | undefined;
  const latest = parts.reader.latestSeen();
  // The tool read the screen after acting: that reading is the newest one.
  if (data?.screenAfter !== undefined && latest && latest !== seenBefore) return latest;
  const settled = await waitForSettle(parts.screen, { ...SETTLE, ...(signal ? { signal } : {}) });
  return parts.reader.glance({ frame: settled.frame, ...(signal ? { signal } : {}) });
}

/** Where the call acted (screen pixels): the click's point, a drag's ends, a scroll's point. */
export function actionPoints(call: Pick<ToolCall, 'name' | 'input'>, result: ToolResult): PicturePoint[] {
  const data = (result.data ?? {}) as { point?: unknown; path?: unknown; text?: unknown };
  if (call.name === 'click' && isPoint(data.point)) {
    return [{ ...data.point, label: typeof data.text === 'string' ? `clicked "${data.text}"` : 'clicked', kind: 'click' }];
  }
  if (call.name === 'drag' && Array.isArray(data.path)) {
    const ends = [data.path[0], data.path[data.path.length - 1]];
    const [from, to] = ends;
    if (isPoint(from) && isPoint(to)) {
      return [
        { x: from.x, y: from.y, label: 'drag started', kind: 'click' },
        { x: to.x, y: to.y, label: 'drag released', kind: 'click' },
      ];
    }
  }
  const input = call.input as { x?: unknown; y?: unknown } | undefined;
  if (call.name === 'scroll' && typeof input?.x === 'number' && typeof input.y === 'number') {
    return [{ x: input.x, y: input.y, label: 'scrolled', kind: 'click' }];
  }
  return [];
}

function isPoint(value: unknown): value is { x: number; y: number } {
  return typeof value === 'object' && value !== null && Number.isFinite((value as { x?: unknown }).x) && Number.isFinite((value as { y?: unknown }).y);
}
