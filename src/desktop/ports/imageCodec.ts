import type { ScreenImage } from './screenPort';

export type ImageFormat = 'png' | 'jpeg';

export interface EncodedImage {
  data: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
  /** Encoded pixels per screen pixel (below 1 when downscaled). */
  scale: number;
}

export interface Annotation {
  boxes: Array<{ x: number; y: number; width: number; height: number; label?: string; color?: string }>;
  points: Array<{ x: number; y: number; label?: string; color?: string }>;
}

export interface ImageCodec {
  encode(image: ScreenImage, format: ImageFormat, options?: { maxWidth?: number; quality?: number }): Promise<EncodedImage>;
  /** Draws boxes and points (screen coordinates) over the image, e.g. OCR boxes and clicks. */
  annotate(image: ScreenImage, annotation: Annotation, format: ImageFormat): Promise<EncodedImage>;
  decode(data: Buffer): Promise<ScreenImage>;
}
