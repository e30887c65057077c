import { Type, type Static } from '@sinclair/typebox';
import { errorMessage, isGaiError } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { BrainProvider } from '../navigationBrain';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../../tools/toolBase';
import { ToolResults } from '../../tools/toolResult';

const schema = toolInput({
  target: Type.String({
    minLength: 1,
    maxLength: 300,
    description: 'Where to go, in words: e.g. "Network settings", "Desktop folder in Files", "Calculator"',
  }),
});

/** Goes to a screen by a learned path (no model), or learns the way once (seed 000 §4.1). */
export class NavigateToTool extends ToolBase<typeof schema> {
  readonly name = 'navigate_to';
  readonly description =
    'Bring the desktop to a named screen or place (a page of an app, a settings pane, an app). Replays a way learned ' +
    'before without the model; when none is known it learns one and remembers it. Prefer this over clicking step by step ' +
    'for getting somewhere.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  // Learning runs a whole agent loop of its own.
  override readonly timeoutMs = 300_000;

  constructor(private readonly brain: BrainProvider) {
    super();
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    try {
      const report = await (await this.brain()).navigateTo(input.target, { signal: context.signal });
      const data = { ...report, durationMs: Math.round(report.durationMs) };
      if (report.success) return ToolResults.success(report.message, data);
      if (report.denied?.length) {
        // Not a wrong way: steps were refused. Retrying or clicking step by step is refused alike.
        return ToolResults.failure('DENIED', report.message, { data, hint: 'The navigation needs the person to allow its steps; tell them what was refused instead of trying another way.' });
      }
      return ToolResults.failure('FAILED', report.message, { data, hint: 'Read the screen to see where it stopped, or navigate step by step.' });
    } catch (error) {
      if (context.signal.aborted) throw error;
      return ToolResults.failure(isGaiError(error) && error.code === 'INVALID_INPUT' ? 'INVALID_INPUT' : 'FAILED', `Navigation failed: ${errorMessage(error)}`);
    }
  }
}
