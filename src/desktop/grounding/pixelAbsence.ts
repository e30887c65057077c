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
  /** `read`: the words of the pieces read, text the tree does not have; `minChars`: shorter labels were not looked for. */
  | { absent: true; regions: number; crops: number; read: string[]; minChars: number }
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
  const wanted = charCount(text);
  // Of short labels, two letters or digits only: OCR reads those where they are drawn, but a
  // glyph may be a button named in words ("−" is "Zoom out") and a lone character is too easily
  // misread to rule out.
  if (isShortQuery(text) && !/^[\p{L}\p{N}]{2}$/u.test(text.normalize('NFKC').trim())) return { absent: false, why: 'a glyph or one character' };
  // Each word of the label named somewhere in the tree: drawn side by side, they may be the label.
  const words = tokenize(text);
  if (words.length > 1 && words.every((w) => elements.some((e) => tokenize(`${e.name} ${e.text ?? ''}`).includes(w)))) return { absent: false, why: 'its words are in the tree apart' };
  const { regions, seen, pieces } = accountForText(image, elements, options.covered ?? [], wanted);
  if (regions.length >= MAX_REGIONS) return { absent: false, why: `${regions.length} text regions` };
  // The glyph search must see the tree's own text where it is drawn, or its silence proves nothing
  // (text fainter than it finds, fonts larger than a glyph): then the window is read.
  if (seen < MIN_SEEN_SHARE) return { absent: false, why: `glyphs found in ${Math.round(100 * seen)}% of the named elements` };
  if (pieces.length > MAX_PIECES) return { absent: false, why: `${pieces.length} pieces of text the tree does not account for` };
  const sheet = pieces.length > 0 ? stackPieces(image, pieces) : undefined;
  if (sheet && sheet.width * sheet.height > MAX_SHEET_PIXELS) return { absent: false, why: 'too much text the tree does not account for' };
  const reading = sheet ? await ocr.recognize(sheet, { scale: SHEET_SCALE, ...(options.signal ? { signal: options.signal } : {}) }) : { fullText: '', elements: [] };
  // Anything like the label (fuzzy, a part of a word) is a reason to read the window properly.
  if (findCandidates(reading, text).length > 0) return { absent: false, why: 'read there' };
  const read = reading.elements.filter((e) => e.level === 'word').map((e) => e.text.trim()).filter(Boolean);
  // A label of n characters needs a piece of n/2 glyphs at least: longer labels were covered too.
  return { absent: true, regions: regions.length, crops: pieces.length, read, minChars: wanted };
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

export function accountForText(image: ScreenImage, elements: readonly AccessibleElement[], covered: readonly BBox[], wanted: number): TextAccount {
  const regions = findTextRegions(image, { maxRegions: MAX_REGIONS, minFlatness: 0 });
  const owner = ownWords(regions, elements, covered);
  return { regions, owner, seen: seenShare(elements, regions, covered), pieces: unaccounted(regions, owner, wanted) };
}

/** The words each element accounts for: a word goes to the smallest element with text around its centre. */
function ownWords(regions: readonly TextRegion[], elements: readonly AccessibleElement[], covered: readonly BBox[]): Map<TextWord, AccessibleElement | undefined> {
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
    if (element && drawn.get(element)! > GLYPHS_PER_CHAR * chars.get(element)! + GLYPH_SLACK) owner.set(word, undefined);
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
 * least. Read whole: the label may run on into a word an element does account for.
 */
function unaccounted(regions: readonly TextRegion[], owner: ReadonlyMap<TextWord, AccessibleElement | undefined>, wanted: number): TextRegion[] {
  return regions.filter((region) => {
    const loose = region.words.filter((w) => owner.has(w) && owner.get(w) === undefined);
    // Glyph shapes join ("rn") and split ("i"): far fewer than the label's characters are not it.
    return loose.length > 0 && loose.reduce((n, w) => n + w.glyphs, 0) >= Math.floor(wanted / 2);
  });
}

/**
 * The pieces cropped (ink on white) and stacked in one image, a gap between: one OCR call for
 * all of them (22 pieces took 1.2 s one call each, 0.24 s stacked).
 */
function stackPieces(image: ScreenImage, pieces: readonly TextRegion[]): ScreenImage {
  const crops = pieces.map((piece) => cropRegion(image, piece));
  const width = Math.max(...crops.map((c) => c.width)) + 2 * SHEET_GAP;
  const height = crops.reduce((n, c) => n + c.height + SHEET_GAP, SHEET_GAP);
  const data = Buffer.alloc(width * height * 4, 255);
  let top = SHEET_GAP;
  for (const crop of crops) {
    for (let row = 0; row < crop.height; row++) crop.data.copy(data, ((top + row) * width + SHEET_GAP) * 4, row * crop.width * 4, (row + 1) * crop.width * 4);
    top += crop.height + SHEET_GAP;
  }
  return { width, height, data, origin: { x: 0, y: 0 } };
}

export function charCount(text: string): number {
  return tokenize(text).join('').length;
}
