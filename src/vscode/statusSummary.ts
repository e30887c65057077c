// The status bar's one line about the screen, from a quick smart_screen_reader result: the
// active window and how much text is on screen without a model, the model's first sentence with one.
import { screenTextForPeople } from '../core/screenText';
import type { ToolResult } from '../core/types';

export const STATUS_TEXT_MAX = 48;

export interface StatusSummary {
  /** Short, for the item itself. */
  text: string;
  /** The whole analysis, for the hover. */
  tooltip: string;
}

export function statusSummary(result: ToolResult): StatusSummary {
  if (!result.success) return { text: 'screen not read', tooltip: result.observation };
  const data = (result.data ?? {}) as { analysis?: unknown; llmMode?: unknown; window?: { title?: unknown } };
  // The model gets the analysis as a screen text block; the person reads the text.
  const analysis = typeof data.analysis === 'string' ? screenTextForPeople(data.analysis) : '';
  const title = typeof data.window?.title === 'string' ? data.window.title : undefined;
  let text: string;
  if (data.llmMode === 'fast' && analysis.trim() !== '') {
    text = firstSentence(analysis);
  } else {
    const lines = /Text on screen \((\d+) line/.exec(analysis)?.[1];
    text = `${title ?? 'no active window'}${lines === undefined ? '' : ` · ${lines} lines`}`;
  }
  return { text: shorten(text, STATUS_TEXT_MAX), tooltip: analysis || result.observation };
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end < 0 ? flat : flat.slice(0, end + 1);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
