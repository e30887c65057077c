// The two steps the runtime adds around a tool for where an action lands: locating it before
// approval (a TargetingTool), and running the tool inside each guard's scope.
import { errorMessage } from '../common/errors';
import type { Logger } from '../common/logger';
import type { ToolCall } from '../model/messages';
import { isTargetingTool, type Located } from '../tools/actionTarget';
import type { AnyTool } from '../tools/toolBase';
import type { ToolResult } from '../tools/toolTypes';
import type { ActionGuard } from './runtimeTypes';

/** The tool's target, located without acting; a lookup that fails leaves the guards to judge the active window. */
export async function locateTarget(tool: AnyTool, input: unknown, signal: AbortSignal, logger: Logger): Promise<Located | undefined> {
  if (!isTargetingTool(tool)) return undefined;
  try {
    return await tool.locateTarget(input, { signal, logger });
  } catch (error) {
    logger.warn(`${tool.name}: could not locate its target before acting (${errorMessage(error)})`);
    return undefined;
  }
}

/** `run` inside every guard's `around`, the first guard outermost. */
export function runInsideGuards(guards: readonly ActionGuard[], call: ToolCall, tool: AnyTool, run: () => Promise<ToolResult>): Promise<ToolResult> {
  const wrapped = guards.reduceRight<() => Promise<ToolResult>>((inner, guard) => (guard.around ? () => guard.around!(call, tool, inner) : inner), run);
  return wrapped();
}
