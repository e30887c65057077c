// What of a window's text is not navigation: the menu bar (the same words on every screen of an
// app, read a little differently each time), menu words in general (an open popup menu is
// transient), and in a document window (an editor) which document is open: its name in the
// title, its tab strip and the editor area under it. Left in, they would split one screen into
// several nodes and name nodes "galculator — Help" or after whichever file was open.
import { centreY, type BBox } from '../../common/geometry';
import type { OcrElement } from '../../desktop/ocr/ocrTypes';
import { canonicalLine, tidyLine } from './volatileText';

/** Words of menu bars and their popup menus; a line made only of these names no screen. */
const MENU_WORDS: ReadonlySet<string> = new Set(
  [
    'file edit view help tools window go run terminal selection insert format options preferences settings',
    'bookmarks history image layer select filter colors tabs debug project build search navigate code refactor',
    'new open recent save as all close quit exit print page setup undo redo cut copy paste delete find replace',
    'next previous about contents documentation keyboard shortcuts zoom in out full screen reload import export',
    'properties calculator mode sheet',
  ]
    .join(' ')
    .split(' '),
);

/** A line of menu words only ("File Edit View Help", "Save As…"): chrome, not a screen's name. */
export function isMenuLine(text: string): boolean {
  const words = canonicalLine(text).split(' ').filter(Boolean);
  return words.length > 0 && words.every((word) => MENU_WORDS.has(word));
}

/** A title segment naming a document: "notes.txt", "● main.ts", "*report.md", "Untitled-1". */
// Also a path ("/tmp/notes.txt - Mousepad", "~/src/main.ts"): some editors title the whole path.
const DOCUMENT_NAME = /^(?:[●•*]\s*)?(?:[\p{L}\p{N}_ .()[\]+~/\\:-]{1,200}\.[\p{L}\p{N}]{1,8}|untitled(?:[- ]\d+)?)(?:\s*[●•*])?$/iu;
const TITLE_SEPARATOR = /\s+[—–-]\s+/u;

/** A browser's title may be a host name ("example.com — Firefox"): pages, not documents. */
const WEB_SUFFIX = /\.(?:com|org|net|io|dev|gov|edu|co|info|app|uk|de|fr|jp|ru|cn|eu|us)$/i;

function isDocumentName(segment: string): boolean {
  const name = segment.trim();
  return DOCUMENT_NAME.test(name) && !WEB_SUFFIX.test(name.replace(/\s*[●•*]$/u, ''));
}

/** The open document's name when the title is "<document> — <app>" (or has it as any segment). */
export function documentOfTitle(title: string): string | undefined {
  const segments = tidyLine(title).split(TITLE_SEPARATOR);
  if (segments.length < 2) return undefined;
  const document = segments.find(isDocumentName);
  return document?.replace(/^[●•*]\s*|\s*[●•*]$/gu, '').trim();
}

/** The title without its document segment: the window of an editor, whichever file is open. */
export function stableTitle(title: string): string {
  const tidy = tidyLine(title);
  const segments = tidy.split(TITLE_SEPARATOR);
  if (segments.length < 2 || documentOfTitle(tidy) === undefined) return tidy;
  return segments.filter((segment) => !isDocumentName(segment)).join(' — ');
}

/** Elements whose centres share a row with `element` (vertical overlap of the centre). */
function onRowOf(element: OcrElement, all: readonly OcrElement[]): OcrElement[] {
  const top = element.bbox.y;
  const bottom = element.bbox.y + element.bbox.height;
  return all.filter((e) => {
    const centre = centreY(e.bbox);
    return centre >= top && centre <= bottom;
  });
}

const FILE_TOKEN = /[\p{L}\p{N}_-]\.[\p{L}\p{N}]{1,8}\b/u;

/**
 * The editor area of a document window: from the tab strip (the row that shows the open
 * document's name, starting at its leftmost file-name tab) down to the window's bottom. What
 * lies in it is content: another tab open is the same screen. Undefined when the window names
 * no document or its tab is not on the screen.
 */
export function editorArea(title: string, lines: readonly OcrElement[], window: BBox | undefined): BBox | undefined {
  const document = documentOfTitle(title);
  if (!document) return undefined;
  // A tab shows the file's name, not the path a title may give.
  const name = canonicalLine(document.split(/[\\/]/).pop() ?? document);
  if (!name) return undefined;
  // The topmost line showing the document's name is its tab (the editor's text may repeat it below).
  const tab = [...lines].sort((a, b) => a.bbox.y - b.bbox.y).find((e) => canonicalLine(e.text).includes(name));
  if (!tab) return undefined;
  const tabs = onRowOf(tab, lines).filter((e) => e === tab || FILE_TOKEN.test(e.text));
  const left = Math.min(...tabs.map((e) => e.bbox.x)) - tab.bbox.height;
  const top = Math.min(...tabs.map((e) => e.bbox.y)) - tab.bbox.height / 2;
  const right = window ? window.x + window.width : Number.MAX_SAFE_INTEGER / 2;
  const bottom = window ? window.y + window.height : Number.MAX_SAFE_INTEGER / 2;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The menu bar: the window's topmost row of text when it holds menu words only (at least two). */
export function menuBarRow(lines: readonly OcrElement[], window: BBox | undefined): OcrElement[] {
  const first = [...lines].sort((a, b) => a.bbox.y - b.bbox.y)[0];
  if (!first) return [];
  // A menu bar sits at the top of the client area; a first line further down is the page's.
  if (window && first.bbox.y - window.y > Math.max(60, 3 * first.bbox.height)) return [];
  const row = onRowOf(first, lines);
  const words = row.flatMap((e) => canonicalLine(e.text).split(' ').filter(Boolean));
  return words.length >= 2 && row.every((e) => isMenuLine(e.text)) ? row : [];
}
