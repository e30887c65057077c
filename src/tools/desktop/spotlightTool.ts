import { Type, type Static } from '@sinclair/typebox';
import { sleep } from '../../common/timing';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';

const schema = toolInput({
  query: Type.String({ minLength: 1, description: 'What to search for in Spotlight' }),
  pressEnter: Type.Optional(Type.Boolean({ description: 'Open the first result', default: true })),
});

/** macOS Spotlight search (seed 000 §3.5); elsewhere it says to use launch_app. */
export class SpotlightTool extends ToolBase<typeof schema> {
  readonly name = 'spotlight';
  readonly description = 'macOS only: open Spotlight (Cmd+Space), search, and open the first result. On other systems use launch_app.';
  readonly inputSchema = schema;
  readonly risk = 'system' as const;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const platform = this.services.desktop.platform;
    if (platform !== 'darwin') {
      return ToolResults.unsupportedPlatform(this.name, platform, 'Spotlight exists only on macOS; use launch_app with the application name instead.');
    }
    const { input: keyboard } = this.services.desktop;
    await keyboard.pressKey({ modifiers: ['command'], key: 'space' });
    await sleep(300, context.signal); // Spotlight's window must be open before typing
    await keyboard.typeText(input.query, 50, context.signal);
    const pressEnter = input.pressEnter ?? true;
    if (pressEnter) {
      await sleep(500, context.signal); // results must be listed before Enter picks the first
      await keyboard.pressKey({ modifiers: [], key: 'enter' });
    }
    return ToolResults.success(`Searched Spotlight for "${input.query}"${pressEnter ? ' and opened the first result' : ''}.`, {
      query: input.query,
      pressEnter,
      platform,
    });
  }
}
