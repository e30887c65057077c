// Points and boxes in screen pixels (or fractions of the screen), shared by every layer.

/** Screen pixels of the captured image. */
export interface PixelCoordinate {
  x: number;
  y: number;
}

/** Fractions of the screen, 0.0 to 1.0. */
export interface NormalizedCoordinate {
  nx: number;
  ny: number;
}

export type Coordinate = PixelCoordinate | NormalizedCoordinate;

export interface BBox {
  x: number;
  y: number;
  width: number;
  height: number;
}
