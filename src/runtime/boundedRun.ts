// A tool call under the runtime's two bounds: its timeout and the request's cancellation.
import type { ToolResult } from '../tools/toolTypes';
import type { Logger } from '../common/logger';
import type { AnyTool } from '../tools/toolBase';
import { invokeTool } from '../tools/toolRegistry';
import { ToolResults } from '../tools/toolResult';
import type { ActionTarget } from '../tools/actionTarget';

export interface BoundedRunOptions {
  signal: AbortSignal;
  timeoutMs: number;
  logger: Logger;
  /** Where the runtime located the action (passed on in the tool's context). */
  target?: ActionTarget;
}

/** Runs a validated input; settles with TIMEOUT or CANCELLED as soon as either bound is hit. */
export async function runToolBounded(tool: AnyTool, input: unknown, options: BoundedRunOptions): Promise<ToolResult> {
  const { signal, timeoutMs } = options;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => {};
  // One listener both stops the tool and settles the race, and is removed afterwards,
  // so a long-lived request signal collects no listeners.
  const cancelled = new Promise<ToolResult>((resolve) => {
    onAbort = (): void => {
      controller.abort(signal.reason);
      resolve(ToolResults.cancelled(tool.name));
    };
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const timedOut = new Promise<ToolResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve(ToolResults.timeout(tool.name, timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([invokeTool(tool, input, { signal: controller.signal, logger: options.logger, ...(options.target ? { target: options.target } : {}) }), timedOut, cancelled]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
