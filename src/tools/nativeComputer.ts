import type { ToolDefinition } from '../model/messages';
import type { LlmRequest, NativeComputerUse } from '../model/llmProvider';

/**
 * A tool a model may be offered as its vendor's native computer-use tool (GAI's `computer`).
 * The agent asks its registry for one (ToolBase.asNativeComputer) and, on a turn whose model
 * speaks the native tool, hands it the model's needs: the tool sizes its screenshots and says
 * which tools it stands in for. So the agent neither knows the tool's name nor sizes screenshots.
 */
export interface NativeComputerTool {
  readonly name: string;
  /** The turn's model speaks the native tool: screenshots are scaled to its image limits from now on. */
  adaptTo(native: NativeComputerUse): void;
  /** The screenshot size the model is told of; read each turn, as the screen may change. */
  displaySize(): Promise<NonNullable<LlmRequest['computer']>>;
  /** The turn's tools with it: without the ones whose work it does, the others as they are offered beside it. */
  offeredWith(definitions: readonly ToolDefinition[]): ToolDefinition[];
}
