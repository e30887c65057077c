import type { BBox } from '../common/geometry';

// The one vocabulary for what is on the screen. Every thing seen has a box (ScreenElement);
// each source adds only what it really knows:
//   OcrElement        (desktop/ocr/ocrTypes.ts)            a word or line read from the pixels, with
//                                                          the engine's confidence
//   AccessibleElement (desktop/ports/accessibilityPort.ts) a node of the accessibility tree: name,
//                                                          role, states, its window and app
//   Candidate         (desktop/grounding/candidate.ts)     one of them matched to a label: why it
//                                                          matched and where to click
// Boxes and points are worked on with common/geometry.ts only. A misclick is decided in
// desktop/grounding: textLocator (OCR), accessibleLocator (tree), targetRules and targetLocator.

/** Where a thing on the screen was seen: the toolkit's accessibility tree, or OCR of the pixels. */
export type ElementSource = 'accessibility' | 'ocr';

/** Something on the screen with a box in screen pixels. */
export interface ScreenElement {
  bbox: BBox;
}
