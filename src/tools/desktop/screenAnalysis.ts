import { neutralizeScreenText, quoteScreenText, screenTextBlock } from '../../common/screenText';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import type { WindowInfo } from '../../desktop/ports/windowPort';

// Text helpers of the screen reader: what the fast model (or a person) is shown, and the
// vision model's answer parsed and mapped back to screen pixels.

const MAX_LINES = 60;

export function screenSummaryText(analysis: OcrAnalysis, window: WindowInfo | undefined): string {
  const lines = analysis.elements.filter((e) => e.level === 'line').map((e) => e.text.trim()).filter(Boolean);
  const head = window ? `Active window: ${quoteScreenText(window.title)} (${quoteScreenText(window.appName, 40)}).` : 'No active window.';
  if (lines.length === 0) return `${head}\nNo text found on the screen.`;
  const body = screenTextBlock(lines.slice(0, MAX_LINES).join('\n'), { source: 'ocr', area: 'the screen', ...(window ? { window: window.title } : {}) });
  const more = lines.length > MAX_LINES ? `\n… ${lines.length - MAX_LINES} more line(s)` : '';
  return `${head}\nText on screen (${lines.length} line(s), top to bottom):\n${body}${more}`;
}

/**
 * A clickable thing the vision model pointed at: its label and role as the model named them and
 * the point it gave (screen pixels). No box, and not a reading of OCR or of the tree, so not a
 * ScreenElement (desktop/screenElement.ts).
 */
export interface VisionPoint {
  label: string;
  role: string;
  x: number;
  y: number;
}

/** Takes the JSON the model was asked for (tolerating prose or code fences around it). */
export function parseElements(text: string, scale: number, origin: { x: number; y: number }): { summary: string; elements: VisionPoint[] } {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return { summary: text.trim(), elements: [] };
  try {
    const parsed = JSON.parse(text.slice(start, end + 1)) as { summary?: unknown; elements?: unknown };
    const elements = Array.isArray(parsed.elements) ? parsed.elements : [];
    return {
      summary: typeof parsed.summary === 'string' ? parsed.summary : '',
      elements: elements
        .filter((e): e is { label?: unknown; role?: unknown; x: number; y: number } => typeof e?.x === 'number' && typeof e?.y === 'number')
        .map((e) => ({
          // The label is what the vision model read on the screen: data, like the screen itself.
          label: neutralizeScreenText(String(e.label ?? '')),
          role: String(e.role ?? 'element'),
          x: Math.round(e.x / scale) + origin.x,
          y: Math.round(e.y / scale) + origin.y,
        })),
    };
  } catch {
    return { summary: text.trim(), elements: [] };
  }
}
