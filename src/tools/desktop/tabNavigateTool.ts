import { Type, type Static } from '@sinclair/typebox';
import { sleep } from '../../common/timing';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { keysTarget, type Located, type TargetingTool } from '../actionTarget';
import { ReturnScreenSchema, withScreenAfter } from './screenState';

const schema = toolInput({
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'How many times to press Tab', default: 1 })),
  reverse: Type.Optional(Type.Boolean({ description: 'Go backwards (Shift+Tab)', default: false })),
  returnScreen: ReturnScreenSchema,
});

/** Moves the keyboard focus with Tab / Shift+Tab (seed 000 §3.4). */
export class TabNavigateTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'tab_navigate';
  readonly description = 'Move the keyboard focus between controls with Tab (or Shift+Tab when reverse is true).';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** Keys go to the focused window: that is where it acts. */
  locateTarget(): Promise<Located> {
    return keysTarget(this.services.desktop.windows);
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const count = input.count ?? 1;
    const reverse = input.reverse ?? false;
    for (let i = 0; i < count; i++) {
      if (context.signal.aborted) return ToolResults.cancelled(this.name, `pressed Tab ${i} of ${count} times before the cancel`);
      await this.services.desktop.input.pressKey({ modifiers: reverse ? ['shift'] : [], key: 'tab' });
      // Let the toolkit move the focus before the next press.
      if (i < count - 1) await sleep(100);
    }
    const result = ToolResults.success(`Pressed ${reverse ? 'Shift+Tab' : 'Tab'} ${count} time(s).`, {
      count,
      reverse,
      direction: reverse ? 'backward' : 'forward',
    });
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }
}
