import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { locateText } from '../../desktop/grounding/textLocator';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { dataFields, type ScreenMark } from '../screenMarks';
import { ToolResults } from '../toolResult';
import { ReturnScreenSchema, withScreenAfter } from './screenState';

const schema = toolInput({
  direction: StringEnum(['up', 'down', 'left', 'right'] as const, { description: 'Scroll direction' }),
  amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Wheel steps', default: 3 })),
  text: Type.Optional(Type.String({ minLength: 1, description: 'Scroll where this text is (moves the mouse there first)' })),
  x: Type.Optional(Type.Number({ minimum: 0, description: 'Scroll at this point (with y)' })),
  y: Type.Optional(Type.Number({ minimum: 0, description: 'Scroll at this point (with x)' })),
  returnScreen: ReturnScreenSchema,
});

type ScrollInput = Static<typeof schema>;

/** Scrolls with the mouse wheel, where the mouse is or over a text or point (seed 004). */
export class ScrollTool extends ToolBase<typeof schema> {
  readonly name = 'scroll';
  readonly description = 'Scroll up, down, left or right with the mouse wheel, optionally over a visible text or a point first.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly showsScreenAfter = true;
  override readonly showsScreenRead = true;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** The point it scrolled at when it was given one and scrolled; over a text its result names no point. */
  override screenMarks(input: unknown, result: ToolResult): ScreenMark[] {
    const { x, y } = dataFields(input);
    return result.success && typeof x === 'number' && typeof y === 'number' ? [{ x, y, label: 'scrolled', kind: 'click' }] : [];
  }

  protected override checkInput(input: ScrollInput): string | undefined {
    if ((input.x === undefined) !== (input.y === undefined)) return `${input.x === undefined ? 'x' : 'y'}: required together with ${input.x === undefined ? 'y' : 'x'}`;
    if (input.x !== undefined && input.text !== undefined) return 'text: give either text or x and y, not both';
    return undefined;
  }

  async execute(input: ScrollInput, context: ToolContext): Promise<ToolResult> {
    const amount = input.amount ?? 3;
    let where = '';
    if (input.text !== undefined) {
      const reading = await this.services.reader.read({ signal: context.signal });
      const located = locateText(reading.analysis, input.text);
      if (located.status === 'not_found') return ToolResults.notFound(`Text "${input.text}" not found on screen; nothing was scrolled.`);
      const target = located.status === 'found' ? located.match : located.candidates[0]!;
      await this.services.desktop.input.move(target.point);
      where = ` over "${target.text}" at (${target.point.x}, ${target.point.y})`;
    } else if (input.x !== undefined && input.y !== undefined) {
      await this.services.desktop.input.move({ x: input.x, y: input.y });
      where = ` at (${input.x}, ${input.y})`;
    }
    await this.services.desktop.input.scroll(input.direction, amount);
    const result = ToolResults.success(`Scrolled ${input.direction} ${amount} step(s)${where}.`, { direction: input.direction, amount });
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }
}
