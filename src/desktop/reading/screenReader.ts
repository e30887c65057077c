import { clipBox, imageBounds, intersects, overlapRatio, padBox, union, type BBox } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from '../ocr/ocrTypes';
import type { OcrEngine } from '../ports/ocrPort';
import type { ScreenImage, ScreenPort } from '../ports/screenPort';
import type { WindowInfo } from '../ports/windowPort';
import { withheldNotice } from './privateWindows';
import { changedRegions, crop, framesEqual } from './screenDiff';
import { frameAfterInput, type InputTimes } from './settle';
import type { PrivacyProbe, ProtectedView, ScreenPrivacy, SecretRegion } from './screenPrivacy';

/** What a reading gives out is the protected view: secret fields black, their text dropped. */
export interface ScreenReading {
  image: ScreenImage;
  analysis: OcrAnalysis;
  /** Where the image was blacked out (screen pixels). */
  secretRegions: SecretRegion[];
  /** Set when the active window is private: send this text instead of any picture or text of it. */
  withheld?: string;
  /** How the OCR was obtained: `cached` (nothing changed), `partial` (changed region only), `full`. */
  ocr: 'cached' | 'partial' | 'full';
  ocrMs: number;
}

/** One window's text, read from its pixels alone (protected like a full reading). */
export interface WindowReading {
  window: WindowInfo;
  /** The part of the screen that was read: the window's bounds cut to the screen. */
  bounds: BBox;
  analysis: OcrAnalysis;
  secretRegions: SecretRegion[];
  /** Set when the window is private: it was not read at all. */
  withheld?: string;
  /**
   * `cached`: its pixels had not changed since it was last read; `partial`: only what changed
   * was read; `none`: not read (private, off screen).
   */
  ocr: 'cached' | 'partial' | 'full' | 'none';
  ocrMs: number;
}

export interface ReadWindowOptions {
  signal?: AbortSignal;
  /** Where the screen is (windows are cut to it); the whole screen grab's size when not given. */
  screen?: BBox;
  /** Whether this is the active window (its tree is read for secret fields the cheap way). */
  active?: boolean;
  /** Secret fields in the window already known to the caller (screen pixels): the tree is then not asked. */
  fields?: BBox[];
  /**
   * Parts of the window other windows lie over (screen pixels): painted flat before anything
   * else, so what those windows show is neither read as this window's text nor, when they
   * change or the stacking does, a reason to read this window again.
   */
  covered?: BBox[];
}

export interface ScreenReaderOptions {
  /** Re-read only the changed part when it covers less than this share of the frame. */
  partialLimit?: number;
  /** Pixels around a changed region that are read again, so words cut by its edge are whole. */
  margin?: number;
  /** Masks secret fields and private windows in every reading; without it readings are raw. */
  privacy?: ScreenPrivacy;
  /** Windows whose last readings (and pixels) are kept; default 12 (a busy desktop and its popups). */
  windowCacheSize?: number;
  /** GAI's input: a reading soon after it waits until the screen shows its effect. */
  inputs?: InputTimes;
}

export interface ReadOptions {
  region?: BBox;
  signal?: AbortSignal;
  /** A full-screen frame grabbed already (e.g. after waiting for the screen to settle). */
  frame?: ScreenImage;
}

/**
 * Captures and reads the screen, remembering the last full-screen reading: an unchanged
 * screen is not read again, and a screen where one part changed gets OCR of that part only.
 */
export class ScreenReader {
  /** The raw frame and OCR (for diffing) and the view of it that may be given out; `at`: when it was grabbed. */
  private last?: { image: ScreenImage; analysis: OcrAnalysis; view: ProtectedView; given: LatestReading; at: number };
  /** The input generation the last reading was made after. */
  private inputSeen = 0;
  private readonly partialLimit: number;
  private readonly margin: number;
  private readonly privacy?: ScreenPrivacy;
  /**
   * Per window, its last readings (pixels, raw OCR, protected reading), newest first: two, so a
   * window that changes its look with the focus (GTK's backdrop state greys every label) finds
   * the reading of the look it is back to. Windows oldest first.
   */
  private readonly windows = new Map<string, WindowEntry[]>();
  /** The newest reading of either kind, a window's or the whole screen's (protected). */
  private seen?: LatestReading;
  private readonly windowCacheSize: number;
  private readonly inputs?: InputTimes;

  constructor(
    private readonly screen: ScreenPort,
    private readonly ocr: OcrEngine,
    options: ScreenReaderOptions = {},
  ) {
    this.partialLimit = options.partialLimit ?? 0.4;
    this.margin = options.margin ?? 24;
    this.privacy = options.privacy;
    this.windowCacheSize = options.windowCacheSize ?? 12;
    this.inputs = options.inputs;
  }

  /**
   * Reads one window's pixels. Each window's last reading is kept with its pixels: coming back
   * to a window that has not changed costs a grab and a compare, no OCR; where a part of it
   * changed, only that part is read. A private window is neither grabbed nor read.
   */
  async readWindow(window: WindowInfo, options: ReadWindowOptions = {}): Promise<WindowReading> {
    const screen = options.screen ?? (await this.screenBox());
    const bounds = clipBox(window.bounds, screen);
    const empty: OcrAnalysis = { elements: [], fullText: '' };
    if (this.privacy?.isPrivateWindow(window)) {
      return { window, bounds: bounds ?? window.bounds, analysis: empty, secretRegions: [{ bbox: window.bounds, kind: 'private window' }], withheld: withheldNotice(window), ocr: 'none', ocrMs: 0 };
    }
    if (!bounds) return { window, bounds: window.bounds, analysis: empty, secretRegions: [], ocr: 'none', ocrMs: 0 };
    const image = paintOver(await this.screen.grab(bounds), options.covered ?? []);
    const started = performance.now();
    const key = windowKey(window);
    const entries = (this.windows.get(key) ?? []).filter((e) => sameOrigin(e.image, image));
    this.windows.delete(key); // most recently used last
    const same = entries.find((e) => framesEqual(e.image, image));
    if (same) {
      this.windows.set(key, [same, ...entries.filter((e) => e !== same)]);
      this.seen = { image: same.shown, analysis: same.reading.analysis, secretRegions: same.reading.secretRegions };
      return { ...same.reading, window, ocr: 'cached', ocrMs: performance.now() - started };
    }
    const nearest = closest(entries, image);
    const known = nearest?.entry;
    // The tree's secret fields are looked up while OCR runs.
    const fields: Promise<BBox[]> =
      options.fields || !this.privacy ? Promise.resolve(options.fields ?? []) : this.privacy.windowFields(window, image, options.active ?? false, options.signal);
    fields.catch(() => undefined); // awaited below; an abort must not surface as unhandled
    const { analysis, kind } = await this.recognizeChanges(known && { ...known, changes: nearest.changes }, image, options.signal);
    const view = this.privacy ? this.privacy.protect(image, analysis, { window, fields: await fields }) : { image, analysis, regions: [] };
    const reading: WindowReading = { window, bounds, analysis: view.analysis, secretRegions: view.regions, ocr: kind, ocrMs: performance.now() - started };
    // A small change replaces the reading it was made from; a new look is kept beside the old one.
    const kept = kind === 'partial' ? entries.filter((e) => e !== known) : entries;
    this.windows.set(key, [{ image, analysis, reading, shown: view.image }, ...kept].slice(0, LOOKS_PER_WINDOW));
    this.seen = { image: view.image, analysis: view.analysis, secretRegions: view.regions };
    while (this.windows.size > this.windowCacheSize) this.windows.delete(this.windows.keys().next().value!);
    return reading;
  }

  /**
   * OCR of what changed since `previous` (same place and size): each changed band and the lines
   * it touches, when together they are small, else the whole image.
   */
  private async recognizeChanges(
    /** `changes`: the regions that differ from `previous.image`, when the caller has them already. */
    previous: { image: ScreenImage; analysis: OcrAnalysis; changes?: BBox[] } | undefined,
    image: ScreenImage,
    signal: AbortSignal | undefined,
  ): Promise<{ analysis: OcrAnalysis; kind: 'partial' | 'full' }> {
    const frame = imageBounds(image);
    const patches = previous ? dirtyPatches(previous.analysis, previous.changes ?? changedRegions(previous.image, image), this.margin, frame) : [];
    const area = patches.reduce((sum, p) => sum + p.dirty.width * p.dirty.height, 0);
    if (previous && patches.length > 0 && area < this.partialLimit * image.width * image.height) {
      const fresh = await Promise.all(patches.map((p) => this.ocr.recognize(crop(image, p.dirty), { signal })));
      let analysis = previous.analysis;
      patches.forEach((patch, i) => (analysis = merge(analysis, fresh[i]!, patch.changed, patch.dirty, frame)));
      return { analysis, kind: 'partial' };
    }
    return { analysis: await this.ocr.recognize(image, { signal }), kind: 'full' };
  }

  private async screenBox(): Promise<BBox> {
    const size = await this.screen.size();
    return { x: 0, y: 0, width: size.width, height: size.height };
  }

  async read(options: ReadOptions = {}): Promise<ScreenReading> {
    const supplied = options.frame && !options.region ? options.frame : undefined;
    const image = supplied ?? (await this.afterInput(options.region, options.signal)) ?? (await this.screen.grab(options.region));
    const started = performance.now();
    const previous = this.last;
    if (previous && !options.region && framesEqual(previous.image, image)) {
      // A new object all the same: callers tell by identity that the screen was read (again).
      this.last = { ...previous, given: given(previous.view), at: started };
      this.seen = this.last.given;
      return reading(previous.view, 'cached', performance.now() - started);
    }
    // The window and tree lookups run while OCR does.
    const probing = this.privacy?.probe(image, options.signal);
    probing?.catch(() => undefined); // awaited below; an abort must not surface as unhandled
    if (options.region) {
      const analysis = await this.ocr.recognize(image, { signal: options.signal });
      // Fields found in the last full reading stay masked in a region of it (its label may lie outside).
      const view = await this.protect(image, analysis, probing, previous?.view.regions);
      return reading(view, 'full', performance.now() - started);
    }
    const { analysis, kind } = await this.recognizeChanges(previous, image, options.signal);
    const view = await this.protect(image, analysis, probing);
    this.last = { image, analysis, view, given: given(view), at: started };
    this.seen = this.last.given;
    return reading(view, kind, performance.now() - started);
  }

  /**
   * The first reading after GAI's input: the screen once the input has had its effect (a click's
   * result drawn), never the picture from just before; undefined when there is nothing to wait for.
   */
  private async afterInput(region: BBox | undefined, signal: AbortSignal | undefined): Promise<ScreenImage | undefined> {
    const inputs = this.inputs;
    if (!inputs || inputs.generation === this.inputSeen) return undefined;
    this.inputSeen = inputs.generation;
    const before = !region && this.last && this.last.at < inputs.lastAt ? this.last.image : undefined;
    return frameAfterInput(this.screen, inputs, { ...(region ? { region } : {}), ...(before ? { before } : {}), ...(signal ? { signal } : {}) });
  }

  /**
   * The newest full-screen reading (protected), e.g. to show what the agent saw; undefined
   * before the first. The same object until the next full reading (cached or not), so callers
   * can tell whether the screen was read since.
   */
  latest(): LatestReading | undefined {
    return this.last?.given;
  }

  /**
   * The newest reading of the screen or of one window (protected), a new object for every read:
   * what the agent last saw, e.g. the window a click by text read to find its label.
   */
  latestSeen(): LatestReading | undefined {
    return this.seen;
  }

  /**
   * The screen as it is now, protected, without any OCR (e.g. to show a person the effect of an
   * action): secret fields the tree knows and those of the last reading black, a private window
   * black and withheld. The remembered readings are left as they are.
   */
  async glance(options: { frame?: ScreenImage; signal?: AbortSignal } = {}): Promise<LatestReading> {
    const image = options.frame ?? (await this.screen.grab());
    const previous = this.last;
    if (previous && framesEqual(previous.image, image)) return previous.given;
    const empty: OcrAnalysis = { elements: [], fullText: '' };
    if (!this.privacy) return { image, analysis: empty, secretRegions: [] };
    const probe = await this.privacy.probe(image, options.signal);
    return given(this.privacy.protect(image, empty, probe, previous?.view.regions));
  }

  /** Forget the remembered readings (e.g. after switching displays). */
  reset(): void {
    this.last = undefined;
    this.seen = undefined;
    this.windows.clear();
  }

  private async protect(image: ScreenImage, analysis: OcrAnalysis, probing: Promise<PrivacyProbe> | undefined, extra?: SecretRegion[]): Promise<ProtectedView> {
    if (!this.privacy || !probing) return { image, analysis, regions: [] };
    return this.privacy.protect(image, analysis, await probing, extra);
  }
}

export type LatestReading = Pick<ScreenReading, 'image' | 'analysis' | 'secretRegions' | 'withheld'>;

function given(view: ProtectedView): LatestReading {
  return { image: view.image, analysis: view.analysis, secretRegions: view.regions, ...(view.withheld ? { withheld: view.withheld } : {}) };
}

function reading(view: ProtectedView, ocr: ScreenReading['ocr'], ocrMs: number): ScreenReading {
  return { ...given(view), ocr, ocrMs };
}

/** A part of a reading to read again: the changed boxes inside it, and it (their lines and a margin). */
interface DirtyPatch {
  changed: BBox[];
  dirty: BBox;
}

/**
 * Whole lines touched by a change are read again, so their unchanged words stay in them; patches
 * that overlap are read as one.
 */
function dirtyPatches(previous: OcrAnalysis, changes: readonly BBox[], margin: number, frame: BBox): DirtyPatch[] {
  let patches: DirtyPatch[] = changes.map((changed) => {
    const touched = previous.elements.filter((e) => intersects(e.bbox, changed)).map((e) => e.bbox);
    return { changed: [changed], dirty: padBox(union([changed, ...touched]), margin, frame) };
  });
  for (let merged = true; merged; ) {
    merged = false;
    const out: DirtyPatch[] = [];
    for (const patch of patches) {
      const other = out.find((o) => intersects(o.dirty, patch.dirty));
      if (!other) {
        out.push(patch);
        continue;
      }
      other.changed.push(...patch.changed);
      other.dirty = union([other.dirty, patch.dirty]);
      merged = true;
    }
    patches = out;
  }
  return patches;
}

/**
 * Fresh elements cut by the edge of the re-read region are dropped (the old reading has them
 * whole); old elements are dropped where the pixels changed or a fresh element replaces them.
 */
function merge(old: OcrAnalysis, fresh: OcrAnalysis, changed: readonly BBox[], dirty: BBox, frame: BBox): OcrAnalysis {
  const whole = fresh.elements.filter((e) => !touchesInnerEdge(e.bbox, dirty, frame));
  const kept = old.elements.filter(
    (e) => !changed.some((c) => intersects(e.bbox, c)) && !whole.some((f) => f.level === e.level && overlapRatio(f.bbox, e.bbox) > 0.5),
  );
  const elements = [...kept, ...whole].sort(byReadingOrder);
  return { elements, fullText: fullText(elements) };
}

function touchesInnerEdge(box: BBox, region: BBox, frame: BBox): boolean {
  const near = 2;
  return (
    (region.x > frame.x && box.x - region.x < near) ||
    (region.y > frame.y && box.y - region.y < near) ||
    (region.x + region.width < frame.x + frame.width && region.x + region.width - (box.x + box.width) < near) ||
    (region.y + region.height < frame.y + frame.height && region.y + region.height - (box.y + box.height) < near)
  );
}

function byReadingOrder(a: OcrElement, b: OcrElement): number {
  return a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x;
}

function fullText(elements: OcrElement[]): string {
  const lines = elements.filter((e) => e.level === 'line');
  return (lines.length ? lines : elements).map((e) => e.text).join('\n');
}

interface WindowEntry {
  image: ScreenImage;
  analysis: OcrAnalysis;
  reading: WindowReading;
  shown: ScreenImage;
}

/** Readings kept per window: its focused and its backdrop look. */
const LOOKS_PER_WINDOW = 2;

/**
 * The reading whose pixels differ least from the image (by changed area), to re-read only that,
 * with the regions that differ when they were measured to choose it.
 */
function closest(entries: WindowEntry[], image: ScreenImage): { entry: WindowEntry; changes?: BBox[] } | undefined {
  if (entries.length <= 1) return entries[0] && { entry: entries[0] };
  let best: { entry: WindowEntry; changes: BBox[]; area: number } | undefined;
  for (const entry of entries) {
    const changes = changedRegions(entry.image, image);
    const area = changes.reduce((sum, r) => sum + r.width * r.height, 0);
    if (!best || area < best.area) best = { entry, changes, area };
  }
  return best && { entry: best.entry, changes: best.changes };
}

/** The image with these screen regions painted a flat grey (a copy: a screen port may share its frames). */
function paintOver(grabbed: ScreenImage, regions: readonly BBox[]): ScreenImage {
  const frame = { x: grabbed.origin.x, y: grabbed.origin.y, width: grabbed.width, height: grabbed.height };
  if (!regions.some((r) => clipBox(r, frame))) return grabbed;
  const image = { ...grabbed, data: Buffer.from(grabbed.data) };
  const channels = image.data.length / (image.width * image.height);
  for (const region of regions) {
    const part = clipBox(region, frame);
    if (!part) continue;
    for (let y = part.y - frame.y; y < part.y - frame.y + part.height; y++) {
      const row = (y * image.width + (part.x - frame.x)) * channels;
      image.data.fill(128, row, row + part.width * channels);
      if (channels === 4) for (let i = row + 3; i < row + part.width * channels; i += 4) image.data[i] = 255; // opaque
    }
  }
  return image;
}

/** A window is the same window while its id (else its app and title) stays. */
function windowKey(window: WindowInfo): string {
  return window.id ?? `${window.appName}|${window.title}`;
}

/** A window moved is read again whole (its old reading's boxes are elsewhere). */
function sameOrigin(a: ScreenImage, b: ScreenImage): boolean {
  return a.origin.x === b.origin.x && a.origin.y === b.origin.y && a.width === b.width && a.height === b.height;
}
