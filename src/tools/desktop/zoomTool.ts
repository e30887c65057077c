import { Type, type Static } from '@sinclair/typebox';
import type { ImageBlock } from '../../model/messages';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { crop } from '../../desktop/reading/screenDiff';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { RegionSchema, regionOutside } from './screenCaptureTool';

const schema = toolInput({
  region: RegionSchema,
  maxWidth: Type.Optional(Type.Integer({ minimum: 64, maximum: 7_680, description: 'Downscale to at most this width (the region at full resolution otherwise)' })),
});

/** A close look at part of the screen: its pixels at full resolution, not downscaled like a screenshot. */
export class ZoomTool extends ToolBase<typeof schema> {
  readonly name = 'zoom';
  readonly description = 'Look closely at a region of the screen (screen pixels): returns it as an image at full resolution, e.g. to read small text or icons.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  protected override checkInput(input: Static<typeof schema>): string | undefined {
    return input.region.width * input.region.height > 40_000_000 ? 'region: too large' : undefined;
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const { screen, images } = this.services.desktop;
    const outside = regionOutside(this.name, input.region, await screen.size());
    if (outside) return outside;
    // Through the reader, so secret fields are black and private windows withheld.
    const reading = await this.services.reader.read({ signal: context.signal });
    if (reading.withheld) return ToolResults.success(reading.withheld, { withheld: true });
    const encoded = await images.encode(crop(reading.image, input.region), 'png', input.maxWidth ? { maxWidth: input.maxWidth } : {});
    const block: ImageBlock = { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: encoded.data.toString('base64') } };
    const { x, y, width, height } = input.region;
    const mapping =
      encoded.scale < 1
        ? `downscaled to ${encoded.width}x${encoded.height}: screen point = (${x}, ${y}) + image point / ${encoded.scale.toFixed(4)}`
        : `screen point = (${x}, ${y}) + image point`;
    return ToolResults.success(
      `Zoomed into ${width}x${height} at (${x}, ${y}); ${mapping}.`,
      { width: encoded.width, height: encoded.height, scale: Number(encoded.scale.toFixed(4)), origin: { x, y } },
      [block],
    );
  }
}
