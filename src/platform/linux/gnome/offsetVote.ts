import type { BBox } from '../../../common/geometry';

// Where a window is on the screen, from its accessibility tree (boxes relative to the window, as
// every toolkit reports them on Wayland) and the words OCR read on the screen. A word that spells
// an element's name must lie inside that element once the window is moved by the offset: each such
// pair allows a rectangle of offsets, and the offset most pairs allow is the window's place.

export interface NamedBox {
  name: string;
  bbox: BBox;
}

export interface OffsetVote {
  dx: number;
  dy: number;
  /** How many label/word pairs agree on it. */
  votes: number;
  /** Words that agreed, in screen pixels, far apart: what a later look checks are still there. */
  witnesses: BBox[];
}

/** Slack around an element's box, in pixels: OCR's ink box may overhang a tight label box. */
const SLACK = 3;
/** At most this many pairs per name: a name found everywhere ("OK" ×20) says little. */
const MAX_PAIRS_PER_NAME = 6;
/** Labels this far apart (px) tell a scaled drawing from a moved one; a slope off 1 by more is scaled. */
const SCALE_LEVER = 150;
const SCALE_TOLERANCE = 0.035;
/** Words kept to confirm a place: one of them may change (a pressed key) without a new reading. */
const WITNESSES = 3;
/** The widest set of offsets still taken as one place: beyond it, no label pins the window down. */
const MAX_SPAN = 48;

export function normalizedLabel(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[_&…]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * The offset (window → screen) that most element/word pairs agree on, or undefined when fewer
 * than `minVotes` agree or two different places are equally supported.
 * `bounds` limits where the window's origin may be (the screen).
 */
export function voteOffset(elements: readonly NamedBox[], words: readonly NamedBox[], bounds: { width: number; height: number }, minVotes = 2): OffsetVote | undefined {
  const byText = new Map<string, BBox[]>();
  for (const word of words) {
    const key = normalizedLabel(word.name);
    if (!key) continue;
    const list = byText.get(key) ?? [];
    // A one-word line repeats its word: one vote.
    if (list.some((b) => b.x === word.bbox.x && b.y === word.bbox.y && b.width === word.bbox.width && b.height === word.bbox.height)) continue;
    list.push(word.bbox);
    byText.set(key, list);
  }
  const width = bounds.width + 1;
  const height = bounds.height + 1;
  // Offsets from -W..W by -H..H would double the grid; a window's origin sits on the screen
  // (its top-left shadow may hang off it by a little), so offsets are kept to [-64, W] × [-64, H].
  const low = -64;
  const gw = width - low;
  const gh = height - low;
  const diff = new Int32Array((gw + 1) * (gh + 1));
  const pairs: Array<{ x0: number; y0: number; x1: number; y1: number; word: BBox; element: { x: number; y: number }; centre: { x: number; y: number } }> = [];
  for (const element of elements) {
    const found = byText.get(normalizedLabel(element.name));
    if (!found || found.length > MAX_PAIRS_PER_NAME) continue;
    const e = element.bbox;
    for (const w of found) {
      if (w.width > e.width + 2 * SLACK || w.height > e.height + 2 * SLACK) continue;
      const x0 = Math.max(low, Math.floor(w.x + w.width - e.x - e.width - SLACK));
      const x1 = Math.min(width - 1, Math.ceil(w.x - e.x + SLACK));
      const y0 = Math.max(low, Math.floor(w.y + w.height - e.y - e.height - SLACK));
      const y1 = Math.min(height - 1, Math.ceil(w.y - e.y + SLACK));
      if (x0 > x1 || y0 > y1) continue;
      pairs.push({ x0, y0, x1, y1, word: w, element: { x: e.x + e.width / 2, y: e.y + e.height / 2 }, centre: { x: w.x + w.width / 2 - e.x - e.width / 2, y: w.y + w.height / 2 - e.y - e.height / 2 } });
      const a = x0 - low;
      const b = y0 - low;
      const c = x1 - low + 1;
      const d = y1 - low + 1;
      diff[b * (gw + 1) + a]! += 1;
      diff[b * (gw + 1) + c]! -= 1;
      diff[d * (gw + 1) + a]! -= 1;
      diff[d * (gw + 1) + c]! += 1;
    }
  }
  if (pairs.length === 0) return undefined;
  // 2-D prefix sums: each cell then holds how many pairs allow that offset.
  let best = 0;
  const bestCells: number[] = [];
  const row = new Int32Array(gw + 1);
  for (let y = 0; y < gh; y++) {
    let running = 0;
    for (let x = 0; x < gw; x++) {
      running += diff[y * (gw + 1) + x]!;
      row[x]! += running;
      const count = row[x]!;
      if (count > best) {
        best = count;
        bestCells.length = 0;
      }
      if (count === best && count > 0 && bestCells.length < 100_000) bestCells.push(y * gw + x);
    }
  }
  if (best < minVotes) return undefined;
  // One place is one filled rectangle of best cells; cells apart are two places equally likely.
  const xs = bestCells.map((cell) => (cell % gw) + low);
  const ys = bestCells.map((cell) => Math.floor(cell / gw) + low);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (bestCells.length !== (maxX - minX + 1) * (maxY - minY + 1) || maxX - minX > MAX_SPAN || maxY - minY > MAX_SPAN) return undefined;
  const agreeing = pairs.filter((p) => p.x0 <= minX && maxX <= p.x1 && p.y0 <= minY && maxY <= p.y1);
  // Within the rectangle, labels are drawn centred in their controls more often than not.
  const dx = clamp(Math.round(median(agreeing.map((p) => p.centre.x))), minX, maxX);
  const dy = clamp(Math.round(median(agreeing.map((p) => p.centre.y))), minY, maxY);
  // A window drawn scaled (GNOME's overview shows thumbnails) agrees on no single offset: its
  // labels drift from their places the farther they are from one another.
  if (scaled(agreeing.map((p) => [p.element.x, p.element.x + p.centre.x])) || scaled(agreeing.map((p) => [p.element.y, p.element.y + p.centre.y]))) return undefined;
  return { dx, dy, votes: best, witnesses: spreadOut(agreeing.map((p) => p.word), WITNESSES) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Whether word positions grow with element positions at a slope other than 1: pairs of (where
 * the element's centre is in its window, where its word's centre is relative to the window).
 */
function scaled(pairs: ReadonlyArray<readonly [number, number]>): boolean {
  const xs = pairs.map((p) => p[0]);
  if (pairs.length < 3 || Math.max(...xs) - Math.min(...xs) < SCALE_LEVER) return false;
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = pairs.reduce((a, p) => a + p[1], 0) / pairs.length;
  let cov = 0;
  let variance = 0;
  for (const [x, y] of pairs) {
    cov += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return Math.abs(cov / variance - 1) > SCALE_TOLERANCE;
}

/** The largest word (the surest to be found again by its pixels), then each next the farthest from those taken. */
function spreadOut(words: readonly BBox[], count: number): BBox[] {
  const left = [...words].sort((a, b) => b.width * b.height - a.width * a.height);
  const taken = left.splice(0, 1);
  const centre = (b: BBox): [number, number] => [b.x + b.width / 2, b.y + b.height / 2];
  while (taken.length < count && left.length > 0) {
    const distance = (b: BBox): number => Math.min(...taken.map((t) => Math.hypot(centre(b)[0] - centre(t)[0], centre(b)[1] - centre(t)[1])));
    left.sort((a, b) => distance(b) - distance(a));
    taken.push(left.shift()!);
  }
  return taken;
}
