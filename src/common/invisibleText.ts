// Characters a person cannot see, or that change how the text around them is shown, made
// visible as escapes wherever a person approves or reads a call: a zero-width space hides a
// word break, a bidi override (U+202E) makes "exe.txt" read as "txt.exe", an escape sequence
// recolours or clears a terminal. The text typed is unchanged; only what is shown is escaped.

/**
 * C0 and C1 controls (not the ordinary space), soft hyphen, combining grapheme joiner, Arabic
 * letter mark, Hangul fillers, Mongolian vowel separator, zero-width and bidi controls,
 * invisible operators, BOM, interlinear annotations, and the Unicode tag block.
 */
// The point of this pattern is to match controls and combining marks, which these rules forbid elsewhere.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

const SHORT_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u001b': '\\x1b' };

/** Whether the text holds any character escapeInvisible would show escaped. */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/**
 * Plain text for a person: each invisible or control character becomes `\t`, `\n`, `\r`,
 * `\x1b` or `\uXXXX` (`\u{XXXXX}` beyond the BMP). A backslash already in the text is left
 * alone: the escapes are for seeing, not for decoding. `keepLayout` keeps line breaks and tabs
 * (text read from the screen, where they are its layout).
 */
export function escapeInvisible(text: string, options: { keepLayout?: boolean } = {}): string {
  return text.replace(INVISIBLE, (char) => {
    if (options.keepLayout && (char === '\n' || char === '\t')) return char;
    return SHORT_ESCAPES[char] ?? codeEscape(char);
  });
}

/**
 * A JSON text with its invisible characters escaped the JSON way (`\u202e`), so it stays
 * valid JSON that parses to the same value. JSON.stringify already escapes C0 controls;
 * this adds the rest (bidi, zero-width, C1, tags) and leaves the layout of pretty-printed JSON.
 */
export function escapeInvisibleJson(json: string): string {
  // Raw line breaks and tabs in a JSON text are its layout (stringify escapes those inside strings).
  return json.replace(INVISIBLE, (char) => (char === '\n' || char === '\t' || char === '\r' ? char : jsonEscape(char)));
}

function codeEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function jsonEscape(char: string): string {
  // One UTF-16 unit each: a tag character is escaped as its surrogate pair, as JSON wants.
  return Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
}
