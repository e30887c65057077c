import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { locateText } from '../../desktop/grounding/textLocator';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { dataFields, type ScreenMark } from '../screenMarks';
import { ToolResults } from '../toolResult';
import { ReturnScreenSchema, withScreenAfter } from './screenState';
import { pointerTarget, type ActionTarget, type Located, type TargetingTool } from '../actionTarget';
import type { Point } from '../../desktop/ports/inputPort';
import { pointsOffScreen } from './screenPoints';

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
export class ScrollTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'scroll';
  readonly description = 'Scroll up, down, left or right with the mouse wheel, optionally over a visible text or a point first.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly showsScreenAfter = true;
  override readonly showsScreenRead = true;

  /** Where locateTarget found the text, so the wheel turns where it was approved. */
  private readonly found = new WeakMap<ActionTarget, { point: Point; text: string }>();

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** The point it scrolled at when it was given one and scrolled; over a text its result names no point. */
  override screenMarks(input: unknown, result: ToolResult): ScreenMark[] {
    const { x, y } = dataFields(input);
    return result.success && typeof x === 'number' && typeof y === 'number' ? [{ x, y, label: 'scrolled', kind: 'click' }] : [];
  }

  /** The wheel turns what is under the pointer: the text's place, the point, or where the pointer is. */
  async locateTarget(input: ScrollInput, context: ToolContext): Promise<Located> {
    const { desktop } = this.services;
    if (input.text !== undefined) {
      const spot = await this.findText(input.text, context.signal);
      if (!spot) return { failure: ToolResults.notFound(`Text "${input.text}" not found on screen; nothing was scrolled.`) };
      const target = await pointerTarget(desktop.windows, [spot.point]);
      if ('target' in target) this.found.set(target.target, spot);
      return target;
    }
    if (input.x !== undefined && input.y !== undefined) {
      const off = await this.offScreen(input.x, input.y);
      if (off) return { failure: off };
    }
    const point = input.x !== undefined && input.y !== undefined ? { x: input.x, y: input.y } : await desktop.input.position();
    return pointerTarget(desktop.windows, [point]);
  }

  private async offScreen(x: number, y: number): Promise<ToolResult | undefined> {
    return pointsOffScreen(this.name, [['x, y', { x, y }]], await this.services.desktop.screen.size());
  }

  private async findText(text: string, signal: AbortSignal): Promise<{ point: Point; text: string } | undefined> {
    const reading = await this.services.reader.read({ signal });
    const located = locateText(reading.analysis, text);
    if (located.status === 'not_found') return undefined;
    const match = located.status === 'found' ? located.match : located.candidates[0]!;
    return { point: match.point, text: match.text };
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
      const target = (context.target && this.found.get(context.target)) ?? (await this.findText(input.text, context.signal));
      if (!target) return ToolResults.notFound(`Text "${input.text}" not found on screen; nothing was scrolled.`);
      await this.services.desktop.input.move(target.point);
      where = ` over "${target.text}" at (${target.point.x}, ${target.point.y})`;
    } else if (input.x !== undefined && input.y !== undefined) {
      const off = await this.offScreen(input.x, input.y);
      if (off) return off;
      await this.services.desktop.input.move({ x: input.x, y: input.y });
      where = ` at (${input.x}, ${input.y})`;
    }
    await this.services.desktop.input.scroll(input.direction, amount);
    const result = ToolResults.success(`Scrolled ${input.direction} ${amount} step(s)${where}.`, { direction: input.direction, amount });
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }
}
