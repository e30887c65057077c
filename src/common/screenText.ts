import { boundText } from './inputLimits';
import { escapeInvisible } from './invisibleText';

// Text read from the screen is data, never instructions (issue 11). Free text from the screen
// reaches the model inside one delimited block:
//
//   <screen_text source="ocr" area="the screen">
//   …the text…
//   </screen_text>
//
// The text cannot close the block early or open a fake one: every marker-like sequence in it
// (any case, spaces, `_`/`-`/space between the words, full-width or angle-quote brackets,
// `&lt;`, a JSON-escaped slash) has its bracket escaped as `&lt;`; invisible characters (the
// Unicode tag block can smuggle whole sentences past a person) are shown escaped.

export const SCREEN_TEXT_TAG = 'screen_text';

/** An opening bracket (or one that reads like it), an optional slash, and the tag's two words. */
const MARKER = /(<|\uff1c|\ufe64|\u2039|\u2329|\u27e8|\u3008|&lt;|&#0*60;|&#x0*3c;)(\s*(?:[\\/\uff0f]\s*)*screen[\s_\-\u2010-\u2015\u200b-\u200d\u2060]*text)/gi;

const MAX_ATTRIBUTE_CHARS = 120;

export interface ScreenTextOrigin {
  /** How it was read: `ocr`, `accessibility`, `window title`, `fast model summary`, … */
  source: string;
  /** Which part of the screen, e.g. `the screen` or `region 200x100 at (10, 20)`. */
  area?: string;
  /** The window's title, when the text is from one window. */
  window?: string;
}

/** The text in a block the model can tell apart from everything the tool itself says. */
export function screenTextBlock(text: string, origin: ScreenTextOrigin): string {
  const attributes = [`source="${attribute(origin.source)}"`];
  if (origin.area !== undefined) attributes.push(`area="${attribute(origin.area)}"`);
  if (origin.window !== undefined) attributes.push(`window="${attribute(origin.window)}"`);
  return `<${SCREEN_TEXT_TAG} ${attributes.join(' ')}>\n${neutralizeScreenText(text)}\n</${SCREEN_TEXT_TAG}>`;
}

/**
 * Screen text that may sit anywhere in a result (a JSON field, a quoted word): markers of the
 * block made inert, invisible characters shown escaped. Line breaks and tabs stay.
 */
export function neutralizeScreenText(text: string): string {
  return escapeInvisible(text, { keepLayout: true }).replace(MARKER, (_match, bracket: string, rest: string) =>
    bracket.startsWith('&') ? `&amp;${bracket.slice(1)}${rest}` : `&lt;${rest}`,
  );
}

/**
 * Screen text inside a tool's own sentence (an observation): quoted as a JSON string, so a
 * quote or a line break in it cannot end the quotation and speak in the tool's voice.
 */
export function quoteScreenText(text: string, maxChars = 80): string {
  return JSON.stringify(boundText(neutralizeScreenText(text), maxChars));
}

function attribute(value: string): string {
  const flat = neutralizeScreenText(value).replace(/\s+/g, ' ').trim();
  return boundText(flat, MAX_ATTRIBUTE_CHARS).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * For a person's eyes (the status bar, a chat entry): the text of a string that is one screen
 * text block, without its markers; any other string as it is. Its inner text stays neutralised.
 */
export function screenTextForPeople(value: string): string {
  const block = new RegExp(`^<${SCREEN_TEXT_TAG}(?: [^>\\n]*)?>\\n([\\s\\S]*)\\n</${SCREEN_TEXT_TAG}>$`).exec(value.trim());
  return block ? block[1]! : value;
}
