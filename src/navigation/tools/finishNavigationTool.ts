import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../../tools/toolTypes';
import { toolInput } from '../../common/schema';
import { ToolBase } from '../../tools/toolBase';
import { ToolResults } from '../../tools/toolResult';

const schema = toolInput({
  success: Type.Boolean({ description: 'true when the screen now shows the target; false when it cannot be reached' }),
  summary: Type.String({ minLength: 1, maxLength: 500, description: 'One line: where you are now, or why the target cannot be reached' }),
});

export type NavigationFinish = Static<typeof schema>;

/**
 * Offered to the model only while the brain learns a path: the model calls it when the target
 * is reached (or cannot be), and the learning run ends there.
 */
export class FinishNavigationTool extends ToolBase<typeof schema> {
  readonly name = 'finish_navigation';
  readonly description =
    'Call this once the screen shows the navigation target (success: true), or when it cannot be reached (success: false). ' +
    'Nothing else ends a navigation.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;

  constructor(private readonly onFinish: (finish: NavigationFinish) => void) {
    super();
  }

  async execute(input: NavigationFinish): Promise<ToolResult> {
    this.onFinish(input);
    return ToolResults.success(input.success ? `Navigation finished: ${input.summary}` : `Navigation given up: ${input.summary}`, { ...input });
  }
}
