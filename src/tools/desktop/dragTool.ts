import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase } from '../toolBase';
import { dataFields, isScreenPoint, type ScreenMark } from '../screenMarks';
import { ToolResults } from '../toolResult';
import { pointsOffScreen, ScreenPointSchema } from './screenPoints';
import { pointerTarget, type Located, type TargetingTool } from '../actionTarget';

const schema = toolInput({
  from: Type.Optional(ScreenPointSchema),
  to: Type.Optional(ScreenPointSchema),
  path: Type.Optional(Type.Array(ScreenPointSchema, { minItems: 2, maxItems: 100, description: 'Drag along these points, from the first to the last' })),
  button: Type.Optional(StringEnum(['left', 'right', 'middle'] as const, { description: 'Mouse button held', default: 'left' })),
});

type DragInput = Static<typeof schema>;

/** Presses at one point, moves, releases at another: sliders, selections, moving things. */
export class DragTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'drag';
  readonly description = 'Drag with a mouse button held: from a point to another (from, to), or along a path of points. Screen pixels.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly showsScreenAfter = true;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** Where the drag started and where it was released (`data.path`'s ends). */
  override screenMarks(_input: unknown, result: ToolResult): ScreenMark[] {
    const { path } = dataFields(result.data);
    if (!Array.isArray(path)) return [];
    const [from, to] = [path[0], path[path.length - 1]];
    if (!isScreenPoint(from) || !isScreenPoint(to)) return [];
    return [
      { x: from.x, y: from.y, label: 'drag started', kind: 'click' },
      { x: to.x, y: to.y, label: 'drag released', kind: 'click' },
    ];
  }

  protected override checkInput(input: DragInput): string | undefined {
    if (input.path !== undefined) {
      return input.from !== undefined || input.to !== undefined ? `${input.from !== undefined ? 'from' : 'to'}: give either path or from and to, not both` : undefined;
    }
    if (input.from === undefined) return 'from: required (with to), or give path';
    if (input.to === undefined) return 'to: required with from';
    return undefined;
  }

  /** Every point of the drag: it presses in one window and may drop into another. */
  async locateTarget(input: DragInput): Promise<Located> {
    const off = await this.offScreen(input);
    return off ? { failure: off } : pointerTarget(this.services.desktop.windows, input.path ?? [input.from!, input.to!]);
  }

  private async offScreen(input: DragInput): Promise<ToolResult | undefined> {
    const path = input.path ?? [input.from!, input.to!];
    return pointsOffScreen(this.name, path.map((p, i) => [input.path ? `path[${i}]` : i === 0 ? 'from' : 'to', p]), await this.services.desktop.screen.size());
  }

  async execute(input: DragInput): Promise<ToolResult> {
    const path = input.path ?? [input.from!, input.to!];
    const off = await this.offScreen(input);
    if (off) return off;
    const button = input.button ?? 'left';
    await this.services.desktop.input.dragAlong(path, button);
    const first = path[0]!;
    const last = path[path.length - 1]!;
    const via = path.length > 2 ? ` through ${path.length - 2} point(s)` : '';
    return ToolResults.success(`Dragged (${button}) from (${first.x}, ${first.y}) to (${last.x}, ${last.y})${via}.`, { path, button });
  }
}
