import type { BBox } from '../../../common/geometry';
import type { OcrEngine } from '../../../desktop/ports/ocrPort';
import type { ScreenImage, ScreenPort } from '../../../desktop/ports/screenPort';
import { voteOffset, type NamedBox } from './offsetVote';

// Where each window is on a GNOME Wayland screen: Mutter tells an ordinary client nothing about
// windows, but each window's accessibility tree gives its labels relative to the window, and the
// screen shows them. One OCR of the screen places a window (offsetVote.ts); after that, small
// looks at three words that agreed (a few milliseconds) confirm it is still there before every
// use: all but one must be unchanged (a key pressed changes one; a word redrawn in other
// colours, as when its window loses the focus, counts as unchanged), so a window the person
// moved is placed again, never clicked at its old place.

interface Placement {
  dx: number;
  dy: number;
  /** The screen's frame stamp when the place was last confirmed: the same stamp, the same screen. */
  stamp?: number;
  /** Each witness word's box and its pixels in grey, downsampled: what the place is checked against. */
  witnesses: Array<{ box: BBox; print: Float32Array }>;
}

/** Mean grey difference (0–255) above which a witness is taken to be gone. */
const CHANGED = 28;
/** A pattern correlated this well with the witness's is the word redrawn in other colours. */
const SAME_PATTERN = 0.9;
/** Below this spread of greys (0–255) a look has no pattern to compare: only its greys count. */
const MIN_PATTERN = 6;
const PRINT_SIZE = { columns: 12, rows: 4 };
/** How long a window that could not be placed is left to OCR: at least, and at most while the screen stays the same. */
const MIN_RETRY_MS = 500;
const RETRY_MS = 3_000;

export class WindowPlacer {
  private readonly places = new Map<string, Placement>();
  /** Where each window's elements are, relative to it: its drawn part, without the shadow margins its reported box has. */
  private readonly contents = new Map<string, BBox>();
  /** One OCR at a time: windows placed together share it. */
  private reading: Promise<{ words: NamedBox[]; size: { width: number; height: number } }> | undefined;
  /** Windows placed and OCR runs made: for tests and the bench. */
  readonly stats = { placed: 0, reads: 0, confirmed: 0 };

  /** Windows that could not be placed: when, and the screen's frame stamp then. */
  private readonly unplaced = new Map<string, { at: number; stamp: number | undefined }>();

  constructor(
    private readonly screen: ScreenPort & { frameStamp?(): Promise<number | undefined> },
    private readonly ocr: OcrEngine,
  ) {}

  /**
   * Whether placing the window failed so lately that it is left to OCR for now: for a short
   * while in any case, and longer while the screen has not changed since (a shell's own panel, a
   * thumbnail stays unplaceable; a window still being drawn is tried again once it is).
   */
  async failedRecently(key: string): Promise<boolean> {
    const failed = this.unplaced.get(key);
    if (!failed) return false;
    const since = performance.now() - failed.at;
    if (since < MIN_RETRY_MS) return true;
    if (since >= RETRY_MS) return false;
    const stamp = await this.screen.frameStamp?.().catch(() => undefined);
    return stamp === undefined || stamp === failed.stamp;
  }

  /** The window's offset (add to its reported boxes), or undefined when it cannot be told. */
  async offsetOf(key: string, elements: readonly NamedBox[], signal?: AbortSignal): Promise<{ dx: number; dy: number } | undefined> {
    const known = this.places.get(key);
    if (known && (await this.stillThere(known))) {
      this.stats.confirmed++;
      return { dx: known.dx, dy: known.dy };
    }
    this.places.delete(key);
    if (await this.failedRecently(key)) return undefined;
    const stamp = await this.screen.frameStamp?.().catch(() => undefined);
    const named = elements.filter((e) => e.name.trim() && e.bbox.width > 0 && e.bbox.height > 0);
    if (named.length === 0) return undefined;
    const { words, size } = await this.readScreen(signal);
    const vote = voteOffset(named, words, size);
    if (!vote) {
      remember(this.unplaced, key, { at: performance.now(), stamp });
      return undefined;
    }
    this.unplaced.delete(key);
    const witnesses = await Promise.all(vote.witnesses.map(async (box) => ({ box, print: fingerprint(await this.screen.grab(box)) })));
    remember(this.places, key, { dx: vote.dx, dy: vote.dy, witnesses });
    this.stats.placed++;
    return { dx: vote.dx, dy: vote.dy };
  }

  /** The window's offset when it was placed before and is still there (a glance, no OCR). */
  async knownOffset(key: string): Promise<{ dx: number; dy: number } | undefined> {
    const known = this.places.get(key);
    if (!known || !(await this.stillThere(known))) return undefined;
    this.stats.confirmed++;
    return { dx: known.dx, dy: known.dy };
  }

  /** Notes where a window's elements are, relative to the window (placedTree.ts, at each read). */
  noteContent(key: string, box: BBox): void {
    remember(this.contents, key, box);
  }

  contentOf(key: string): BBox | undefined {
    return this.contents.get(key);
  }

  private async stillThere(place: Placement): Promise<boolean> {
    try {
      // Asked before the looks: a frame that comes during them gives the next check a new stamp.
      const stamp = await this.screen.frameStamp?.().catch(() => undefined);
      if (stamp !== undefined && stamp === place.stamp) return true;
      const looks = await Promise.all(place.witnesses.map(async ({ box, print }) => sameLook(fingerprint(await this.screen.grab(box)), print)));
      const there = looks.filter(Boolean).length >= Math.max(1, looks.length - 1);
      if (there) place.stamp = stamp;
      return there;
    } catch {
      return false;
    }
  }

  private readScreen(signal?: AbortSignal): Promise<{ words: NamedBox[]; size: { width: number; height: number } }> {
    this.reading ??= (async () => {
      try {
        const image = await this.screen.grab();
        this.stats.reads++;
        const analysis = await this.ocr.recognize(image, { layout: 'sparse', signal });
        const words = analysis.elements.map((e) => ({ name: e.text, bbox: e.bbox }));
        return { words, size: { width: image.width, height: image.height } };
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}

/** Windows come and go, and a title changes with the document: only the latest few are kept. */
const WINDOWS_KEPT = 64;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key); // the most recent last
  map.set(key, value);
  if (map.size > WINDOWS_KEPT) map.delete(map.keys().next().value!);
}

/**
 * Whether a witness word looks as it did: the same greys, or the same pattern in other colours.
 * A window that loses the focus draws its text paler (GTK's backdrop), a hovered or pressed
 * control its background lighter: the word's shape stays where it was. A window moved away
 * leaves other content there, whose pattern does not follow the word's.
 */
export function sameLook(now: Float32Array, then: Float32Array): boolean {
  if (difference(now, then) < CHANGED) return true;
  const a = spread(now);
  const b = spread(then);
  if (a.deviation < MIN_PATTERN || b.deviation < MIN_PATTERN) return false;
  let covariance = 0;
  for (let i = 0; i < now.length; i++) covariance += (now[i]! - a.mean) * (then[i]! - b.mean);
  return covariance / now.length / (a.deviation * b.deviation) >= SAME_PATTERN;
}

function difference(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

function spread(values: Float32Array): { mean: number; deviation: number } {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2;
  return { mean, deviation: Math.sqrt(variance / values.length) };
}

/** The region's grey levels averaged over a small grid: cheap to compare, blind to noise. */
function fingerprint(image: ScreenImage): Float32Array {
  const { columns, rows } = PRINT_SIZE;
  const sums = new Float32Array(columns * rows);
  const counts = new Float32Array(columns * rows);
  for (let y = 0; y < image.height; y++) {
    const cell = Math.min(rows - 1, Math.floor((y * rows) / image.height)) * columns;
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const grey = 0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!;
      const at = cell + Math.min(columns - 1, Math.floor((x * columns) / image.width));
      sums[at]! += grey;
      counts[at]! += 1;
    }
  }
  for (let i = 0; i < sums.length; i++) sums[i] = counts[i]! > 0 ? sums[i]! / counts[i]! : 0;
  return sums;
}
