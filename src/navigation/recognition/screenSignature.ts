// A screen state's cheap signature, so a replayed step is verified without OCR: the window's
// canonical title and size, a coarse grid of its mean brightness per cell, and the
// accessibility tree's digest where the platform has one. It is strict on purpose: every cell
// must match except those seen to change while OCR still called the screen this node (a clock,
// a counter); anything else falls back to OCR and the fingerprint, which then teaches the
// signature. A wrong "match" would let a replay act on in the wrong screen, so when in doubt
// it answers "no match".
import { clipBox, imageBounds, type BBox } from '../../common/geometry';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import { SIGNATURE_GRID, type BrainNode, type StoredSignature } from '../store/brainTypes';
import { normalizeProgram } from './fingerprint';
import { canonicalLine } from './volatileText';

/** Cells are at least this many pixels a side: smaller windows get fewer cells. */
const MIN_CELL = 8;
/** Brightness (0–255) two readings of one cell may differ by and still be the same pixels. */
const CELL_TOLERANCE = 1;
/** A changed cell marks this many neighbours on each side of its row volatile too (a clock's next digit). */
const VOLATILE_SPREAD = 1;
/** Past this share of volatile cells a signature says too little: it never matches. */
export const MAX_VOLATILE_SHARE = 0.15;

/** What was seen now: the window's identity and its grid (not yet stored). */
export interface ObservedSignature {
  programName: string;
  title: string;
  width: number;
  height: number;
  columns: number;
  rows: number;
  cells: Uint8Array;
  tree?: string;
}

export interface SignatureInput {
  programName: string;
  windowTitle: string;
  /** The window's client area in screen pixels; the whole image when unknown. */
  bounds?: BBox;
  image: ScreenImage;
  tree?: string;
}

/** The signature of a window in a frame; undefined when too little of it lies on the image. */
export function observeSignature(input: SignatureInput): ObservedSignature | undefined {
  const { image } = input;
  const area = clip(input.bounds ?? imageBounds(image), image);
  if (!area) return undefined;
  const columns = Math.max(1, Math.min(SIGNATURE_GRID.maxColumns, Math.floor(area.width / MIN_CELL)));
  const rows = Math.max(1, Math.min(SIGNATURE_GRID.maxRows, Math.floor(area.height / MIN_CELL)));
  const sums = new Float64Array(columns * rows);
  const counts = new Uint32Array(columns * rows);
  const x0 = area.x - image.origin.x;
  const y0 = area.y - image.origin.y;
  const data = image.data;
  // Every other pixel of every other row: a quarter of the work, and still every glyph's strokes.
  for (let y = 0; y < area.height; y += 2) {
    const row = Math.min(rows - 1, Math.floor((y * rows) / area.height));
    let offset = ((y0 + y) * image.width + x0) * 4;
    for (let x = 0; x < area.width; x += 2, offset += 8) {
      const cell = row * columns + Math.min(columns - 1, Math.floor((x * columns) / area.width));
      // Rec. 601 luma in integers.
      sums[cell]! += (data[offset]! * 299 + data[offset + 1]! * 587 + data[offset + 2]! * 114) / 1000;
      counts[cell]! += 1;
    }
  }
  const cells = new Uint8Array(columns * rows);
  for (let i = 0; i < cells.length; i++) cells[i] = counts[i] ? Math.round(sums[i]! / counts[i]!) : 0;
  return {
    programName: input.programName,
    title: canonicalLine(input.windowTitle).slice(0, 300),
    width: Math.round(area.width),
    height: Math.round(area.height),
    columns,
    rows,
    cells,
    ...(input.tree ? { tree: input.tree.slice(0, 200) } : {}),
  };
}

export type SignatureMatch = 'tree' | 'pixels';

/** How `observed` matches a node's stored signature, or undefined when it does not (or the node has none). */
export function matchSignature(stored: StoredSignature | undefined, observed: ObservedSignature): SignatureMatch | undefined {
  if (!stored || stored.title !== observed.title || stored.width !== observed.width || stored.height !== observed.height) return undefined;
  if (stored.tree !== undefined && stored.tree === observed.tree) return 'tree';
  if (stored.columns !== observed.columns || stored.rows !== observed.rows) return undefined;
  const cells = decodeCells(stored);
  const volatile = decodeVolatile(stored);
  if (!cells || !volatile) return undefined;
  let volatileCount = 0;
  for (let i = 0; i < cells.length; i++) {
    if (bit(volatile, i)) {
      volatileCount++;
      continue;
    }
    if (Math.abs(cells[i]! - observed.cells[i]!) > CELL_TOLERANCE) return undefined;
  }
  return volatileCount <= MAX_VOLATILE_SHARE * cells.length ? 'pixels' : undefined;
}

/**
 * The one node of the program whose signature the screen matches, or undefined when none or
 * several do (then OCR decides).
 */
export function nodeBySignature(nodes: readonly BrainNode[], observed: ObservedSignature): { node: BrainNode; by: SignatureMatch } | undefined {
  const program = normalizeProgram(observed.programName);
  let found: { node: BrainNode; by: SignatureMatch } | undefined;
  for (const node of nodes) {
    if (!node.signature || normalizeProgram(node.programName) !== program) continue;
    const by = matchSignature(node.signature, observed);
    if (!by) continue;
    if (found) return undefined;
    found = { node, by };
  }
  return found;
}

/**
 * The stored signature after OCR confirmed that `observed` is this node: cells that changed
 * become volatile (with their row neighbours); another window size or title starts afresh.
 */
export function absorbSignature(stored: StoredSignature | undefined, observed: ObservedSignature): StoredSignature {
  const cells = stored && sameGeometry(stored, observed) ? decodeCells(stored) : undefined;
  const volatile = cells && stored ? decodeVolatile(stored) : undefined;
  if (!stored || !cells || !volatile) return encode(observed, new Uint8Array(Math.ceil(observed.cells.length / 8)), 1);
  for (let i = 0; i < cells.length; i++) {
    if (Math.abs(cells[i]! - observed.cells[i]!) <= CELL_TOLERANCE) continue;
    const row = Math.floor(i / observed.columns);
    const column = i % observed.columns;
    for (let c = Math.max(0, column - VOLATILE_SPREAD); c <= Math.min(observed.columns - 1, column + VOLATILE_SPREAD); c++) setBit(volatile, row * observed.columns + c);
  }
  const tree = observed.tree ?? stored.tree;
  return encode({ ...observed, ...(tree ? { tree } : {}) }, volatile, Math.min(stored.seen + 1, 1_000_000));
}

/** Whether the stored signature is usable at all (decodes to its grid, not mostly volatile). */
export function signatureUsable(stored: StoredSignature): boolean {
  const cells = decodeCells(stored);
  const volatile = decodeVolatile(stored);
  if (!cells || !volatile) return false;
  let count = 0;
  for (let i = 0; i < cells.length; i++) if (bit(volatile, i)) count++;
  return count <= MAX_VOLATILE_SHARE * cells.length;
}

/** What is wrong with a stored signature's encoded fields (for validation), or undefined. */
export function signatureProblem(stored: StoredSignature): string | undefined {
  if (!decodeCells(stored)) return `cells: expected ${stored.columns * stored.rows} bytes (columns × rows) in base64`;
  if (!decodeVolatile(stored)) return `volatile: expected ${Math.ceil((stored.columns * stored.rows) / 8)} bytes (one bit per cell) in base64`;
  return undefined;
}

function sameGeometry(stored: StoredSignature, observed: ObservedSignature): boolean {
  return stored.title === observed.title && stored.width === observed.width && stored.height === observed.height && stored.columns === observed.columns && stored.rows === observed.rows;
}

function encode(observed: ObservedSignature, volatile: Uint8Array, seen: number): StoredSignature {
  return {
    title: observed.title,
    width: observed.width,
    height: observed.height,
    columns: observed.columns,
    rows: observed.rows,
    cells: Buffer.from(observed.cells).toString('base64'),
    volatile: Buffer.from(volatile).toString('base64'),
    ...(observed.tree ? { tree: observed.tree } : {}),
    seen,
  };
}

function decodeCells(stored: StoredSignature): Uint8Array | undefined {
  const bytes = Buffer.from(stored.cells, 'base64');
  return bytes.length === stored.columns * stored.rows ? new Uint8Array(bytes) : undefined;
}

function decodeVolatile(stored: StoredSignature): Uint8Array | undefined {
  const bytes = Buffer.from(stored.volatile, 'base64');
  return bytes.length === Math.ceil((stored.columns * stored.rows) / 8) ? new Uint8Array(bytes) : undefined;
}

function bit(set: Uint8Array, i: number): boolean {
  return ((set[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
}

function setBit(set: Uint8Array, i: number): void {
  set[i >> 3] = (set[i >> 3] ?? 0) | (1 << (i & 7));
}

/** `bounds` cut to the image, in whole pixels; undefined when less than a cell of it lies on the image. */
function clip(bounds: BBox, image: ScreenImage): BBox | undefined {
  const box = clipBox(bounds, imageBounds(image));
  return box && box.width >= MIN_CELL && box.height >= MIN_CELL ? box : undefined;
}
