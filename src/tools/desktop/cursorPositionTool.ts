import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { toolInput } from '../../common/schema';
import { ToolBase } from '../toolBase';
import { ToolResults } from '../toolResult';

const schema = toolInput({});

/** Where the mouse pointer is. */
export class CursorPositionTool extends ToolBase<typeof schema> {
  readonly name = 'cursor_position';
  readonly description = 'Tell where the mouse pointer is, in screen pixels.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(): Promise<ToolResult> {
    const at = await this.services.desktop.input.position();
    return ToolResults.success(`The pointer is at (${at.x}, ${at.y}).`, { point: at });
  }
}
