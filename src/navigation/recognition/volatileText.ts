// Normalising OCR text into stable tokens: what changes while a screen stays "the same
// screen" (clocks, dates, counters, sizes, ids) is dropped, so it cannot make a new node.

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAY = '(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)';
const UNIT_TIME = '(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mos?|months?|y|yrs?|years?)';

/** Applied in order to a lower-cased line, before punctuation is removed (times need ':'). */
const VOLATILE_PATTERNS: RegExp[] = [
  // Relative times: "5 minutes ago", "an hour ago", "just now".
  new RegExp(`\\b(?:\\d+|an?|one)\\s*${UNIT_TIME}\\s+ago\\b`, 'g'),
  /\bjust now\b/g,
  // Weekday names next to a date or time ("Tue 12:34", "Monday, 3 March").
  new RegExp(`\\b${WEEKDAY}\\.?,?\\s+(?=\\d|${MONTH})`, 'g'),
  // Clock times: 12:34, 12:34:56, 3:05 pm, 3:05pm, 3 p.m.
  /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?\s?m\b\.?)?/g,
  /\b\d{1,2}\s*[ap]\.?m\b\.?/g,
  // Dates: 2024-03-05, 2024/3/5, 05.03.2024, 3/5/24, "5 March 2024", "Mar 5, 2024", "March 5th".
  /\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b/g,
  /\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b/g,
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\b\\.?(?:,?\\s+\\d{4})?`, 'g'),
  new RegExp(`\\b${MONTH}\\b\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?\\b(?:,?\\s+\\d{4})?`, 'g'),
  // Durations: "12 ms", "3.5 s", "2h 15m", "1h".
  /\b\d+h(?:\s*\d+m)?(?:\s*\d+s)?\b/g,
  new RegExp(`\\b\\d+(?:[.,]\\d+)?\\s*${UNIT_TIME}\\b`, 'g'),
  // Sizes and counters with a unit: "1.2 MB", "512 KiB", "3 bytes", "1.5k".
  /\b\d+(?:[.,]\d+)?\s*(?:bytes?|[kmgt]i?b|[kmb])\b/g,
  // Percentages.
  /[-+]?\d+(?:[.,]\d+)?\s*%/g,
  // UUIDs.
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
];

/** Scripts whose single characters are words (an OCR'd "x" or "l" alone is noise). */
const WORD_CHARACTER = /^[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

/** True for tokens that change while the screen stays the same: numbers, counters, ids. */
export function isVolatileToken(token: string): boolean {
  if (/^\d+$/.test(token)) return true; // pure numbers and counters
  if (/\d{4,}/.test(token)) return true; // long digit runs: ids, serials, timestamps
  if (/^\d+(?:st|nd|rd|th)$/.test(token)) return true; // ordinals
  if (token.length >= 6 && /^(?:0x)?[0-9a-f]+$/.test(token) && /\d/.test(token)) return true; // hex ids and hashes
  if (token.length === 1 && !WORD_CHARACTER.test(token)) return true; // single Latin letters: OCR noise
  return false;
}

/**
 * The stable words of a line, lower-cased: Unicode-normalised, volatile phrases removed,
 * punctuation turned into spaces, volatile tokens dropped. "Updated 5 minutes ago (3)" →
 * ["updated"].
 */
export function stableTokens(text: string): string[] {
  let line = text.normalize('NFKC').toLowerCase();
  for (const pattern of VOLATILE_PATTERNS) line = line.replace(pattern, ' ');
  return line
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0 && !isVolatileToken(token));
}

/** A line's canonical form: its stable tokens joined by single spaces ('' when none). */
export function canonicalLine(text: string): string {
  return stableTokens(text).join(' ');
}

/** For display: whitespace collapsed and volatile phrases left in (labels keep what people see). */
export function tidyLine(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim();
}
