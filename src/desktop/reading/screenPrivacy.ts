import { errorMessage } from '../../common/errors';
import { centreOf, clipBox, containsPoint, imageBounds, intersectionArea, intersects, padBox, sameBox, union, type BBox } from '../../common/geometry';
import type { OcrAnalysis, OcrElement } from '../ocr/ocrTypes';
import type { Logger } from '../../common/logger';
import { findMaskedFields } from './maskedFields';
import type { AccessibilityPort } from '../ports/accessibilityPort';
import type { ScreenImage } from '../ports/screenPort';
import type { WindowInfo, WindowPort } from '../ports/windowPort';
import { privateRule, withheldNotice, type WindowTitleRule } from './privateWindows';

// Secret fields never leave the machine as pixels or text: every screen reading passes through
// here before a tool, the chat or the brain sees it. Password fields are found in the
// accessibility tree where the toolkit has one (role `password text`), and by their mask glyphs
// next to a "Password" label where it has none; private windows (by title) are withheld whole.

export type SecretKind = 'password field' | 'masked field' | 'private window';

export interface SecretRegion {
  bbox: BBox;
  kind: SecretKind;
}

/** A screen as it may leave the process: secret regions black, their text gone. */
export interface ProtectedView {
  image: ScreenImage;
  analysis: OcrAnalysis;
  regions: SecretRegion[];
  window?: WindowInfo;
  /** Set when the active window is private: the stub a model gets instead of a screenshot. */
  withheld?: string;
}

/** What is looked up while OCR runs: the active window and the tree's secret fields in it. */
export interface PrivacyProbe {
  window?: WindowInfo;
  fields: BBox[];
}

export interface ScreenPrivacyOptions {
  windows?: WindowPort;
  accessibility?: AccessibilityPort;
  windowTitles?: readonly WindowTitleRule[];
  logger?: Logger;
}

/** Roles of secret text fields: AT-SPI's `password text`, macOS's secure text field. */
const SECRET_ROLE = /password|secure text/i;

/** Whether an accessible role is a secret text field (its content must never be read out). */
export function isSecretRole(role: string): boolean {
  return SECRET_ROLE.test(role);
}
/** Black drawn past a field's edges, so anti-aliased glyph edges do not survive. */
const PADDING = 3;
/** An app without a tree (Tk) is asked again only this often. */
const TREELESS_RECHECK_MS = 10_000;
const MAX_TREELESS = 64;
/** How far a masked run may be grown over its field's background. */
const MAX_GROW_RIGHT = 600;
const MAX_GROW_VERTICAL = 24;

export class ScreenPrivacy {
  private readonly rules: readonly WindowTitleRule[];
  /**
   * Secret fields of the last window asked, with the image they were found in: the same
   * window with the same pixels (compared, not hashed: a memcmp per row) has the same fields.
   */
  private treeCache?: { key: string; image: ScreenImage; region: BBox | undefined; fields: BBox[] };
  private readonly treeless = new Map<string, number>();
  private lastWindow?: WindowInfo;

  constructor(private readonly options: ScreenPrivacyOptions = {}) {
    this.rules = options.windowTitles ?? [];
  }

  /** The rule that makes this window private, or undefined. */
  isPrivateWindow(window: WindowInfo | undefined): WindowTitleRule | undefined {
    return privateRule(this.rules, window);
  }

  /** Throws only when aborted: a lookup that fails leaves the OCR-based detection alone at work. */
  async probe(image: ScreenImage, signal?: AbortSignal): Promise<PrivacyProbe> {
    const { windows, accessibility } = this.options;
    // The window is needed for private titles and to key the tree cache; without either, skip it.
    const tree = accessibility && (await accessibility.available().catch(() => false)) ? accessibility : undefined;
    const window = windows && (this.rules.length > 0 || tree) ? await this.activeWindow(windows).catch(() => undefined) : undefined;
    const fields = tree ? await this.treeFields(tree, image, window, signal) : [];
    return { ...(window ? { window } : {}), fields };
  }

  /**
   * The tree cache needs only the window's identity: where the port tells the id cheaply and it
   * is the window seen last, that one is reused. Title rules need the current title: full lookup.
   */
  private async activeWindow(windows: WindowPort): Promise<WindowInfo | undefined> {
    const last = this.lastWindow;
    if (this.rules.length === 0 && last?.id !== undefined && windows.activeWindowId) {
      if ((await windows.activeWindowId()) === last.id) return last;
    }
    this.lastWindow = await windows.activeWindow();
    return this.lastWindow;
  }

  /**
   * The secret fields of one window (it need not be the active one) from the tree, for a
   * reading of that window alone; [] where there is no tree. Throws only when aborted.
   */
  async windowFields(window: WindowInfo, image: ScreenImage, active: boolean, signal?: AbortSignal): Promise<BBox[]> {
    const { accessibility } = this.options;
    const tree = accessibility && (await accessibility.available().catch(() => false)) ? accessibility : undefined;
    if (!tree) return [];
    const fields = await this.treeFields(tree, image, window, signal, active);
    return active ? fields : fields.filter((f) => intersects(f, window.bounds));
  }

  /** The view of `image` that may leave: `extra` adds regions known from elsewhere (screen pixels). */
  protect(image: ScreenImage, analysis: OcrAnalysis, probe: PrivacyProbe, extra: readonly SecretRegion[] = []): ProtectedView {
    const regions: SecretRegion[] = [];
    const rule = this.isPrivateWindow(probe.window);
    if (rule && probe.window) regions.push({ bbox: probe.window.bounds, kind: 'private window' });
    for (const field of probe.fields) regions.push({ bbox: padBox(field, PADDING), kind: 'password field' });
    for (const run of findMaskedFields(analysis)) regions.push({ bbox: padBox(growOverField(image, run), PADDING), kind: 'masked field' });
    const frame = imageBounds(image);
    regions.push(...extra.filter((r) => intersects(r.bbox, frame)));
    const boxes = regions.map((r) => r.bbox);
    return {
      image: this.maskImage(image, boxes),
      analysis: this.filterAnalysis(analysis, boxes),
      regions,
      ...(probe.window ? { window: probe.window } : {}),
      ...(rule && probe.window ? { withheld: withheldNotice(probe.window) } : {}),
    };
  }

  /** A copy of the image with the boxes (screen pixels) filled black; the image itself when there are none. */
  maskImage(image: ScreenImage, boxes: readonly BBox[]): ScreenImage {
    const clipped = boxes.map((b) => clipBox(b, imageBounds(image))).filter((b): b is BBox => b !== undefined);
    if (clipped.length === 0) return image;
    const data = Buffer.from(image.data);
    const black = Buffer.from([0, 0, 0, 255]);
    for (const box of clipped) {
      const x0 = box.x - image.origin.x;
      for (let y = box.y - image.origin.y; y < box.y - image.origin.y + box.height; y++) {
        const row = (y * image.width + x0) * 4;
        data.fill(black, row, row + box.width * 4);
      }
    }
    return { ...image, data };
  }

  /** Words inside the boxes dropped; lines crossing them keep only their other words. */
  filterAnalysis(analysis: OcrAnalysis, boxes: readonly BBox[]): OcrAnalysis {
    if (boxes.length === 0) return analysis;
    const secret = (e: OcrElement): boolean => boxes.some((b) => coveredBy(e.bbox, b));
    const words = analysis.elements.filter((e) => e.level === 'word');
    const keptWords = words.filter((w) => !secret(w));
    const elements: OcrElement[] = [];
    for (const element of analysis.elements) {
      if (element.level === 'word') {
        if (!secret(element)) elements.push(element);
        continue;
      }
      if (!boxes.some((b) => intersects(element.bbox, b))) {
        elements.push(element);
        continue;
      }
      // A line that runs into a secret field ("Password ••••"): rebuilt from its public words.
      const inside = keptWords.filter((w) => intersects(w.bbox, element.bbox) && !boxes.some((b) => intersects(w.bbox, b)));
      if (inside.length > 0) elements.push({ ...element, text: inside.map((w) => w.text).join(' '), bbox: union(inside.map((w) => w.bbox)) });
    }
    const lines = elements.filter((e) => e.level === 'line');
    return { elements, fullText: (lines.length ? lines : elements).map((e) => e.text).join('\n') };
  }

  private async treeFields(port: AccessibilityPort, image: ScreenImage, window: WindowInfo | undefined, signal?: AbortSignal, active = true): Promise<BBox[]> {
    try {
      const windowKey = window ? `${window.id ?? ''}|${window.appName}|${window.title}|${boxKey(window.bounds)}` : 'screen';
      const key = `${active ? 'active' : 'any'}|${windowKey}`;
      const region = window ? clipBox(window.bounds, imageBounds(image)) : undefined;
      const cached = this.treeCache;
      if (cached?.key === key && sameRegion(cached.region, region) && pixelsEqual(cached.image, image, region)) return cached.fields;
      // A window without a tree stays without one whatever its title says (pages, documents).
      const appKey = window ? `${window.id ?? ''}|${window.appName}` : 'screen';
      const checked = this.treeless.get(appKey);
      if (checked !== undefined && Date.now() - checked < TREELESS_RECHECK_MS) return [];
      const elements = await port.elements({ activeWindowOnly: active, signal });
      if (active && elements.length === 0) {
        if (this.treeless.size >= MAX_TREELESS) this.treeless.clear();
        this.treeless.set(appKey, Date.now());
      }
      const fields = elements.filter((e) => SECRET_ROLE.test(e.role)).map((e) => e.bbox);
      this.treeCache = { key, image, region, fields };
      return fields;
    } catch (error) {
      if (signal?.aborted) throw error;
      this.options.logger?.warn(`privacy: the accessibility tree could not be read (${errorMessage(error)}); masked fields are found by OCR only`);
      return [];
    }
  }
}

/** A word counts as inside a box when most of it is. */
function coveredBy(inner: BBox, outer: BBox): boolean {
  const shared = intersectionArea(inner, outer);
  return shared > 0 && shared >= 0.4 * inner.width * inner.height;
}

function boxKey(box: BBox): string {
  return `${box.x},${box.y},${box.width},${box.height}`;
}

function sameRegion(a: BBox | undefined, b: BBox | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && sameBox(a, b));
}

/** Whether two images show the same pixels inside `region` (both whole images without one). */
function pixelsEqual(a: ScreenImage, b: ScreenImage, region: BBox | undefined): boolean {
  const box = region ?? imageBounds(b);
  const inA = clipBox(box, imageBounds(a));
  const inB = clipBox(box, imageBounds(b));
  if (!inA || !inB || !sameBox(inA, box) || !sameBox(inB, box)) return false;
  for (let y = box.y; y < box.y + box.height; y++) {
    const rowA = ((y - a.origin.y) * a.width + (box.x - a.origin.x)) * 4;
    const rowB = ((y - b.origin.y) * b.width + (box.x - b.origin.x)) * 4;
    if (a.data.compare(b.data, rowB, rowB + box.width * 4, rowA, rowA + box.width * 4) !== 0) return false;
  }
  return true;
}

/**
 * A run of mask glyphs covers only the typed length: grow it over the field's background
 * (the colour right of the run, up to the field's border) so the length does not show either.
 */
function growOverField(image: ScreenImage, run: BBox): BBox {
  const at = (x: number, y: number): number => {
    const i = ((y - image.origin.y) * image.width + (x - image.origin.x)) * 4;
    return (image.data[i]! << 16) | (image.data[i + 1]! << 8) | image.data[i + 2]!;
  };
  const frame = imageBounds(image);
  const inside = (x: number, y: number): boolean => containsPoint(frame, { x, y });
  const y = centreOf(run).y;
  const start = run.x + run.width + 1;
  if (!inside(start, y)) return run;
  // The commonest colour just right of the run (a text cursor may sit right after it).
  const counts = new Map<number, number>();
  for (let x = start; x < start + 12 && inside(x, y); x++) counts.set(at(x, y), (counts.get(at(x, y)) ?? 0) + 1);
  const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const close = (x: number, yy: number): boolean => inside(x, yy) && near(at(x, yy), background);
  let right = run.x + run.width;
  let misses = 0;
  for (let x = start; x < start + MAX_GROW_RIGHT && inside(x, y); x++) {
    if (close(x, y)) {
      right = x;
      misses = 0;
    } else if (++misses > 3) break;
  }
  const column = Math.min(right, start + 6);
  let top = y;
  while (top > y - MAX_GROW_VERTICAL && close(column, top - 1)) top--;
  let bottom = y;
  while (bottom < y + MAX_GROW_VERTICAL && close(column, bottom + 1)) bottom++;
  return union([run, { x: run.x, y: top, width: right - run.x + 1, height: bottom - top + 1 }]);
}

function near(a: number, b: number): boolean {
  return Math.abs(((a >> 16) & 255) - ((b >> 16) & 255)) + Math.abs(((a >> 8) & 255) - ((b >> 8) & 255)) + Math.abs((a & 255) - (b & 255)) <= 24;
}
