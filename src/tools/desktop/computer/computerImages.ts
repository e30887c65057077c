import { GaiError } from '../../../common/errors';
import { intersects, type BBox } from '../../../common/geometry';
import type { ImageBlock } from '../../../model/messages';
import type { ToolResult } from '../../toolTypes';
import type { DesktopServices } from '../../../desktop/desktopServices';
import type { ImageFormat } from '../../../desktop/ports/imageCodec';
import type { ScreenImage } from '../../../desktop/ports/screenPort';
import { crop } from '../../../desktop/reading/screenDiff';
import { ToolResults } from '../../toolResult';
import { fitImage, type ComputerDisplay, type DisplayGeometry } from './computerDisplay';

/**
 * The screenshots of the `computer` tool. Both go through the screen reader, whose readings
 * have secret fields blacked out and private windows withheld.
 */
export class ComputerImages {
  constructor(
    private readonly services: DesktopServices,
    private readonly display: ComputerDisplay,
    private readonly format: ImageFormat,
  ) {}

  /** The whole screen at the size the model's coordinates refer to. */
  async screenshot(geometry: DisplayGeometry, signal: AbortSignal): Promise<ToolResult> {
    const reading = await this.services.reader.read({ signal });
    if (reading.withheld) return ToolResults.success(reading.withheld, { withheld: true, screen: geometry.screen });
    const { block, width, height } = await this.encode(reading.image, geometry.image.width);
    const { screen } = geometry;
    const scaled = width < screen.width ? `, scaled to ${width}x${height} (coordinates are in these pixels)` : '';
    return ToolResults.success(
      `Screenshot of the ${screen.width}x${screen.height} screen${scaled}.`,
      { width, height, screen, scale: round(geometry.scale), ...masked(reading.secretRegions.length) },
      [block],
    );
  }

  /**
   * `region` ([x0, y0, x1, y1] in screenshot pixels, end exclusive) cut from the screen at its
   * full resolution, scaled down only as far as the model's limits need.
   */
  async zoom(region: readonly number[], geometry: DisplayGeometry, signal: AbortSignal): Promise<ToolResult> {
    const box = screenBox(region, geometry);
    const reading = await this.services.reader.read({ signal });
    if (reading.withheld) return ToolResults.success(reading.withheld, { withheld: true, screen: geometry.screen });
    const fit = fitImage(box, this.display.limits);
    const { block, width, height } = await this.encode(crop(reading.image, box), fit.width);
    const at = `(${box.x}, ${box.y}) ${box.width}x${box.height}`;
    return ToolResults.success(
      `Zoomed into [${region.join(', ')}] of the screenshot = ${at} on the screen, shown ${width}x${height}. ` +
        'Coordinates for actions stay those of the full screenshot.',
      { width, height, screenRegion: box, scale: round(width / box.width), ...masked(reading.secretRegions.filter((r) => intersects(r.bbox, box)).length) },
      [block],
    );
  }

  private async encode(image: ScreenImage, width: number): Promise<{ block: ImageBlock; width: number; height: number }> {
    const encoded = await this.services.desktop.images.encode(image, this.format, { maxWidth: width });
    const mediaType = this.format === 'png' ? 'image/png' : 'image/jpeg';
    return { block: { type: 'image', source: { type: 'base64', mediaType, data: encoded.data.toString('base64') } }, width: encoded.width, height: encoded.height };
  }
}

/** A screenshot region → the screen pixels it shows (at least one pixel each way). */
function screenBox(region: readonly number[], geometry: DisplayGeometry): BBox {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = region;
  const { image, screen } = geometry;
  if (x1 > image.width || y1 > image.height) {
    throw new GaiError('INVALID_INPUT', `region: [${region.join(', ')}] extends beyond the ${image.width}x${image.height} screenshot`);
  }
  const left = Math.floor((x0 * screen.width) / image.width);
  const top = Math.floor((y0 * screen.height) / image.height);
  const right = Math.max(left + 1, Math.min(screen.width, Math.ceil((x1 * screen.width) / image.width)));
  const bottom = Math.max(top + 1, Math.min(screen.height, Math.ceil((y1 * screen.height) / image.height)));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function masked(count: number): { secretRegionsMasked?: number } {
  return count ? { secretRegionsMasked: count } : {};
}

function round(value: number): number {
  return Number(value.toFixed(4));
}
