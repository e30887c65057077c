// A tool call under the runtime's two bounds: its timeout and the request's cancellation.
import type { ActionWay, ToolResult } from '../tools/toolTypes';
import type { Logger } from '../common/logger';
import type { AnyTool, ToolContext } from '../tools/toolBase';
import { invokeTool } from '../tools/toolRegistry';
import { ToolResults } from '../tools/toolResult';
import type { ActionTarget } from '../tools/actionTarget';

export interface BoundedRunOptions {
  signal: AbortSignal;
  timeoutMs: number;
  logger: Logger;
  /** Where the runtime located the action (passed on in the tool's context). */
  target?: ActionTarget;
  /** The way the call's approval named (passed on in the tool's context). */
  way?: ActionWay;
  /** The tool's way to ask for the pointer after a press did not take; its time waiting for a person does not count against the timeout. */
  pointerFallback?: ToolContext['pointerFallback'];
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
  let left = timeoutMs;
  let armedAt = 0;
  let expire = (): void => {};
  let done = false;
  const arm = (): void => {
    if (done) return;
    armedAt = performance.now();
    timer = setTimeout(expire, left);
  };
  const timedOut = new Promise<ToolResult>((resolve) => {
    expire = (): void => {
      controller.abort(new Error('timeout'));
      resolve(ToolResults.timeout(tool.name, timeoutMs));
    };
  });
  arm();
  const fallback = options.pointerFallback;
  const context: ToolContext = {
    signal: controller.signal,
    logger: options.logger,
    ...(options.target ? { target: options.target } : {}),
    ...(options.way ? { way: options.way } : {}),
    ...(fallback
      ? {
          // A person may take minutes to answer: the clock stops while they are asked.
          pointerFallback: async (target: ActionTarget): Promise<ToolResult | undefined> => {
            clearTimeout(timer);
            left = Math.max(0, left - (performance.now() - armedAt));
            try {
              return await fallback(target);
            } finally {
              arm();
            }
          },
        }
      : {}),
  };
  try {
    return await Promise.race([invokeTool(tool, input, context), timedOut, cancelled]);
  } finally {
    done = true;
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
