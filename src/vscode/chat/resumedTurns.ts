// A reopened conversation goes on where it stopped: its earlier requests, replies and actions as
// the model's history, rebuilt from what the chat kept (already redacted, pictures never kept).
// Actions become lines of the reply that ran them, in words; errors and notices are left out.
// No vscode import: unit-tested directly.
import type { ChatEntry } from '../../shared/protocol';

export interface ResumedTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** What one action line keeps of a card's input and result. */
const INPUT_CHARS = 200;
const RESULT_CHARS = 300;
/** The whole history given back: recent turns first kept, as the model's own history trims. */
const TOTAL_CHARS = 60_000;

export function turnsFromEntries(entries: readonly ChatEntry[]): ResumedTurn[] {
  const turns: ResumedTurn[] = [];
  const say = (role: ResumedTurn['role'], text: string): void => {
    const last = turns.at(-1);
    if (last?.role === role) last.text = `${last.text}\n${text}`;
    else turns.push({ role, text });
  };
  for (const entry of entries) {
    if (entry.kind === 'user') say('user', entry.text);
    else if (entry.kind === 'assistant' && entry.text.trim() !== '') say('assistant', entry.text);
    else if (entry.kind === 'tool') say('assistant', actionLine(entry));
  }
  return withinBudget(turns);
}

/** `[click {"text":"7"}: done. Clicked "7" at (1520, 570).]`: what was done and what came of it. */
function actionLine(entry: Extract<ChatEntry, { kind: 'tool' }>): string {
  const input = shorten(entry.input.replace(/\s*\n\s*/g, ' '), INPUT_CHARS);
  const result = entry.observation ? ` ${shorten(entry.observation.replace(/\s*\n\s*/g, ' '), RESULT_CHARS)}` : '';
  return `[${entry.name} ${input}: ${entry.status}.${result}]`;
}

/** The newest turns that fit, starting with a person's turn (the APIs want the history to). */
function withinBudget(turns: ResumedTurn[]): ResumedTurn[] {
  let used = 0;
  let first = turns.length;
  while (first > 0 && used + turns[first - 1]!.text.length <= TOTAL_CHARS) used += turns[--first]!.text.length;
  while (first < turns.length && turns[first]!.role !== 'user') first++;
  return turns.slice(first);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
