// The steps the runtime adds around a tool for where an action lands: locating it before
// approval (a TargetingTool), the app its approval names, and running the tool inside each
// guard's scope.
import { errorMessage } from '../common/errors';
import type { Logger } from '../common/logger';
import type { ToolCall } from '../model/messages';
import { isTargetingTool, type Located } from '../tools/actionTarget';
import type { AnyTool } from '../tools/toolBase';
import type { ToolResult } from '../tools/toolTypes';
import type { ActionTarget } from '../tools/toolTypes';
import type { ActionGuard, ApprovalApp } from './runtimeTypes';

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

/** The app the call lands in, from the first guard that knows (best effort: a failure asks without it). */
export async function approvalApp(guards: readonly ActionGuard[], call: ToolCall, tool: AnyTool, target: ActionTarget | undefined, signal: AbortSignal, logger: Logger): Promise<ApprovalApp | undefined> {
  for (const guard of guards) {
    if (!guard.approvalApp) continue;
    try {
      const app = await guard.approvalApp(call, tool, target, signal);
      if (app) return app;
    } catch (error) {
      logger.warn(`guard ${guard.name}: could not say which app ${tool.name} lands in (${errorMessage(error)})`);
    }
  }
  return undefined;
}
