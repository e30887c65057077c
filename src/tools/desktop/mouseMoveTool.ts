import { type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { toolInput } from '../../common/schema';
import { ToolBase } from '../toolBase';
import { ToolResults } from '../toolResult';
import { pointsOffScreen, ScreenPointSchema } from './screenPoints';

const schema = toolInput({ to: ScreenPointSchema });

/** Moves the pointer without clicking: hover to open a tooltip or a menu that opens on hover. */
export class MouseMoveTool extends ToolBase<typeof schema> {
  readonly name = 'mouse_move';
  readonly description = 'Move the mouse pointer to a point (screen pixels) without clicking, e.g. to hover over something.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(input: Static<typeof schema>): Promise<ToolResult> {
    const off = pointsOffScreen(this.name, [['to', input.to]], await this.services.desktop.screen.size());
    if (off) return off;
    await this.services.desktop.input.move(input.to);
    return ToolResults.success(`Moved the pointer to (${input.to.x}, ${input.to.y}).`, { point: input.to });
  }
}
