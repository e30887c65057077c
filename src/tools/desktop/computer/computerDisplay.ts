import { GaiError } from '../../../common/errors';
import { clampPoint } from '../../../common/geometry';
import type { Point } from '../../../desktop/ports/inputPort';
import type { ScreenPort, ScreenSize } from '../../../desktop/ports/screenPort';
import type { ImageLimits } from '../../../model/llmProvider';

/** Anthropic's documented limits for computer-use screenshots; what a model gets unless told otherwise. */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxLongEdge: 1568, maxPixels: 1_150_000 };

/** The screen and the screenshot the model sees of it. */
export interface DisplayGeometry {
  /** Screen pixels (what a grab has; input ports divide by the HiDPI factor themselves). */
  screen: ScreenSize;
  /** The screenshot: the screen scaled down to fit the limits, aspect kept, never scaled up. */
  image: ScreenSize;
  /** Screenshot pixels per screen pixel (≤ 1). */
  scale: number;
}

/**
 * The display as the `computer` tool shows it to a model: screenshots scaled to the model's
 * image limits, and the model's coordinates (screenshot pixels) mapped back to the screen.
 * The computer tool sets the limits of the model in use when the agent hands them over
 * (NativeComputerTool.adaptTo), and reads the geometry to tell the model the display size.
 */
export class ComputerDisplay {
  private current: ImageLimits;

  constructor(
    private readonly screen: ScreenPort,
    limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
  ) {
    this.current = checkedLimits(limits);
  }

  get limits(): ImageLimits {
    return this.current;
  }

  setLimits(limits: ImageLimits): void {
    this.current = checkedLimits(limits);
  }

  async geometry(): Promise<DisplayGeometry> {
    const screen = await this.screen.size();
    const image = fitImage(screen, this.current);
    return { screen, image, scale: image.width / screen.width };
  }
}

/**
 * The largest size with the screen's aspect within the limits, not above the screen's own.
 * The height is derived from the width the way the image codec derives it, so the encoded
 * screenshot has exactly this size.
 */
export function fitImage(screen: ScreenSize, limits: ImageLimits): ScreenSize {
  const { width: w, height: h } = screen;
  const factor = Math.min(1, limits.maxLongEdge / Math.max(w, h), Math.sqrt(limits.maxPixels / (w * h)));
  let width = Math.max(1, Math.floor(w * factor));
  const heightFor = (width: number): number => Math.max(1, Math.round((h * width) / w));
  // Rounding the height may overshoot a limit by a pixel row: narrow until both hold.
  while (width > 1 && (width * heightFor(width) > limits.maxPixels || heightFor(width) > limits.maxLongEdge)) width--;
  return { width, height: heightFor(width) };
}

/** A screenshot point → the screen pixel under it; a point off the screenshot is INVALID_INPUT naming `field`. */
export function toScreenPoint(point: readonly number[], geometry: DisplayGeometry, field: string): Point {
  const [x, y] = point;
  const { image, screen } = geometry;
  if (x === undefined || y === undefined || x >= image.width || y >= image.height || x < 0 || y < 0) {
    throw new GaiError('INVALID_INPUT', `${field}: (${point.join(', ')}) is outside the ${image.width}x${image.height} screenshot`);
  }
  const pixel = { x: Math.round((x * screen.width) / image.width), y: Math.round((y * screen.height) / image.height) };
  return clampPoint(pixel, { x: 0, y: 0, width: screen.width, height: screen.height });
}

/** A screen point → the screenshot pixel showing it (clamped to the screenshot). */
export function toImagePoint(point: Point, geometry: DisplayGeometry): Point {
  const { image, screen } = geometry;
  const pixel = { x: Math.round((point.x * image.width) / screen.width), y: Math.round((point.y * image.height) / screen.height) };
  return clampPoint(pixel, { x: 0, y: 0, width: image.width, height: image.height });
}

function checkedLimits(limits: ImageLimits): ImageLimits {
  if (!(limits.maxLongEdge >= 16) || !(limits.maxPixels >= 256)) {
    throw new GaiError('INVALID_INPUT', `image limits: need maxLongEdge ≥ 16 and maxPixels ≥ 256, got ${limits.maxLongEdge} and ${limits.maxPixels}`);
  }
  return { ...limits };
}
