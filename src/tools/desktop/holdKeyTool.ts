import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { describeCombo, resolveCombo } from '../../desktop/input/keys';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { keysTarget, type Located, type TargetingTool } from '../actionTarget';

const MAX_SECONDS = 30;

const schema = toolInput({
  key: Type.String({ minLength: 1, description: 'A key or combination to hold, e.g. "shift", "right", "ctrl+up"' }),
  seconds: Type.Number({ exclusiveMinimum: 0, maximum: MAX_SECONDS, description: `How long to hold it (at most ${MAX_SECONDS} s)` }),
});

/** Holds keys down for a while (a game, a key that repeats, a modifier held); always released. */
export class HoldKeyTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'hold_key';
  readonly description = `Hold a key or combination down for some seconds (at most ${MAX_SECONDS}), then release it.`;
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly timeoutMs = (MAX_SECONDS + 5) * 1000;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** Keys go to the focused window: that is where it acts. */
  locateTarget(): Promise<Located> {
    return keysTarget(this.services.desktop.windows);
  }

  protected override checkInput(input: Static<typeof schema>): string | undefined {
    try {
      resolveCombo(input.key);
      return undefined;
    } catch (error) {
      return `key: ${(error as Error).message}`;
    }
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const combo = resolveCombo(input.key);
    const started = performance.now();
    await this.services.desktop.input.holdKey(combo, Math.round(input.seconds * 1000), context.signal);
    const name = describeCombo(combo);
    if (context.signal.aborted) return ToolResults.cancelled(this.name, `${name} was released after ${Math.round(performance.now() - started)} ms`);
    return ToolResults.success(`Held ${name} for ${input.seconds} s, then released it.`, { key: name, seconds: input.seconds });
  }
}
