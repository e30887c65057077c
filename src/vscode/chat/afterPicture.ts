// The screen after an action, for the tool card: the person sees the effect of the click, the
// typing or the scroll, with the point where it acted. Cheap: a tool that read the screen after
// its action already (returnScreen) gives that reading; otherwise one grab once the screen has
// settled, protected like any reading (secret fields black, a private window withheld) but with
// no OCR, downscaled to a small JPEG. No vscode import: unit-tested with the real codec.
import type { AnyTool } from '../../tools/toolBase';
import type { ToolResult } from '../../tools/toolTypes';
import type { ImageCodec } from '../../desktop/ports/imageCodec';
import type { ScreenPort } from '../../desktop/ports/screenPort';
import type { LatestReading, ScreenReader } from '../../desktop/reading/screenReader';
import { waitForSettle } from '../../desktop/reading/settle';
import type { ScreenPicture } from '../../shared/protocol';
import { buildScreenPicture } from './screenPictures';

/** A card's picture: readable as a thumbnail and when opened, ~20–50 KB. */
export const AFTER_PICTURE_MAX_WIDTH = 800;
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
): Promise<ScreenPicture | undefined> {
  if (!call.tool.showsScreenAfter || !result.success) return undefined;
  const reading = await readingAfter(parts, result, seenBefore, signal);
  if (reading.withheld) return undefined;
  return buildScreenPicture(parts.images, reading, call.tool.screenMarks(call.input, result), AFTER_PICTURE_MAX_WIDTH);
}

async function readingAfter(parts: AfterPictureParts, result: ToolResult, seenBefore: LatestReading | undefined, signal?: AbortSignal): Promise<LatestReading> {
  const data = result.data as { screenAfter?: unknown } | undefined;
  const latest = parts.reader.latestSeen();
  // The tool read the screen after acting: that reading is the newest one.
  if (data?.screenAfter !== undefined && latest && latest !== seenBefore) return latest;
  const settled = await waitForSettle(parts.screen, { ...SETTLE, ...(signal ? { signal } : {}) });
  return parts.reader.glance({ frame: settled.frame, ...(signal ? { signal } : {}) });
}
