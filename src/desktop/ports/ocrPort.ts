import type { OcrAnalysis } from '../ocr/ocrTypes';
import type { ScreenImage } from './screenPort';

/** How the text is laid out: a screen of scattered labels, one line, one word, one glyph. */
export type OcrLayout = 'sparse' | 'line' | 'word' | 'char';

export interface OcrOptions {
  layout?: OcrLayout;
  /** Upscale before recognizing (small text recognizes better larger); boxes are mapped back. */
  scale?: number;
  /** The caller has cut out where the text is (stacked crops): one reading, no second look at the regions it read poorly. */
  firstPassOnly?: boolean;
  signal?: AbortSignal;
}

/** Boxes in the result are screen pixels (the image's origin added). */
export interface OcrEngine {
  readonly name: string;
  recognize(image: ScreenImage, options?: OcrOptions): Promise<OcrAnalysis>;
  /** Starts what the first recognize would (workers, models) ahead of time, where the engine has a cold start. */
  warmUp?(): Promise<void>;
  dispose(): Promise<void>;
}
