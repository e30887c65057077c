// What a tool card says to people: the call's input as they may see it, a refusal in words, the
// first lines a screen reading read. The model gets the call's own form; the chat, these words.
import { screenTextForPeople } from '../../common/screenText';
import { escapeInvisibleJson } from '../../common/invisibleText';
import { previewValue } from '../../common/inputLimits';

const MAX_INPUT_CHARS = 2_000;

/** A card the person denied. */
export const DENIED_BY_PERSON = 'You denied it; nothing was done.';

/** Lines of a reading shown on its card (the model gets all of it). */
const TEXT_READ_LINES = 8;

/**
 * A screen reading's card says what was read, not only how many words: the first lines of the
 * text the tool gave the model (its screen-text block), after the tool's sentence.
 */
export function withTextRead(observation: string, data: unknown): string {
  const block = (data as { fullText?: unknown } | undefined)?.fullText;
  if (typeof block !== 'string') return observation;
  const lines = screenTextForPeople(block).split('\n').map((line) => line.trim()).filter(Boolean);
  if (lines.length === 0) return `${observation}\nNo text was read.`;
  const shown = lines.slice(0, TEXT_READ_LINES).map((line) => (line.length > 100 ? `${line.slice(0, 99)}…` : line));
  return [observation, ...shown, ...(lines.length > TEXT_READ_LINES ? [`… and ${lines.length - TEXT_READ_LINES} more line(s)`] : [])].join('\n');
}

/**
 * A refused call in words for the person: the card already says what the call was, so not the
 * model's form of it (`click did NOT run (the user denied it): click {"text":"5"} did not happen.`).
 */
export function deniedInWords(observation: string, byThePerson: boolean): string {
  if (byThePerson) return DENIED_BY_PERSON;
  const why = /^\S+ did NOT run(?: \((.*)\): .* did not happen\.|: (.*?)\.?)$/s.exec(observation);
  const reason = why?.[1] ?? why?.[2];
  return reason ? `Not done: ${reason}.` : observation;
}

export function formatInput(input: unknown): string {
  // A bounded copy first: the input may be nested too deep for JSON.stringify.
  // Invisible and control characters as JSON escapes: the card shows what will be typed, all of it.
  const text = escapeInvisibleJson(JSON.stringify(previewValue(input), null, 2) ?? '');
  return text.length > MAX_INPUT_CHARS ? `${text.slice(0, MAX_INPUT_CHARS)}…` : text;
}
