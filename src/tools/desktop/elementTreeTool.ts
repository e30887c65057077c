import { Type, type Static } from '@sinclair/typebox';
import { neutralizeScreenText, quoteScreenText } from '../../common/screenText';
import { containsPoint, exactCentreOf, union, type BBox } from '../../common/geometry';
import type { OcrElement } from '../../desktop/ocr/ocrTypes';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { wordLines } from '../../desktop/grounding/textLocator';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { withInstructionFlags } from './untrustedScreen';

const schema = toolInput({
  scope: Type.Optional(
    Type.Union([Type.Literal('window'), Type.Literal('screen')], { description: 'The active window (default) or the whole screen', default: 'window' }),
  ),
  includeWords: Type.Optional(Type.Boolean({ description: 'Include the words of each line', default: false })),
});

interface LineNode {
  text: string;
  bbox: BBox;
  words?: Array<{ text: string; bbox: BBox }>;
}

interface BlockNode {
  bbox: BBox;
  lines: LineNode[];
}

/** The screen as a hierarchy: window → blocks → lines → words, built from OCR (seed 004). */
export class ElementTreeTool extends ToolBase<typeof schema> {
  readonly name = 'get_element_tree';
  readonly description =
    'Describe the active window (or screen) as a tree: window, blocks of text, lines and optionally words, each with its box in screen pixels.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;
  override readonly showsScreenRead = true;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const window = await this.services.desktop.windows.activeWindow();
    const scope = input.scope === 'screen' || !window || window.bounds.width === 0 ? 'screen' : 'window';
    const reading = await this.services.reader.read({ signal: context.signal });
    const inside = (e: OcrElement): boolean => scope === 'screen' || containsPoint(window!.bounds, exactCentreOf(e.bbox));
    const segments = wordLines({ fullText: '', elements: reading.analysis.elements.filter((e) => e.level === 'word' && inside(e)) });
    const read = segments.map((words) => ({ text: words.map((w) => w.text).join(' '), bbox: union(words.map((w) => w.bbox)), words }));
    // Screen text is data: markers of a screen_text block are made inert in every text of the tree.
    const lines: LineNode[] = read.map(({ text, bbox, words }) => ({
      text: neutralizeScreenText(text),
      bbox,
      ...(input.includeWords ? { words: words.map((w) => ({ text: neutralizeScreenText(w.text), bbox: w.bbox })) } : {}),
    }));
    const blocks = groupBlocks(lines);
    const root = {
      type: scope,
      title: neutralizeScreenText(window?.title ?? ''),
      appName: window?.appName ?? '',
      bbox: scope === 'window' ? window!.bounds : { x: 0, y: 0, width: reading.image.width, height: reading.image.height },
      blocks,
    };
    const result = ToolResults.success(
      `${scope === 'window' ? `Window ${quoteScreenText(window?.title ?? '')}` : 'The screen'} has ${blocks.length} block(s), ${lines.length} line(s) of text.`,
      root,
    );
    return withInstructionFlags(result, [
      ...(window?.title ? [{ text: window.title, source: 'window title' }] : []),
      ...read.map((line) => ({ text: line.text, source: `${scope} line at (${line.bbox.x}, ${line.bbox.y})` })),
      { text: read.map((line) => line.text).join('\n'), source: `the ${scope}'s text` },
    ]);
  }
}

/** Lines close below each other and overlapping horizontally form one block (a panel, a list). */
function groupBlocks(lines: LineNode[]): BlockNode[] {
  const sorted = [...lines].sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x);
  const blocks: BlockNode[] = [];
  for (const line of sorted) {
    const block = blocks.find((b) => {
      const last = b.lines.at(-1)!.bbox;
      const gap = line.bbox.y - (last.y + last.height);
      const overlap = Math.min(b.bbox.x + b.bbox.width, line.bbox.x + line.bbox.width) - Math.max(b.bbox.x, line.bbox.x);
      return gap >= -2 && gap <= last.height * 1.5 && overlap > 0;
    });
    if (block) {
      block.lines.push(line);
      block.bbox = union([block.bbox, line.bbox]);
    } else {
      blocks.push({ bbox: line.bbox, lines: [line] });
    }
  }
  return blocks;
}
