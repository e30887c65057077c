// The status bar's one line about the screen. By default it costs nothing: the active window
// (from the windows port) and the last action the agent did, with how long ago. The model's
// summary (a quick smart_screen_reader result) only when the person asks for it.
import { screenTextForPeople } from '../../common/screenText';
import type { ToolResult } from '../../tools/toolTypes';

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

/** The newest action that worked (a click, typing, a replayed step). */
export interface LastAction {
  tool: string;
  observation: string;
  /** Date.now() when it ended. */
  at: number;
  /** The active window right after it, when the status bar saw it. */
  window?: string;
}

/**
 * The free line: "Clicked "7" in galculator · 5 s ago", or the active window alone before any
 * action. The observation's first clause stands for the action ("Clicked "7" at (…), found
 * through OCR." → "Clicked "7"").
 */
export function freeStatus(window: string | undefined, last: LastAction | undefined, now: number): StatusSummary {
  const active = window ?? 'no active window';
  if (!last) return { text: shorten(active, STATUS_TEXT_MAX), tooltip: `Active window: ${active}` };
  const what = actionHead(last.observation);
  const where = last.window ?? window;
  const ago = agoText(now - last.at);
  const text = `${shorten(where ? `${what} in ${where}` : what, STATUS_TEXT_MAX)} · ${ago}`;
  return { text, tooltip: `Last action (${last.tool}, ${ago}): ${last.observation}\nActive window: ${active}` };
}

/** "just now", "5 s ago", "3 min ago", "2 h ago". */
export function agoText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 2) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

function actionHead(observation: string): string {
  const flat = observation.replace(/\s+/g, ' ').trim();
  const cut = flat.search(/ at \(|, |[.!?](\s|$)/);
  return (cut < 0 ? flat : flat.slice(0, cut)) || 'Acted';
}
