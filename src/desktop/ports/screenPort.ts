import type { BBox } from '../../common/geometry';

/**
 * Pixels as captured, RGBA 8-bit, row-major. `origin` is where the image's top-left pixel is
 * on the screen (in screen pixels), so coordinates found in a region map back to the screen.
 */
export interface ScreenImage {
  width: number;
  height: number;
  data: Buffer;
  origin: { x: number; y: number };
}

export interface ScreenSize {
  width: number;
  height: number;
}

export interface ScreenPort {
  /** Size in screen pixels (what a grab returns). */
  size(): Promise<ScreenSize>;
  /**
   * Screen pixels per input unit: 2 on a Retina display where the mouse moves in points,
   * 1 where input and pixels agree (X11, Windows without scaling).
   */
  scaleFactor(): Promise<number>;
  grab(region?: BBox): Promise<ScreenImage>;
}
