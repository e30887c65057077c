// What OCR reads: words and lines with their boxes, and the whole text.
import type { BBox } from '../../common/geometry';

export interface OcrElement {
  text: string;
  /** 0.0 to 1.0. */
  confidence: number;
  bbox: BBox;
  level: 'word' | 'line';
}

export interface OcrAnalysis {
  fullText: string;
  elements: OcrElement[];
}
