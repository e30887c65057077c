import { Type, type Static } from '@sinclair/typebox';
import type { ImageBlock } from '../../model/messages';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { crop } from '../../desktop/reading/screenDiff';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';

export const RegionSchema = Type.Object(
  {
    x: Type.Integer({ minimum: 0 }),
    y: Type.Integer({ minimum: 0 }),
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, description: 'A screen region in pixels' },
);

const schema = toolInput({
  region: Type.Optional(RegionSchema),
  format: Type.Optional(StringEnum(['png', 'jpeg'] as const, { description: 'Image format', default: 'png' })),
  maxWidth: Type.Optional(Type.Integer({ minimum: 64, maximum: 7_680, description: 'Downscale to at most this width (saves tokens)' })),
});

/** An INVALID_INPUT result when a region does not lie on the screen. */
export function regionOutside(toolName: string, region: Static<typeof RegionSchema> | undefined, size: { width: number; height: number }): ToolResult | undefined {
  if (!region || (region.x + region.width <= size.width && region.y + region.height <= size.height)) return undefined;
  return ToolResults.failure('INVALID_INPUT', `Invalid input for tool ${toolName}: region: extends beyond the ${size.width}x${size.height} screen`);
}

/** A screenshot for the model, as an image block (seed 000 §2.1). */
export class ScreenCaptureTool extends ToolBase<typeof schema> {
  readonly name = 'screen_capture';
  readonly description =
    'Take a screenshot of the screen or a region. The picture is returned as an image; it is downscaled to maxWidth ' +
    '(scale in the result): divide coordinates read off it by scale to get screen pixels. Prefer ocr when text is enough.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  protected override checkInput(input: Static<typeof schema>): string | undefined {
    return input.region && input.region.width * input.region.height > 100_000_000 ? 'region: too large' : undefined;
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const { screen, images } = this.services.desktop;
    const size = await screen.size();
    const outside = regionOutside(this.name, input.region, size);
    if (outside) return outside;
    // Through the reader, whose readings have secret fields blacked out (it needs the whole
    // screen's text to find them), then cut to the region.
    const reading = await this.services.reader.read({ signal: context.signal });
    if (reading.withheld) return ToolResults.success(reading.withheld, { withheld: true, screen: size, timestamp: new Date().toISOString() });
    const frame = input.region ? crop(reading.image, input.region) : reading.image;
    const format = input.format ?? 'png';
    const encoded = await images.encode(frame, format, { maxWidth: input.maxWidth ?? this.services.screenshotMaxWidth });
    const block: ImageBlock = {
      type: 'image',
      source: { type: 'base64', mediaType: format === 'png' ? 'image/png' : 'image/jpeg', data: encoded.data.toString('base64') },
    };
    const scaled = encoded.scale < 1 ? `, downscaled ×${encoded.scale.toFixed(3)}` : '';
    return ToolResults.success(
      `Captured ${input.region ? `region ${frame.width}x${frame.height} at (${frame.origin.x}, ${frame.origin.y})` : `the ${frame.width}x${frame.height} screen`}${scaled}.`,
      {
        width: encoded.width,
        height: encoded.height,
        scale: Number(encoded.scale.toFixed(4)),
        origin: frame.origin,
        screen: size,
        format,
        bytes: encoded.data.length,
        ...(reading.secretRegions.length ? { secretRegionsMasked: reading.secretRegions.length } : {}),
        timestamp: new Date().toISOString(),
      },
      [block],
    );
  }
}
