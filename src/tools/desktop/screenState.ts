import { Type } from '@sinclair/typebox';
import { screenTextBlock } from '../../common/screenText';
import type { ImageBlock } from '../../model/messages';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { waitForSettle } from '../../desktop/reading/settle';
import { ocrTextItems, withInstructionFlags } from './untrustedScreen';

// Shared by the action tools: an optional look at the screen after the action (seed 004's
// "new screen state"), taken once the screen has settled.

export const ReturnScreenSchema = Type.Optional(
  Type.Union([Type.Boolean(), Type.Union([Type.Literal('ocr'), Type.Literal('screenshot')])], {
    description: 'After the action, return the new screen: true or "ocr" for its text, "screenshot" for a picture.',
  }),
);

export type ReturnScreen = boolean | 'ocr' | 'screenshot' | undefined;

const MAX_SUMMARY_LINES = 40;

/** Adds the screen after the action to a successful result when asked. */
export async function withScreenAfter(
  services: DesktopServices,
  result: ToolResult,
  returnScreen: ReturnScreen,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (!returnScreen || !result.success) return result;
  const settle = await waitForSettle(services.desktop.screen, { signal });
  const data = (result.data ?? {}) as Record<string, unknown>;
  if (returnScreen === 'screenshot') {
    // The settled frame through the reader, so secret fields are black and private windows withheld.
    const seen = await services.reader.read({ frame: settle.frame, signal });
    if (seen.withheld) return { ...result, data: { ...data, screenAfter: { settled: settle.settled, withheld: seen.withheld } } };
    const image = await services.desktop.images.encode(seen.image, 'png', { maxWidth: services.screenshotMaxWidth });
    const block: ImageBlock = { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: image.data.toString('base64') } };
    return {
      ...result,
      data: { ...data, screenAfter: { settled: settle.settled, width: image.width, height: image.height, scale: image.scale } },
      images: [...(result.images ?? []), block],
    };
  }
  const reading = await services.reader.read({ signal });
  if (reading.withheld) return { ...result, data: { ...data, screenAfter: { settled: settle.settled, withheld: reading.withheld } } };
  const lines = reading.analysis.elements.filter((e) => e.level === 'line');
  const text = screenTextBlock(lines.slice(0, MAX_SUMMARY_LINES).map((e) => e.text).join('\n'), { source: 'ocr', area: 'the screen after the action' });
  const after = { ...result, data: { ...data, screenAfter: { settled: settle.settled, text, lines: lines.length } } };
  return withInstructionFlags(after, ocrTextItems(lines.slice(0, MAX_SUMMARY_LINES), 'ocr of the screen after'));
}
