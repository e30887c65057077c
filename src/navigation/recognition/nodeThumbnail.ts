// A small picture of a screen state, so a person recognises it in Show Brain: the active window
// cut out of the screen reading, as JPEG, made smaller until it fits the brain's per-thumbnail
// limit (base64 characters, as stored), or none when even the smallest does not fit.
import { errorMessage } from '../../common/errors';
import { clipBox, imageBounds, type BBox } from '../../common/geometry';
import type { ImageCodec } from '../../desktop/ports/imageCodec';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import { crop } from '../../desktop/reading/screenDiff';
import type { Logger } from '../../common/logger';
import type { Thumbnail } from '../store/brainTypes';

/** Tried in order until one fits: the first is what Show Brain is laid out for. */
const ATTEMPTS: ReadonlyArray<{ maxWidth: number; quality: number }> = [
  { maxWidth: 240, quality: 60 },
  { maxWidth: 240, quality: 45 },
  { maxWidth: 240, quality: 30 },
  { maxWidth: 180, quality: 35 },
  { maxWidth: 120, quality: 30 },
  { maxWidth: 80, quality: 25 },
];
/** A tall window is shrunk further so the picture is at most this many times as high as wide. */
const MAX_ASPECT = 2;
/** Windows smaller than this (a tooltip, a splash) say little: the whole screen is used instead. */
const MIN_SIDE = 16;

export interface ThumbnailOptions {
  /** The active window's client area (screen pixels); the picture is cut to it when it lies on the image. */
  bounds?: BBox;
  /** Base64 characters the result may have (BrainLimits.maxThumbnailBytes). */
  maxBytes: number;
}

/** The thumbnail, or undefined when no attempt fits `maxBytes`; a failing codec throws. */
export async function makeThumbnail(codec: ImageCodec, image: ScreenImage, options: ThumbnailOptions): Promise<Thumbnail | undefined> {
  const region = options.bounds ? clip(options.bounds, image) : undefined;
  const source = region ? crop(image, region) : image;
  for (const attempt of ATTEMPTS) {
    const maxWidth = Math.max(1, Math.min(attempt.maxWidth, Math.floor((attempt.maxWidth * MAX_ASPECT * source.width) / source.height)));
    const encoded = await codec.encode(source, 'jpeg', { maxWidth, quality: attempt.quality });
    if (base64Length(encoded.data.length) > options.maxBytes) continue;
    return { mediaType: 'image/jpeg', data: encoded.data.toString('base64'), width: encoded.width, height: encoded.height };
  }
  return undefined;
}

/** makeThumbnail for the navigator: a failure is logged and means no thumbnail, never a failed identification. */
export async function tryMakeThumbnail(codec: ImageCodec, image: ScreenImage, options: ThumbnailOptions, logger: Logger): Promise<Thumbnail | undefined> {
  try {
    const thumbnail = await makeThumbnail(codec, image, options);
    if (!thumbnail) logger.debug(`navigation: no thumbnail of the screen fits ${options.maxBytes} bytes`);
    return thumbnail;
  } catch (error) {
    logger.warn(`navigation: making a thumbnail of the screen failed: ${errorMessage(error)}`);
    return undefined;
  }
}

/** `bounds` cut to the image, in whole pixels; undefined when too little of it lies on the image. */
function clip(bounds: BBox, image: ScreenImage): BBox | undefined {
  const box = clipBox(bounds, imageBounds(image));
  return box && box.width >= MIN_SIDE && box.height >= MIN_SIDE ? box : undefined;
}

function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}
