import { centreOf, containsPoint, type BBox } from '../../common/geometry';
import type { AccessibleElement } from '../ports/accessibilityPort';
import type { OcrEngine } from '../ports/ocrPort';
import type { ScreenImage } from '../ports/screenPort';
import { cropRegion } from '../ocr/layeredOcr';
import { findTextRegions, type TextRegion, type TextWord } from '../ocr/textRegions';
import { isShortQuery } from './targetRules';
import { findCandidates, tokenize } from './textLocator';

// Whether the active window shows a label its tree does not mention, told from its pixels
// without reading them all. Where text is drawn is found without recognizing it (glyph shapes);
// text drawn inside a tree element that has about as many characters as the glyphs there is
// that element's (a button draws its name, a paragraph its text); only what is left over, text
// that no element accounts for, is read, and only where it is long enough to be the label. A
// window GAI has not seen active before then needs no whole-window OCR to be passed over: that
// OCR (0.2-2 s) was the slowest step of a click on a busy desktop.

/** Glyphs drawn in an element beyond this many per character of its name and text are not its own. */
const GLYPHS_PER_CHAR = 1.3;
const GLYPH_SLACK = 2;
/** Fewer glyphs than this per character of a name, and the element draws an icon or a glyph, not its name (joined letters: "rn"). */
const GLYPHS_PER_NAMED_CHAR = 0.6;
/** More pieces of text than this to read, or a larger sheet of them, and the whole reading is cheaper and surer. */
const MAX_PIECES = 120;
const MAX_SHEET_PIXELS = 600_000;
/** Rows and columns of white around each piece on the sheet. */
const SHEET_GAP = 8;
/** UI text is 10-16 px high: read at twice that. */
const SHEET_SCALE = 2;
/** A window with more text regions than this is a document the tree does not hold: read it whole. */
const MAX_REGIONS = 600;
/** Named elements needed to judge the glyph search by, and the share of them it must see text in. */
const MIN_NAMED = 3;
const MIN_SEEN_SHARE = 0.5;

export type PixelVerdict =
  /**
   * `read`: the words of the pieces read, text the tree does not have; `minChars`: shorter labels
   * were not looked for; `glyphs`: every glyph no element accounts for was read, those drawn in
   * elements named in words too (a glyph label was checked).
   */
  | { absent: true; regions: number; crops: number; read: string[]; minChars: number; glyphs: boolean }
  /** Drawn or maybe drawn, or too much unaccounted text to tell cheaply: read the window. */
  | { absent: false; why: string };

/**
 * Tells whether `image` (the active window's uncovered pixels) can show `text`, given the
 * window's tree elements (`elements`, none of which mentions the text). `covered`: parts of the
 * image other windows draw over, whose text is not the window's.
 */
export async function labelAbsentFromPixels(
  image: ScreenImage,
  elements: readonly AccessibleElement[],
  text: string,
  ocr: OcrEngine,
  options: { covered?: readonly BBox[]; signal?: AbortSignal } = {},
): Promise<PixelVerdict> {
  // A glyph or a lone character ("−", "<-", "7"): a glyph may be a button named in words ("−" is
  // "Zoom out", "←" is "Back"), so an element drawing far fewer glyphs than its name has
  // characters does not account for them, and every glyph left is read. Two letters or digits
  // are read where OCR finds them, like longer labels.
  const glyphs = isShortQuery(text) && !/^[\p{L}\p{N}]{2}$/u.test(text.normalize('NFKC').trim());
  // Text is read as for the shortest label checked by letters (two), whatever the label: then
  // what is learnt judges every later label of the window but glyphs, and a window's first
  // check for a long label does not leave a check to do for each shorter one.
  const wanted = glyphs ? 1 : Math.min(charCount(text), 2);
  // Each word of the label named somewhere in the tree: drawn side by side, they may be the label.
  const words = tokenize(text);
  if (words.length > 1 && words.every((w) => elements.some((e) => tokenize(`${e.name} ${e.text ?? ''}`).includes(w)))) return { absent: false, why: 'its words are in the tree apart' };
  const { regions, seen, pieces, owner } = accountForText(image, elements, options.covered ?? [], wanted, glyphs);
  if (regions.length >= MAX_REGIONS) return { absent: false, why: `${regions.length} text regions` };
  // The glyph search must see the tree's own text where it is drawn, or its silence proves nothing
  // (text fainter than it finds, fonts larger than a glyph): then the window is read.
  if (seen < MIN_SEEN_SHARE) return { absent: false, why: `glyphs found in ${Math.round(100 * seen)}% of the named elements` };
  if (pieces.length > MAX_PIECES) return { absent: false, why: `${pieces.length} pieces of text the tree does not account for` };
  const sheet = pieces.length > 0 ? stackPieces(image, pieces) : undefined;
  if (sheet && sheet.image.width * sheet.image.height > MAX_SHEET_PIXELS) return { absent: false, why: 'too much text the tree does not account for' };
  // Letters and digits read well in one pass over crops cut to the text (0.13 s where both
  // passes took 0.6 s); glyphs get the second look at what read poorly.
  const firstPassOnly = !glyphs;
  const reading = sheet ? await ocr.recognize(sheet.image, { scale: SHEET_SCALE, ...(firstPassOnly ? { firstPassOnly } : {}), ...(options.signal ? { signal: options.signal } : {}) }) : { fullText: '', elements: [] };
  // Anything like the label (fuzzy, a part of a word) is a reason to read the window properly.
  if (findCandidates(reading, text).length > 0) return { absent: false, why: 'read there' };
  const readWords = reading.elements.filter((e) => e.level === 'word' && e.text.trim());
  // A glyph an element named in words draws that OCR reads as nothing may be the one asked for:
  // the whole reading's rules judge that button (a small button whose name was not read).
  const unreadGlyph = glyphs && sheet !== undefined && sheet.bands.some((band, i) => pieces[i]!.words.some((w) => owner.get(w) === undefined && iconOf(w, elements)) && !readWords.some((e) => overlapsBand(e.bbox, band)));
  if (unreadGlyph) return { absent: false, why: 'a glyph of a button named in words was not read' };
  const read = readWords.map((e) => e.text.trim());
  // Every line with text no element accounts for was read, as for a label of `wanted` characters
  // (letter-shaped words; with `glyphs`, every shape): such labels and longer ones were looked for.
  return { absent: true, regions: regions.length, crops: pieces.length, read, minChars: wanted, glyphs };
}

/** What the tree accounts for of the text drawn in the image, and the lines it leaves to read (for a label of `wanted` characters). */
export interface TextAccount {
  regions: TextRegion[];
  /** The share of named elements the glyph search found text in. */
  seen: number;
  pieces: TextRegion[];
  /** The element each word was put down to, or undefined where none accounts for it. */
  owner: Map<TextWord, AccessibleElement | undefined>;
}

export function accountForText(image: ScreenImage, elements: readonly AccessibleElement[], covered: readonly BBox[], wanted: number, glyphs = false): TextAccount {
  const regions = findTextRegions(image, { maxRegions: MAX_REGIONS, minFlatness: 0 });
  const owner = ownWords(regions, elements, covered, glyphs);
  return { regions, owner, seen: seenShare(elements, regions, covered), pieces: unaccounted(regions, owner, wanted, glyphs) };
}

/**
 * The words each element accounts for: a word goes to the smallest element with text around its
 * centre. With `glyphs`, an element named in words that draws far fewer glyphs does not account
 * for them: it is an icon or a glyph button ("Back" drawing "←").
 */
function ownWords(regions: readonly TextRegion[], elements: readonly AccessibleElement[], covered: readonly BBox[], glyphs: boolean): Map<TextWord, AccessibleElement | undefined> {
  const chars = new Map(elements.map((e) => [e, charCount(`${e.name}${e.text ?? ''}`)]));
  const texted = elements.filter((e) => chars.get(e)! > 0).sort((a, b) => a.bbox.width * a.bbox.height - b.bbox.width * b.bbox.height);
  const owner = new Map<TextWord, AccessibleElement | undefined>();
  const drawn = new Map<AccessibleElement, number>();
  for (const region of regions) {
    for (const word of region.words) {
      const at = centreOf(word.bbox);
      if (covered.some((c) => containsPoint(c, at))) continue; // another window's text
      const element = texted.find((e) => containsPoint(e.bbox, at));
      owner.set(word, element);
      if (element) drawn.set(element, (drawn.get(element) ?? 0) + word.glyphs);
    }
  }
  // An element drawing far more than its name and text holds text the tree does not have.
  for (const [word, element] of owner) {
    if (!element) continue;
    const glyphsDrawn = drawn.get(element)!;
    const named = chars.get(element)!;
    if (glyphsDrawn > GLYPHS_PER_CHAR * named + GLYPH_SLACK) owner.set(word, undefined);
    // A text (a document, a field) may be longer than what shows; a name is drawn whole.
    else if (glyphs && !element.text && glyphsDrawn < GLYPHS_PER_NAMED_CHAR * named) owner.set(word, undefined);
  }
  return owner;
}

/** The share of the window's named elements (not covered) inside which the glyph search found text; 0 with too few. */
function seenShare(elements: readonly AccessibleElement[], regions: readonly TextRegion[], covered: readonly BBox[]): number {
  const named = elements.filter((e) => charCount(e.name) >= 2 && !covered.some((c) => containsPoint(c, centreOf(e.bbox))));
  if (named.length < MIN_NAMED) return 0;
  const centres = regions.flatMap((r) => r.words.map((w) => centreOf(w.bbox)));
  return named.filter((e) => centres.some((c) => containsPoint(e.bbox, c))).length / named.length;
}

/**
 * The lines holding words that no element accounts for, as long together as half the label at
 * least. Read whole: the label may run on into a word an element does account for. A glyph
 * label (`glyphs`) may be any shape; letters are not specks, rules or, for two or more, one
 * thin stroke.
 */
function unaccounted(regions: readonly TextRegion[], owner: ReadonlyMap<TextWord, AccessibleElement | undefined>, wanted: number, glyphs: boolean): TextRegion[] {
  return regions.filter((region) => {
    const loose = region.words.filter((w) => owner.has(w) && owner.get(w) === undefined && (glyphs || canBeLetters(w, wanted)));
    // Glyph shapes join ("rn") and split ("i"): far fewer than the label's characters are not it.
    return loose.length > 0 && loose.reduce((n, w) => n + w.glyphs, 0) >= Math.floor(wanted / 2);
  });
}

/** Smallest height of a word of letters the whole-window reading reads (x-height of small UI text). */
const MIN_LETTER_HEIGHT = 6;
/** A single shape wider than this many times its height, and lower than text with an underline, is a rule. */
const RULE_ASPECT = 4;
const MAX_RULE_HEIGHT = 10;

/** Whether a word's shape can show part of a label of `wanted` letters and digits: specks, rules and a lone thin stroke ("l", "|", a border) cannot. */
function canBeLetters(word: TextWord, wanted: number): boolean {
  const { width, height } = word.bbox;
  if (height < MIN_LETTER_HEIGHT && width < MIN_LETTER_HEIGHT) return false;
  if (word.glyphs === 1 && width >= RULE_ASPECT * height && height < MAX_RULE_HEIGHT) return false;
  // One narrow shape is one character at most: two or more are not drawn as one.
  return !(wanted >= 2 && word.glyphs === 1 && 3 * width <= height);
}

/** Whether a word lies in an element named in words (two characters or more) that has no text: a button, an icon. */
function iconOf(word: TextWord, elements: readonly AccessibleElement[]): boolean {
  const at = centreOf(word.bbox);
  return elements.some((e) => !e.text && charCount(e.name) >= 2 && containsPoint(e.bbox, at));
}

function overlapsBand(box: BBox, band: { top: number; bottom: number }): boolean {
  return box.y < band.bottom && box.y + box.height > band.top;
}

/**
 * The pieces cropped (ink on white) and stacked in one image, a gap between: one OCR call for
 * all of them (22 pieces took 1.2 s one call each, 0.24 s stacked). `bands`: each piece's rows.
 */
function stackPieces(image: ScreenImage, pieces: readonly TextRegion[]): { image: ScreenImage; bands: Array<{ top: number; bottom: number }> } {
  const crops = pieces.map((piece) => cropRegion(image, piece));
  const width = Math.max(...crops.map((c) => c.width)) + 2 * SHEET_GAP;
  const height = crops.reduce((n, c) => n + c.height + SHEET_GAP, SHEET_GAP);
  const data = Buffer.alloc(width * height * 4, 255);
  const bands: Array<{ top: number; bottom: number }> = [];
  let top = SHEET_GAP;
  for (const crop of crops) {
    for (let row = 0; row < crop.height; row++) crop.data.copy(data, ((top + row) * width + SHEET_GAP) * 4, row * crop.width * 4, (row + 1) * crop.width * 4);
    bands.push({ top, bottom: top + crop.height });
    top += crop.height + SHEET_GAP;
  }
  return { image: { width, height, data, origin: { x: 0, y: 0 } }, bands };
}

export function charCount(text: string): number {
  return tokenize(text).join('').length;
}
