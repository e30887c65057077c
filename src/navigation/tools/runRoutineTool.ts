import { Type, type Static } from '@sinclair/typebox';
import { errorMessage, isGaiError } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { BrainProvider } from '../navigationBrain';
import { toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../../tools/toolBase';
import { ToolResults } from '../../tools/toolResult';
import { describeStep } from '../routines/stepWords';

const schema = toolInput({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'The routine, by its name or id, e.g. "Export report"' }),
  params: Type.Optional(
    Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' }), Type.String({ maxLength: 10_000 }), {
      description: 'Values for its parameters, e.g. {"month": "March"}; a parameter left out types what was typed when it was recorded',
    }),
  ),
});

/** Runs a routine the person recorded (Record Steps), without a model: every front that has navigate_to has this. */
export class RunRoutineTool extends ToolBase<typeof schema> {
  readonly name = 'run_routine';
  readonly description =
    'Run a task the person showed GAI once (a routine recorded with Record Steps), without the model: each step is found ' +
    'by its accessible element and visible text, and the run stops at the first step it cannot find. Give the routine\'s ' +
    'name and values for its parameters. An unknown name answers with the routines there are and their parameters.';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly timeoutMs = 300_000;

  constructor(private readonly brain: BrainProvider) {
    super();
  }

  async execute(input: Static<typeof schema>, context: ToolContext): Promise<ToolResult> {
    const book = (await this.brain()).routines;
    try {
      const report = await book.run(input.name, input.params ?? {}, { signal: context.signal });
      const lines = report.steps.map((s) => `${s.ok ? '✓' : s.skipped ? '–' : '✗'} ${s.action}`).join('\n');
      const data = { ok: report.ok, modelCalls: report.modelCalls, durationMs: Math.round(report.durationMs), steps: report.steps.map((s) => ({ action: s.action, ok: s.ok, via: s.via, skipped: s.skipped })) };
      if (report.ok) return ToolResults.success(`Ran "${report.routine}" (${report.steps.length} steps, no model):\n${lines}`, data);
      const why = report.reason ?? 'a step failed';
      if (report.denied) return ToolResults.failure('DENIED', why, { observation: `"${report.routine}" stopped: a step was not allowed. ${why}`, data, hint: 'Tell the person what was refused instead of trying another way.' });
      return ToolResults.failure('NOT_FOUND', why, { observation: `"${report.routine}" stopped at ${why}; nothing after it was done.\n${lines}`, data, hint: 'Read the screen to see where it stopped; the person can record the routine again.' });
    } catch (error) {
      if (context.signal.aborted) throw error;
      if (isGaiError(error, 'BRAIN_NOT_FOUND') || isGaiError(error, 'INVALID_INPUT')) {
        const known = book.list().map((r) => `"${r.name}"${r.parameters.length ? ` (params: ${r.parameters.map((p) => p.name).join(', ')})` : ''}: ${r.steps.slice(0, 3).map((s) => describeStep(s)).join('; ')}`);
        return ToolResults.failure('INVALID_INPUT', errorMessage(error), { hint: known.length ? `Routines: ${known.join(' | ')}` : 'No routine is recorded yet: the person records one with Record Steps (or gai record NAME).' });
      }
      return ToolResults.failure('FAILED', `The routine did not run: ${errorMessage(error)}`);
    }
  }
}
