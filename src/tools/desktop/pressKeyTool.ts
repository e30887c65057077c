import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { describeCombo, resolveCombo } from '../../desktop/input/keys';
import type { KeyCombo } from '../../desktop/ports/inputPort';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { keysTarget, type Located, type TargetingTool } from '../actionTarget';
import { ReturnScreenSchema, withScreenAfter } from './screenState';

const schema = toolInput({
  key: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 20 })], {
    description: 'A key ("enter", "tab", "escape", "f5", "a", "+"), a combination ("ctrl+s", "command+shift+t"), or a list pressed one after another',
  }),
  modifiers: Type.Optional(
    Type.Array(StringEnum(['command', 'ctrl', 'alt', 'shift'] as const), {
      description: 'Held while each key is pressed. "command" is Cmd on macOS and Ctrl elsewhere.',
      maxItems: 4,
    }),
  ),
  returnScreen: ReturnScreenSchema,
});

type PressKeyInput = Static<typeof schema>;

/** Presses keys and shortcuts (seed 000 §3.3). */
export class PressKeyTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'press_key';
  readonly description =
    'Press a key or shortcut, e.g. key "enter", key "ctrl+s", or key "t" with modifiers ["command","shift"]. ' +
    'A list of keys is pressed in sequence. "command" means Cmd on macOS and Ctrl on Linux and Windows.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly showsScreenAfter = true;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  /** Keys go to the focused window: that is where it acts. */
  locateTarget(): Promise<Located> {
    return keysTarget(this.services.desktop.windows);
  }

  protected override checkInput(input: PressKeyInput): string | undefined {
    try {
      combos(input);
      return undefined;
    } catch (error) {
      return `key: ${(error as Error).message}`;
    }
  }

  async execute(input: PressKeyInput, context: ToolContext): Promise<ToolResult> {
    const list = combos(input);
    for (const [i, combo] of list.entries()) {
      if (context.signal.aborted) return ToolResults.cancelled(this.name, `pressed ${i} of ${list.length} keys before the cancel`);
      await this.services.desktop.input.pressKey(combo);
    }
    const names = list.map(describeCombo);
    const result = ToolResults.success(`Pressed ${names.join(', then ')}.`, { keys: names });
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }
}

function combos(input: PressKeyInput): KeyCombo[] {
  const keys = Array.isArray(input.key) ? input.key : [input.key];
  return keys.map((key) => resolveCombo(key, input.modifiers ?? []));
}
