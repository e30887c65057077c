import type { BBox, OcrAnalysis, OcrElement } from '../core/types';
import type { OcrEngine } from './ports/ocrPort';
import type { ScreenImage, ScreenPort } from './ports/screenPort';
import { changedRegion, crop, expand, framesEqual, intersects } from './screenDiff';
import { union } from './textLocator';

export interface ScreenReading {
  image: ScreenImage;
  analysis: OcrAnalysis;
  /** How the OCR was obtained: `cached` (nothing changed), `partial` (changed region only), `full`. */
  ocr: 'cached' | 'partial' | 'full';
  ocrMs: number;
}

export interface ScreenReaderOptions {
  /** Re-read only the changed part when it covers less than this share of the frame. */
  partialLimit?: number;
  /** Pixels around a changed region that are read again, so words cut by its edge are whole. */
  margin?: number;
}

/**
 * Captures and reads the screen, remembering the last full-screen reading: an unchanged
 * screen is not read again, and a screen where one part changed gets OCR of that part only.
 */
export class ScreenReader {
  private last?: { image: ScreenImage; analysis: OcrAnalysis };
  private readonly partialLimit: number;
  private readonly margin: number;

  constructor(
    private readonly screen: ScreenPort,
    private readonly ocr: OcrEngine,
    options: ScreenReaderOptions = {},
  ) {
    this.partialLimit = options.partialLimit ?? 0.4;
    this.margin = options.margin ?? 24;
  }

  async read(options: { region?: BBox; signal?: AbortSignal } = {}): Promise<ScreenReading> {
    const image = await this.screen.grab(options.region);
    const started = performance.now();
    if (options.region) {
      const analysis = await this.ocr.recognize(image, { signal: options.signal });
      return { image, analysis, ocr: 'full', ocrMs: performance.now() - started };
    }
    const previous = this.last;
    let analysis: OcrAnalysis;
    let kind: ScreenReading['ocr'] = 'full';
    if (previous && framesEqual(previous.image, image)) {
      analysis = previous.analysis;
      kind = 'cached';
    } else {
      const changed = previous ? changedRegion(previous.image, image) : undefined;
      const frame = { x: image.origin.x, y: image.origin.y, width: image.width, height: image.height };
      // Whole lines touched by the change are read again, so their unchanged words stay in them.
      const touched = changed ? previous!.analysis.elements.filter((e) => intersects(e.bbox, changed)).map((e) => e.bbox) : [];
      const dirty = changed ? expand(union([changed, ...touched]), this.margin, frame) : undefined;
      if (previous && dirty && dirty.width * dirty.height < this.partialLimit * image.width * image.height) {
        const fresh = await this.ocr.recognize(crop(image, dirty), { signal: options.signal });
        analysis = merge(previous.analysis, fresh, changed!, dirty, frame);
        kind = 'partial';
      } else {
        analysis = await this.ocr.recognize(image, { signal: options.signal });
      }
    }
    this.last = { image, analysis };
    return { image, analysis, ocr: kind, ocrMs: performance.now() - started };
  }

  /** The newest full-screen reading, e.g. to show what the agent saw; undefined before the first. */
  latest(): { image: ScreenImage; analysis: OcrAnalysis } | undefined {
    return this.last;
  }

  /** Forget the remembered reading (e.g. after switching displays). */
  reset(): void {
    this.last = undefined;
  }
}

/**
 * Fresh elements cut by the edge of the re-read region are dropped (the old reading has them
 * whole); old elements are dropped where the pixels changed or a fresh element replaces them.
 */
function merge(old: OcrAnalysis, fresh: OcrAnalysis, changed: BBox, dirty: BBox, frame: BBox): OcrAnalysis {
  const whole = fresh.elements.filter((e) => !touchesInnerEdge(e.bbox, dirty, frame));
  const kept = old.elements.filter(
    (e) => !intersects(e.bbox, changed) && !whole.some((f) => f.level === e.level && overlapShare(f.bbox, e.bbox) > 0.5),
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

function overlapShare(a: BBox, b: BBox): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w <= 0 || h <= 0 ? 0 : (w * h) / Math.min(a.width * a.height, b.width * b.height);
}

function byReadingOrder(a: OcrElement, b: OcrElement): number {
  return a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x;
}

function fullText(elements: OcrElement[]): string {
  const lines = elements.filter((e) => e.level === 'line');
  return (lines.length ? lines : elements).map((e) => e.text).join('\n');
}
