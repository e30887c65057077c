import type { RiskLevel, ToolResult } from '../tools/toolTypes';
import type { ToolCall } from '../model/messages';
import { errorMessage } from '../common/errors';
import { previewCall, summarizeCall } from '../tools/callPreview';
import { ToolResults } from '../tools/toolResult';
import type { ExecutionHooks, TurnOutcome } from './runtimeTypes';

/** What the turn needs of the runtime: running one call (with its retries), and how to schedule it. */
export interface TurnCalls {
  run(call: ToolCall): Promise<{ result: ToolResult; publicCall: ToolCall; abort?: string }>;
  isOrdered(call: ToolCall): boolean;
  riskOf(call: ToolCall): RiskLevel;
}

/**
 * Runs the calls of one model turn. Read calls run in parallel; action and system calls, and
 * calls of `ordered` tools, run one at a time in the model's order, after everything before
 * them has finished. After an action fails or is denied, later actions and ordered calls of
 * the turn are not run: they were planned on the assumption that it worked. After an ordered
 * call fails, no later call of the turn runs (a batch stops at its first failure).
 */
export async function runTurn(runtime: TurnCalls, calls: ToolCall[], signal: AbortSignal, hooks: ExecutionHooks): Promise<TurnOutcome> {
  const results: ToolResult[] = new Array<ToolResult>(calls.length);
  const publicCalls: ToolCall[] = calls.map(previewCall);
  let abort: string | undefined;
  let blockedBy: string | undefined;
  let batchStopped: string | undefined;
  let reads: Promise<void>[] = [];

  const run = async (index: number, call: ToolCall): Promise<void> => {
    try {
      const outcome = await runtime.run(call);
      results[index] = outcome.result;
      publicCalls[index] = outcome.publicCall;
      if (outcome.abort) abort ??= outcome.abort;
    } catch (error) {
      // Nothing a call does may end the turn: the other results must still reach the model.
      results[index] = ToolResults.failure('FAILED', `Tool execution failed: ${errorMessage(error)}`);
      hooks.onToolFinished?.(publicCalls[index] ?? previewCall(call), results[index]);
    }
  };
  const skip = (index: number, call: ToolCall, why: string): void => {
    results[index] = ToolResults.cancelled(call.name, why);
    hooks.onToolFinished?.(publicCalls[index] ?? previewCall(call), results[index]);
  };

  for (const [index, call] of calls.entries()) {
    if (signal.aborted || abort) {
      skip(index, call, stopReason(signal, abort));
      continue;
    }
    if (batchStopped) {
      skip(index, call, `not run because ${batchStopped}`);
      continue;
    }
    const ordered = runtime.isOrdered(call);
    const risk = runtime.riskOf(call);
    if (risk === 'read' && !ordered) {
      reads.push(run(index, call));
      continue;
    }
    await Promise.all(reads);
    reads = [];
    if (signal.aborted || abort) {
      skip(index, call, stopReason(signal, abort));
    } else if (blockedBy) {
      skip(index, call, `not run because ${blockedBy}`);
    } else {
      await run(index, call);
      if (results[index]?.success) continue;
      const failed = `the earlier call ${summarizeCall(publicCalls[index] ?? call)} failed`;
      if (ordered) batchStopped = failed;
      if (risk !== 'read') blockedBy = ordered ? failed : `the earlier action ${call.name} did not succeed`;
    }
  }
  await Promise.all(reads);
  return { results, publicCalls, abort };
}

function stopReason(signal: AbortSignal, abort: string | undefined): string {
  return signal.aborted || !abort ? 'the request was cancelled' : `the request was stopped: ${abort}`;
}
