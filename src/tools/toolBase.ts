import type { Static, TObject } from '@sinclair/typebox';
import type { ActionTarget, ActionWay, RiskLevel, ToolResult } from './toolTypes';
import type { ToolDefinition, JsonObjectSchema } from '../model/messages';
import type { Logger } from '../common/logger';
import { compileValidator, type InputValidator, type ValidationResult } from '../common/schema';
import type { NativeComputerTool } from './nativeComputer';
import type { ScreenMark } from './screenMarks';

export interface ToolContext {
  /** Aborted on cancel or timeout; long-running tools must stop when it fires. */
  signal: AbortSignal;
  logger: Logger;
  /** Where the runtime located the action before approving it (TargetingTool): act there. */
  target?: ActionTarget;
  /** The way its approval named (the target's), kept when the target is not: a tool that looks again still acts that way. */
  way?: ActionWay;
  /**
   * Asks to act with the pointer at `target` after a press through accessibility did not take,
   * under the pointer's approval rules (see ToolRuntime). Undefined: go ahead; else the result
   * that says why not. Absent: nobody can approve it, so the pointer is not used.
   */
  pointerFallback?(target: ActionTarget): Promise<ToolResult | undefined>;
}

/**
 * The base of every tool (seed 000 §1). The schema is declared once with TypeBox; the base
 * validates against it fully (types, enums, ranges, unions, unknown fields) before `execute`.
 * What hosts (the chat, VS Code's tools, the agent) need to know of a tool is declared here
 * too, once per tool, so no host keeps a list of tool names.
 */
export abstract class ToolBase<S extends TObject = TObject> {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly inputSchema: S;
  abstract readonly risk: RiskLevel;
  /** Overrides the runtime's default timeout for this tool. */
  readonly timeoutMs?: number;
  /**
   * A batch member: never runs alongside the turn's other calls, and when it fails (however it
   * fails, read or not) the turn's later calls are answered as not run. A model that sends its
   * steps as one batch plans each on the ones before having worked.
   */
  readonly ordered: boolean = false;
  /** Hosts show the screen after a call that worked (the chat's tool card), marked with `screenMarks`. */
  readonly showsScreenAfter: boolean = false;
  /** Hosts show the screen the call read beside its result (an OCR reading, the candidates of an ambiguous click). */
  readonly showsScreenRead: boolean = false;
  /** Its input's points are pixels of the screenshots it returned: a host scales them to name a screen point. */
  readonly screenshotCoordinates: boolean = false;

  private validator?: InputValidator<Static<S>>;

  abstract execute(input: Static<S>, context: ToolContext): Promise<ToolResult>;

  getDefinition(): ToolDefinition {
    // JSON round trip drops TypeBox's symbol keys and leaves plain JSON Schema.
    const inputSchema = JSON.parse(JSON.stringify(this.inputSchema)) as JsonObjectSchema;
    return { name: this.name, description: this.description, inputSchema };
  }

  validateInput(input: unknown): ValidationResult<Static<S>> {
    // Models and MCP clients send a label that looks like a number as one ("7").
    this.validator ??= compileValidator(this.inputSchema, { numbersAsText: true });
    const result = this.validator.validate(input);
    if (!result.ok) return result;
    const crossFieldError = this.checkInput(result.value);
    return crossFieldError ? { ok: false, errors: [crossFieldError] } : result;
  }

  /** The risk of one call (e.g. a screenshot is `read` where a click is `action`); `risk` by default. */
  riskFor(_input: Static<S>): RiskLevel {
    return this.risk;
  }

  /**
   * Whether the call types the text in its input: hosts name the field it goes to, and never show
   * a secret's text. The input is the public one (masked, maybe a bounded preview), hence unknown.
   */
  typesText(_input: unknown): boolean {
    return false;
  }

  /**
   * Where the call acted (a click's point, a drag's ends, a scroll's point) or could have (the
   * candidates of an ambiguous click), in screen pixels: the one decoder of its result for hosts.
   */
  screenMarks(_input: unknown, _result: ToolResult): ScreenMark[] {
    return [];
  }

  /** This tool as the model's native computer tool, when it can be one. */
  asNativeComputer(): NativeComputerTool | undefined {
    return undefined;
  }

  /**
   * The input as people, logs, approvals, events and the brain may see it (secrets masked).
   * Called once per call, after validation.
   */
  publicInput(input: Static<S>, _context: ToolContext): Promise<unknown> {
    return Promise.resolve(input);
  }

  /** Rules a schema cannot express (e.g. "x and y together, or text"); name the field. */
  protected checkInput(_input: Static<S>): string | undefined {
    return undefined;
  }
}

/** Any tool, whatever its schema; what registries and runtimes hold. */
export type AnyTool = ToolBase<TObject>;
