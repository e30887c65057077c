// What OCR reads: words and lines with their boxes, and the whole text.
import type { ScreenElement } from '../screenElement';

/** A word or a line read from the pixels (box in screen pixels, around the ink). */
export interface OcrElement extends ScreenElement {
  text: string;
  /** The engine's, 0.0 to 1.0. */
  confidence: number;
  level: 'word' | 'line';
}

export interface OcrAnalysis {
  fullText: string;
  elements: OcrElement[];
}
