import type { Static, TObject } from '@sinclair/typebox';
import type { RiskLevel, ToolResult } from './toolTypes';
import type { ValidationResult } from '../common/schema';
import { ToolBase, type AnyTool, type ToolContext } from './toolBase';
import type { NativeComputerTool } from './nativeComputer';
import type { ScreenMark } from './screenMarks';

/**
 * An action tool that returns only once the screen has settled after it acted, so whatever
 * reads the screen next sees the new state (a scripted or fast model asks again within
 * milliseconds, before a page has finished drawing).
 */
export class SettlingTool extends ToolBase {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: TObject;
  readonly risk: RiskLevel;
  override readonly timeoutMs: number | undefined;
  override readonly ordered: boolean;
  override readonly showsScreenAfter: boolean;
  override readonly showsScreenRead: boolean;
  override readonly screenshotCoordinates: boolean;

  constructor(
    private readonly inner: AnyTool,
    private readonly settle: (signal: AbortSignal) => Promise<void>,
    /** Facts about the settled screen added to the result's data (e.g. which screen it is now). */
    private readonly describeSettled?: (signal: AbortSignal) => Promise<Record<string, unknown> | undefined>,
  ) {
    super();
    this.name = inner.name;
    this.description = inner.description;
    this.inputSchema = inner.inputSchema;
    this.risk = inner.risk;
    this.timeoutMs = inner.timeoutMs;
    this.ordered = inner.ordered;
    this.showsScreenAfter = inner.showsScreenAfter;
    this.showsScreenRead = inner.showsScreenRead;
    this.screenshotCoordinates = inner.screenshotCoordinates;
  }

  override riskFor(input: Static<TObject>): RiskLevel {
    return this.inner.riskFor(input);
  }

  override validateInput(input: unknown): ValidationResult<Static<TObject>> {
    return this.inner.validateInput(input);
  }

  override typesText(input: unknown): boolean {
    return this.inner.typesText(input);
  }

  override screenMarks(input: unknown, result: ToolResult): ScreenMark[] {
    return this.inner.screenMarks(input, result);
  }

  override asNativeComputer(): NativeComputerTool | undefined {
    return this.inner.asNativeComputer();
  }

  override publicInput(input: Static<TObject>, context: ToolContext): Promise<unknown> {
    return this.inner.publicInput(input, context);
  }

  async execute(input: Static<TObject>, context: ToolContext): Promise<ToolResult> {
    const result = await this.inner.execute(input, context);
    if (!result.success) return result;
    await this.settle(context.signal);
    const facts = await this.describeSettled?.(context.signal);
    if (!facts) return result;
    const data = result.data !== null && typeof result.data === 'object' && !Array.isArray(result.data) ? result.data : {};
    return { ...result, data: { ...data, ...facts } };
  }
}
