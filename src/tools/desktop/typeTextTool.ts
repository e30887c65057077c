import { Type, type Static } from '@sinclair/typebox';
import { sleep } from '../../core/timing';
import type { ToolResult } from '../../core/types';
import type { DesktopServices } from '../../desktop/desktopServices';
import { toolInput } from '../schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { ReturnScreenSchema, withScreenAfter } from './screenState';

const schema = toolInput({
  text: Type.String({ minLength: 1, maxLength: 10_000, description: 'Text to type into the focused field' }),
  pressEnter: Type.Optional(Type.Boolean({ description: 'Press Enter after typing', default: false })),
  delay: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000, description: 'Milliseconds between characters', default: 50 })),
  returnScreen: ReturnScreenSchema,
});

/** Types text where the keyboard focus is (seed 000 §3.2); symbols and accents arrive exactly. */
export class TypeTextTool extends ToolBase<typeof schema> {
  readonly name = 'type_text';
  readonly description = 'Type text into the focused field, exactly as given (symbols, accents), optionally pressing Enter after it.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly timeoutMs = 120_000;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const delay = input.delay ?? 50;
    const pressEnter = input.pressEnter ?? false;
    await this.services.desktop.input.typeText(input.text, delay, context.signal);
    if (pressEnter) {
      await sleep(100);
      await this.services.desktop.input.pressKey({ modifiers: [], key: 'enter' });
    }
    const chars = [...input.text].length;
    const preview = chars > 60 ? `${[...input.text].slice(0, 60).join('')}…` : input.text;
    const result = ToolResults.success(`Typed ${chars} character(s)${pressEnter ? ' and pressed Enter' : ''}: "${preview}".`, {
      length: chars,
      pressEnter,
      delay,
    });
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }
}
