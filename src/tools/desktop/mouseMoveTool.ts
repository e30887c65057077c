import { type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { toolInput } from '../../common/schema';
import { ToolBase } from '../toolBase';
import { ToolResults } from '../toolResult';
import { pointsOffScreen, ScreenPointSchema } from './screenPoints';
import { pointerTarget, type Located, type TargetingTool } from '../actionTarget';

const schema = toolInput({ to: ScreenPointSchema });

/** Moves the pointer without clicking: hover to open a tooltip or a menu that opens on hover. */
export class MouseMoveTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'mouse_move';
  readonly description = 'Move the mouse pointer to a point (screen pixels) without clicking, e.g. to hover over something.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** Hovering acts too (menus open, tooltips show): the window under the point is judged. */
  async locateTarget(input: Static<typeof schema>): Promise<Located> {
    const off = pointsOffScreen(this.name, [['to', input.to]], await this.services.desktop.screen.size());
    return off ? { failure: off } : pointerTarget(this.services.desktop.windows, [input.to]);
  }

  async execute(input: Static<typeof schema>): Promise<ToolResult> {
    const off = pointsOffScreen(this.name, [['to', input.to]], await this.services.desktop.screen.size());
    if (off) return off;
    await this.services.desktop.input.move(input.to);
    return ToolResults.success(`Moved the pointer to (${input.to.x}, ${input.to.y}).`, { point: input.to });
  }
}
