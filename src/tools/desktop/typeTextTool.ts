import { Type, type Static } from '@sinclair/typebox';
import { DesktopUnavailableError, errorMessage } from '../../common/errors';
import { escapeInvisible } from '../../common/invisibleText';
import { maskSecretText } from '../../common/redact';
import { sleep } from '../../common/timing';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { keysTarget, type Located, type TargetingTool } from '../actionTarget';
import { ReturnScreenSchema, withScreenAfter } from './screenState';

const schema = toolInput({
  text: Type.String({ minLength: 1, maxLength: 10_000, description: 'Text to type into the focused field' }),
  pressEnter: Type.Optional(Type.Boolean({ description: 'Press Enter after typing', default: false })),
  delay: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000, description: 'Milliseconds between characters', default: 50 })),
  secret: Type.Optional(
    Type.Boolean({ description: 'true when the text is a password, key or other secret: it is then never shown in logs, approvals or stored paths' }),
  ),
  via: Type.Optional(
    StringEnum(['keyboard', 'accessibility'] as const, {
      description:
        '"accessibility" puts the text into the focused field through its accessibility interface, no key pressed (not with pressEnter). Default: the keyboard, or that where this desktop takes no key input.',
    }),
  ),
  returnScreen: ReturnScreenSchema,
});

type TypeTextInput = Static<typeof schema>;

/** Bound on asking the accessibility tree what has the focus; past it the text is judged by its shape only. */
const FOCUS_QUERY_MS = 2_000;

/**
 * Types text where the keyboard focus is (seed 000 §3.2); symbols and accents arrive exactly.
 * A secret (the model says so, the text looks like a key or matches the person's patterns, or
 * the focus is in a password field) is shown only as "••••• (N characters)".
 */
export class TypeTextTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'type_text';
  readonly description = 'Type text into the focused field, exactly as given (symbols, accents), optionally pressing Enter after it. Set secret: true for passwords and keys.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly timeoutMs = 120_000;
  override readonly showsScreenAfter = true;
  /** Inputs publicInput found secret (e.g. by the focused field), so execute does not echo them. */
  private readonly secretInputs = new WeakSet<TypeTextInput>();

  constructor(private readonly services: DesktopServices) {
    super();
  }

  override typesText(_input: unknown): boolean {
    return true;
  }

  /** Keys go to the focused window: that is where it acts. */
  locateTarget(): Promise<Located> {
    return keysTarget(this.services.desktop.windows);
  }

  override async publicInput(input: TypeTextInput, context: ToolContext): Promise<unknown> {
    const secret = this.looksSecret(input) || (await this.focusIsPassword(context));
    if (!secret) return input;
    this.secretInputs.add(input);
    return { ...input, text: maskSecretText(input.text), secret: true };
  }

  protected override checkInput(input: TypeTextInput): string | undefined {
    if (input.via === 'accessibility' && input.pressEnter) return 'pressEnter: Enter is a key press, and via "accessibility" presses none; press it with the key tool';
    return undefined;
  }

  async execute(input: TypeTextInput, context: ToolContext): Promise<ToolResult> {
    const delay = input.delay ?? 50;
    const pressEnter = input.pressEnter ?? false;
    let put = false;
    if (input.via === 'accessibility') {
      const failed = await this.insert(input.text, context.signal);
      if (failed) return failed;
      put = true;
    } else {
      try {
        await this.services.desktop.input.typeText(input.text, delay, context.signal);
      } catch (error) {
        // Where no key can be sent, the field may still take the text through its tree.
        if (!(error instanceof DesktopUnavailableError) || pressEnter || (await this.insert(input.text, context.signal))) throw error;
        put = true;
      }
    }
    if (pressEnter) {
      await sleep(100);
      await this.services.desktop.input.pressKey({ modifiers: [], key: 'enter' });
    }
    const chars = [...input.text].length;
    const secret = this.secretInputs.has(input) || this.looksSecret(input);
    // Invisible characters shown escaped: the card and the model see what was typed, all of it.
    const shown = secret ? maskSecretText(input.text) : `"${escapeInvisible(chars > 60 ? `${[...input.text].slice(0, 60).join('')}…` : input.text)}"`;
    const how = put ? `Put ${chars} character(s) into the focused field through its accessibility interface (no key pressed)` : `Typed ${chars} character(s)`;
    const result = ToolResults.success(`${how}${pressEnter ? ' and pressed Enter' : ''}: ${shown}.`, {
      length: chars,
      pressEnter,
      ...(put ? { via: 'accessibility' } : { delay }),
      ...(secret ? { secret: true } : {}),
    });
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }

  /** Puts the text into the focused field through the tree; the failed result when it cannot. */
  private async insert(text: string, signal: AbortSignal): Promise<ToolResult | undefined> {
    const tree = this.services.desktop.accessibility;
    if (!tree?.insertText) return ToolResults.failure('FAILED', "Cannot put text into a field without the keyboard: this desktop's accessibility tree cannot; nothing was typed.", { hint: 'Type without via: "accessibility".' });
    try {
      await tree.insertText(text, signal);
      return undefined;
    } catch (error) {
      // The reason names the field's role, never the text.
      return ToolResults.failure('FAILED', `Could not put the text into the focused field through the accessibility tree (${errorMessage(error)}); nothing was typed.`, {
        hint: 'Click into an editable field first, or type without via: "accessibility".',
      });
    }
  }

  private looksSecret(input: TypeTextInput): boolean {
    return input.secret === true || this.services.redactor.isSecret(input.text);
  }

  /** AT-SPI role `password text` (GTK's invisible entries, Qt's password echo mode). */
  private async focusIsPassword(context: ToolContext): Promise<boolean> {
    const tree = this.services.desktop.accessibility;
    if (!tree?.focusedElement) return false;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(FOCUS_QUERY_MS)]);
    try {
      // The first availability probe may take seconds (it can start the a11y bus): not past the budget.
      if (!(await untilAborted(tree.available(), signal))) return false;
      const focused = await tree.focusedElement(signal);
      return focused?.role === 'password text';
    } catch (error) {
      context.logger.debug(`type_text: cannot tell whether the focus is a password field (${errorMessage(error)})`);
      return false;
    }
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('no answer in time'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
