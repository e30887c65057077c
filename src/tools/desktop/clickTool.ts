import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../../core/types';
import type { DesktopServices } from '../../desktop/desktopServices';
import { locateAccessible } from '../../desktop/accessibleLocator';
import { findCandidates, locateText, type LocateOptions, type LocateResult, type TextCandidate } from '../../desktop/textLocator';
import { StringEnum, toolInput } from '../schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { ReturnScreenSchema, withScreenAfter } from './screenState';

const schema = toolInput({
  x: Type.Optional(Type.Number({ minimum: 0, description: 'X in screen pixels (with y)' })),
  y: Type.Optional(Type.Number({ minimum: 0, description: 'Y in screen pixels (with x)' })),
  text: Type.Optional(Type.String({ minLength: 1, description: 'Visible text to find by OCR and click, e.g. "Save" or "Open File"' })),
  button: Type.Optional(StringEnum(['left', 'right', 'middle'] as const, { description: 'Mouse button', default: 'left' })),
  doubleClick: Type.Optional(Type.Boolean({ description: 'Double-click', default: false })),
  occurrence: Type.Optional(Type.Integer({ minimum: 1, description: 'With text: which match, 1-based in reading order' })),
  near: Type.Optional(Type.String({ minLength: 1, description: 'With text: pick the match closest to this other text' })),
  returnScreen: ReturnScreenSchema,
});

type ClickInput = Static<typeof schema>;

/** Clicks a point, or a text found on the screen by OCR (seed 000 §3.1). */
export class ClickTool extends ToolBase<typeof schema> {
  readonly name = 'click';
  readonly description =
    'Click at screen coordinates (x, y) or on visible text (text). Text matching ignores case; an exact word or phrase ' +
    'beats a partial match. When the text appears several times the result lists the candidates: call again with ' +
    'occurrence or near. Coordinates are screen pixels (divide coordinates read off a downscaled screenshot by its scale).';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  protected override checkInput(input: ClickInput): string | undefined {
    const hasPoint = input.x !== undefined || input.y !== undefined;
    if (hasPoint && (input.x === undefined || input.y === undefined)) return `${input.x === undefined ? 'x' : 'y'}: required together with ${input.x === undefined ? 'y' : 'x'}`;
    if (hasPoint && input.text !== undefined) return 'text: give either text or x and y, not both';
    if (!hasPoint && input.text === undefined) return 'text: required (or give x and y)';
    if (input.text === undefined && (input.occurrence !== undefined || input.near !== undefined)) return `${input.occurrence !== undefined ? 'occurrence' : 'near'}: only used with text`;
    if (input.occurrence !== undefined && input.near !== undefined) return 'near: give either occurrence or near, not both';
    return undefined;
  }

  async execute(input: ClickInput, context: ToolContext): Promise<ToolResult> {
    const button = input.button ?? 'left';
    const double = input.doubleClick ?? false;
    const what = `${double ? 'Double-clicked' : 'Clicked'}${button === 'left' ? '' : ` (${button})`}`;
    let result: ToolResult;
    if (input.text === undefined) {
      const { width, height } = await this.services.desktop.screen.size();
      const x = input.x!;
      const y = input.y!;
      if (x >= width || y >= height) {
        return ToolResults.failure('INVALID_INPUT', `Invalid input for tool click: ${x >= width ? `x: ${x}` : `y: ${y}`} is outside the ${width}x${height} screen`);
      }
      await this.services.desktop.input.click({ x, y }, button, double);
      result = ToolResults.success(`${what} at (${x}, ${y}).`, { mode: 'coordinates', point: { x, y }, button, doubleClick: double });
    } else {
      const reading = await this.services.reader.read({ signal: context.signal });
      let located = locateText(reading.analysis, input.text, { occurrence: input.occurrence, near: input.near });
      let viaTree = false;
      // OCR misses single glyphs ("=", "+", "7") and text on busy backgrounds, and reads "+/-" as
      // a second "+": the toolkit knows its own labels.
      if (located.status !== 'found' || located.match.kind === 'fuzzy') {
        // An anchor OCR can read is used as a point; otherwise it is looked up in the tree too.
        const near = input.near === undefined ? undefined : (findCandidates(reading.analysis, input.near)[0]?.center ?? input.near);
        const fromTree = await this.locateInTree(input.text, { occurrence: input.occurrence, near }, context.signal);
        if (fromTree && treeSettles(located, fromTree)) {
          located = fromTree;
          viaTree = true;
        }
      }
      const source = viaTree ? ' in the accessibility tree' : '';
      if (located.status === 'not_found') {
        const also = located.suggestions.length ? ` Similar text on screen: ${located.suggestions.map((s) => `"${s}"`).join(', ')}.` : '';
        return ToolResults.notFound(
          located.reason ?? `Text "${input.text}" not found on screen (${reading.analysis.elements.length} text elements read).${also}`,
          'Read the screen (ocr) to see what is there, scroll, or click by coordinates.',
        );
      }
      if (located.status === 'ambiguous') {
        return ToolResults.failure('FAILED', `Text "${input.text}" appears ${located.candidates.length} times${source}; nothing was clicked.`, {
          observation: `Did NOT click: "${input.text}" is ambiguous (${located.candidates.length} matches).`,
          hint: 'Call click again with occurrence (1-based, reading order) or near (another text next to the one you mean).',
          data: { candidates: located.candidates.map(describe) },
        });
      }
      const match = located.match;
      await this.services.desktop.input.click(match.center, button, double);
      const kind = match.kind === 'exact' ? '' : ` (${match.kind} match "${match.text}")`;
      const how = viaTree ? ' Found through the accessibility tree (OCR could not tell where it is).' : '';
      result = ToolResults.success(`${what} "${input.text}" at (${match.center.x}, ${match.center.y})${kind}.${how}`, {
        mode: 'text',
        source: viaTree ? 'accessibility' : 'ocr',
        text: input.text,
        ...describe(match),
        point: match.center,
        button,
        doubleClick: double,
        otherMatches: located.alternatives,
        ocr: reading.ocr,
      });
    }
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }

  /** The accessibility tree's answer; undefined where there is no tree or it cannot be read. */
  private async locateInTree(text: string, options: LocateOptions, signal: AbortSignal): Promise<LocateResult | undefined> {
    const tree = this.services.desktop.accessibility;
    if (!tree || !(await tree.available())) return undefined;
    try {
      return locateAccessible(await tree.elements({ activeWindowOnly: true, signal }), text, options);
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined; // a tree that fails to answer leaves OCR's answer standing
    }
  }
}

/** Where OCR saw several exact matches, only a single exact one in the tree settles which. */
function treeSettles(ocr: LocateResult, tree: LocateResult): boolean {
  if (tree.status === 'not_found') return false;
  if (ocr.status !== 'ambiguous' || onlyFuzzy(ocr)) return true;
  return tree.status === 'found' && tree.alternatives === 0 && tree.match.kind === 'exact';
}

function onlyFuzzy(located: LocateResult): boolean {
  if (located.status === 'found') return located.match.kind === 'fuzzy';
  return located.status === 'ambiguous' && located.candidates.every((c) => c.kind === 'fuzzy');
}

function describe(candidate: TextCandidate): { foundText: string; bbox: TextCandidate['bbox']; confidence: number; match: string } {
  return { foundText: candidate.text, bbox: candidate.bbox, confidence: Number(candidate.confidence.toFixed(2)), match: candidate.kind };
}
