import { Type, type Static } from '@sinclair/typebox';
import { sleep } from '../../common/timing';
import type { ToolResult } from '../toolTypes';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';

/** Longest wait: a page or an app that takes longer is checked on and waited for again. */
const MAX_SECONDS = 60;

const schema = toolInput({
  seconds: Type.Number({ exclusiveMinimum: 0, maximum: MAX_SECONDS, description: `How long to wait (at most ${MAX_SECONDS} s)` }),
});

/** Waits for something to finish (a page loading, an app starting); ends at once on cancel. */
export class WaitTool extends ToolBase<typeof schema> {
  readonly name = 'wait';
  readonly description = `Wait a number of seconds (at most ${MAX_SECONDS}) for something to finish, e.g. a page loading, before looking again.`;
  readonly inputSchema = schema;
  readonly risk = 'read' as const;
  override readonly timeoutMs = (MAX_SECONDS + 5) * 1000;

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const started = performance.now();
    await sleep(input.seconds * 1000, context.signal);
    if (context.signal.aborted) return ToolResults.cancelled(this.name, `the wait was cut short after ${Math.round(performance.now() - started)} ms`);
    return ToolResults.success(`Waited ${input.seconds} s.`, { seconds: input.seconds });
  }
}
