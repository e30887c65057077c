import { Type, type Static } from '@sinclair/typebox';
import { errorMessage } from '../../common/errors';
import { neutralizeScreenText, screenTextBlock } from '../../common/screenText';
import type { OcrAnalysis, OcrElement } from '../../desktop/ocr/ocrTypes';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { readImageFile, type ImageFileFailure } from './imageFile';
import { RegionSchema, regionOutside } from './screenCaptureTool';
import { ocrTextItems, withInstructionFlags } from './untrustedScreen';

const schema = toolInput({
  imagePath: Type.Optional(Type.String({ minLength: 1, description: 'An image file to read (PNG or JPEG)' })),
  captureScreen: Type.Optional(Type.Boolean({ description: 'Read the whole screen' })),
  region: Type.Optional(RegionSchema),
  level: Type.Optional(StringEnum(['lines', 'words', 'both'] as const, { description: 'Which elements to return', default: 'lines' })),
  maxElements: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_000, default: 300 })),
});

type OcrInput = Static<typeof schema>;

/** Text on the screen (or in an image) with boxes (seed 000 §2.2). */
export class OcrTool extends ToolBase<typeof schema> {
  readonly name = 'ocr';
  readonly description =
    'Read text by OCR from the screen (captureScreen: true), a screen region, or an image file. Returns the full text ' +
    'and elements with text, confidence and box (screen pixels); lines by default, words on request.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;
  override readonly showsScreenRead = true;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  protected override checkInput(input: OcrInput): string | undefined {
    const sources = [input.imagePath !== undefined, input.captureScreen === true, input.region !== undefined].filter(Boolean).length;
    if (sources === 0) return 'captureScreen: give one of imagePath, captureScreen: true or region';
    if (sources > 1) return 'imagePath: give only one of imagePath, captureScreen and region';
    return undefined;
  }

  async execute(input: OcrInput, context: ToolContext): Promise<ToolResult> {
    const started = performance.now();
    let analysis: OcrAnalysis;
    let source: string;
    let cache = 'full';
    if (input.imagePath !== undefined) {
      const file = await readImageFile(input.imagePath, context.signal);
      if (!file.ok) return imageFileFailure(this.name, file);
      const bytes = file.bytes;
      const image = await this.services.desktop.images.decode(bytes).catch((error: unknown) => {
        throw new Error(`${input.imagePath} is not a readable image (${errorMessage(error)})`);
      });
      analysis = await this.services.desktop.ocr.recognize(image, { signal: context.signal });
      source = input.imagePath;
    } else {
      const outside = regionOutside(this.name, input.region, await this.services.desktop.screen.size());
      if (outside) return outside;
      const reading = await this.services.reader.read({ region: input.region, signal: context.signal });
      // The reader has dropped the text of secret fields already; a private window's text is not sent at all.
      if (reading.withheld) return ToolResults.success(reading.withheld.replace('screenshot withheld', 'text withheld'), { withheld: true });
      analysis = reading.analysis;
      cache = reading.ocr;
      source = input.region ? `region ${input.region.width}x${input.region.height} at (${input.region.x}, ${input.region.y})` : 'the screen';
    }
    const level = input.level ?? 'lines';
    const chosen = analysis.elements.filter((e) => level === 'both' || e.level === (level === 'lines' ? 'line' : 'word'));
    const max = input.maxElements ?? 300;
    const words = analysis.elements.filter((e) => e.level === 'word').length;
    // The text is data: in a block it cannot close, flagged when it reads like an instruction.
    const result = ToolResults.success(`Read ${words} word(s) from ${source}.`, {
      fullText: screenTextBlock(analysis.fullText, { source: 'ocr', area: source }),
      elements: chosen.slice(0, max).map(compact),
      ...(chosen.length > max ? { omitted: chosen.length - max } : {}),
      ocr: cache,
      ms: Math.round(performance.now() - started),
    });
    return withInstructionFlags(result, ocrTextItems(analysis.elements, 'ocr'));
  }
}

function imageFileFailure(toolName: string, failure: ImageFileFailure): ToolResult {
  if (failure.kind === 'missing') return ToolResults.notFound(`Cannot read image: ${failure.message}`);
  if (failure.kind === 'cancelled') return ToolResults.cancelled(toolName, failure.message);
  return ToolResults.failure('INVALID_INPUT', failure.message, { observation: `${toolName} did not run: ${failure.message}.` });
}

function compact(e: OcrElement): { text: string; confidence: number; bbox: OcrElement['bbox']; level: OcrElement['level'] } {
  return { text: neutralizeScreenText(e.text), confidence: Number(e.confidence.toFixed(2)), bbox: e.bbox, level: e.level };
}
