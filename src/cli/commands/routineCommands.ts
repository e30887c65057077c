import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { err, EXIT, out, type CliIo } from '../../common/cliIo';
import { GaiError } from '../../common/errors';
import type { LlmSettings } from '../../model/llmConfig';
import type { NavigationBrain } from '../../navigation/navigationBrain';
import type { RoutineRunReport } from '../../navigation/routines/routinePlayer';
import { describeStep } from '../../navigation/routines/stepWords';
import type { Routine } from '../../navigation/store/routineTypes';
import type { BrainOpener, NavigationWatch } from './navigateCommand';

// `gai record NAME`: watch the person do a task once and keep it as a routine; `gai run NAME
// --param k=v`: replay it without a model, each step found by its anchors.

interface RecordOptions {
  brainDir?: string;
  param?: string[];
  describe?: string;
  replace?: boolean;
  json?: boolean;
}

interface RunOptions {
  brainDir?: string;
  param?: string[];
  profile?: string;
  yes?: boolean;
  json?: boolean;
}

const NO_MODEL: LlmSettings = {};

export function registerRoutineCommands(program: Command, io: CliIo, openBrain: BrainOpener, setExit: (code: number) => void, safety?: NavigationWatch): void {
  program
    .command('record')
    .description('watch you do a task once and keep it as a routine that replays without a model (X11 and GAI\'s own desktop)')
    .argument('<name>', 'the routine\'s name, e.g. "Export report"')
    .option('--param <name=value...>', 'turn a text you type into a parameter, e.g. --param month=March')
    .option('--describe <text>', 'what the routine does, for the people and agents that run it')
    .option('--replace', 'replace a routine of the same name')
    .option('--json', 'print the routine as JSON')
    .option('--brain-dir <dir>', 'the brain folder (default: $GAI_BRAIN_DIR, else the user data folder)')
    .action(async (name: string, options: RecordOptions) => {
      const parameters = parseParams(options.param, '--param');
      const brain = await openBrain(options.brainDir, NO_MODEL, {});
      const book = brain.routines;
      let stopRequested: () => void = () => undefined;
      const stopped = new Promise<'stop' | 'cancel'>((resolve) => {
        stopRequested = () => resolve('stop');
        process.once('SIGINT', () => resolve('cancel'));
        // A script (or another agent) ends it without a terminal.
        process.once('SIGTERM', () => resolve('stop'));
      });
      await book.startRecording(name, {
        onObserved: (line) => err(io, `  recorded: ${line}\n`),
        onStopHotkey: () => stopRequested(),
        onWarning: (message) => err(io, `warning: ${message}\n`),
      });
      err(io, `Recording "${name}": do the task in its windows now. Press Enter here or the stop hotkey (Ctrl+Alt+Escape) to stop; Ctrl+C drops it.\n`);
      const lines = createInterface({ input: process.stdin });
      lines.once('line', () => stopRequested());
      const how = await stopped;
      lines.close();
      if (how === 'cancel') {
        await book.cancelRecording();
        err(io, 'Recording dropped; nothing kept.\n');
        setExit(EXIT.cancelled);
        return;
      }
      const { routine, recording } = await book.stopRecording({ parameters, ...(options.describe ? { description: options.describe } : {}), ...(options.replace ? { replace: true } : {}) });
      if (options.json) out(io, `${JSON.stringify({ routine: withoutPictures(routine), events: recording.events, skipped: recording.skipped, anchorMs: recording.anchorMs.map(Math.round) }, null, 2)}\n`);
      else {
        out(io, `${formatRoutine(routine)}\n`);
        const unused = recording.typed.filter((text) => !Object.values(parameters).includes(text));
        if (unused.length) out(io, `Typed texts that can become parameters: ${unused.map((t) => JSON.stringify(t)).join(', ')} (gai routine param "${routine.name}" NAME VALUE)\n`);
        out(io, `Run it with: gai run ${routine.id}${routine.parameters.map((p) => ` --param ${p.name}=…`).join('')}\n`);
      }
      setExit(EXIT.ok);
    });

  program
    .command('run')
    .description('replay a recorded routine without a model; each step found by its anchors, stopping at the first it cannot find')
    .argument('<name>', 'the routine (its name or id)')
    .option('--param <name=value...>', 'a value for a parameter, e.g. --param month=March')
    .option('--profile <profile>', 'tool profile for the steps: read-only, standard or full')
    .option('--yes', 'approve every step without asking (steps of imported, unconfirmed routines still ask or are denied)')
    .option('--json', 'print the run report as JSON')
    .option('--brain-dir <dir>', 'the brain folder (default: $GAI_BRAIN_DIR, else the user data folder)')
    .action(async (name: string, options: RunOptions) => {
      const params = parseParams(options.param, '--param');
      const brain: NavigationBrain = await openBrain(options.brainDir, NO_MODEL, { profile: options.profile, yes: options.yes });
      const controller = new AbortController();
      const onSigint = (): void => controller.abort();
      process.on('SIGINT', onSigint);
      const watch = safety?.begin(() => controller.abort());
      try {
        const report = await brain.routines.run(name, params, {
          signal: controller.signal,
          // In a terminal the person can show a step GAI cannot find; its new way is only proposed.
          ...(io.interactive && !options.json
            ? {
                tellPerson: (message: string) => {
                  err(io, `${message}\n`);
                  return Promise.resolve(true);
                },
              }
            : {}),
          onStepStart: (index, total, action) => {
            if (!options.json) err(io, `Step ${index + 1} of ${total}: ${action}\n`);
          },
        });
        if (options.json) out(io, `${JSON.stringify({ ...report, durationMs: Math.round(report.durationMs), steps: report.steps.map((s) => ({ ...s, durationMs: Math.round(s.durationMs) })) }, null, 2)}\n`);
        else out(io, `${formatRun(report)}\n`);
        setExit(report.ok ? EXIT.ok : EXIT.failed);
      } catch (error) {
        if (!controller.signal.aborted) throw error;
        err(io, 'Routine stopped.\n');
        setExit(EXIT.cancelled);
      } finally {
        process.removeListener('SIGINT', onSigint);
        await watch?.end();
      }
    });
}

/** `--param a=b --param c=d` → { a: 'b', c: 'd' }; a bad one names itself. */
export function parseParams(values: readonly string[] | undefined, flag: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at <= 0) throw new GaiError('INVALID_INPUT', `${flag}: expected NAME=VALUE, got ${JSON.stringify(value)}`);
    const name = value.slice(0, at).trim();
    if (name in params) throw new GaiError('INVALID_INPUT', `${flag}: ${name} is given twice`);
    params[name] = value.slice(at + 1);
  }
  return params;
}

export function formatRoutine(routine: Routine): string {
  const lines = [`Routine "${routine.name}" (${routine.id}), ${routine.steps.length} step(s)${routine.origin === 'imported' && !routine.confirmedAt ? ', imported, not confirmed' : ''}:`];
  routine.steps.forEach((step, i) => lines.push(`  ${i + 1}. ${describeStep(step)}`));
  for (const proposal of routine.proposals) {
    const index = routine.steps.findIndex((s) => s.id === proposal.stepId);
    lines.push(`Proposed for step ${index + 1} (by the ${proposal.by}): ${describeStep(proposal.step)} — ${proposal.reason} (gai routine accept ${routine.id} ${index + 1}, or reject)`);
  }
  if (routine.parameters.length) lines.push(`Parameters: ${routine.parameters.map((p) => `${p.name}${p.default !== undefined ? ` (recorded: ${JSON.stringify(p.default)})` : ''}`).join(', ')}`);
  return lines.join('\n');
}

function formatRun(report: RoutineRunReport): string {
  const done = report.steps.filter((s) => s.ok).length;
  const skipped = report.steps.filter((s) => s.skipped).length;
  const head = report.ok ? `Ran "${report.routine}": ${done} step(s)${skipped ? `, ${skipped} optional skipped` : ''}, no model.` : `Stopped "${report.routine}" at ${report.reason ?? 'a step'}. Nothing after it was done.`;
  return `${head}\n  ${report.modelCalls} model call(s) · ${Math.round(report.durationMs)} ms`;
}

function withoutPictures(routine: Routine): Routine {
  const copy = structuredClone(routine);
  for (const step of copy.steps) delete step.anchors.crop;
  return copy;
}
