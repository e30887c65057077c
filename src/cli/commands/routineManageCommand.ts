import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { err, EXIT, out } from '../../common/cliIo';
import { GaiError } from '../../common/errors';
import { reportingAction, type BrainCommandDeps } from './brainCommand';
import { BrainStore } from '../../navigation/store/brainStore';
import { editRoutine, forgetRoutine, requireRoutine, type RoutineEdit } from '../../navigation/store/routineRecords';
import { addImported, parseRoutineFile, routineFileText } from '../../navigation/routines/routineFile';
import { ensureBrainDir, resolveBrainDir } from '../brainDir';
import { formatRoutine } from './routineCommands';

// `gai routine list|show|param|optional|delete-step|move-step|rename|forget|export|import|confirm`:
// review and edit recorded routines in the brain folder; no desktop is needed.

/** What `gai brain` takes: the same folder, the same way of saying errors. */
export type RoutineManageDeps = BrainCommandDeps;

interface DirOption {
  brainDir?: string;
  json?: boolean;
}

export function registerRoutineManageCommand(program: Command, deps: RoutineManageDeps): void {
  const { io, setExit } = deps;
  const open = async (options: DirOption): Promise<BrainStore> => {
    const dir = await ensureBrainDir(resolveBrainDir({ flag: options.brainDir, env: io.env, configured: deps.configuredDir?.() }));
    return (await BrainStore.open(dir, { logger: deps.logger() })).store;
  };
  const run = reportingAction(io, setExit, 'gai routine', (error) => (error.code === 'INVALID_INPUT' || error.code === 'BRAIN_NOT_FOUND' ? EXIT.usage : EXIT.failed));
  const edit = async (name: string, change: RoutineEdit, options: DirOption): Promise<void> => {
    const store = await open(options);
    const { result } = await store.update((draft, context) => structuredClone(editRoutine(draft, name, change, context.now)));
    out(io, options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatRoutine(result)}\n`);
  };
  const routine = program.command('routine').description('review and edit recorded routines (gai record, gai run)');
  const withDir = (command: Command): Command => command.option('--brain-dir <dir>', 'the brain folder (default: $GAI_BRAIN_DIR, else the user data folder)').option('--json', 'print JSON');

  withDir(routine.command('list').description('the recorded routines')).action(
    run(async (options: DirOption) => {
      const store = await open(options);
      const routines = store.document.routines;
      if (options.json) return void out(io, `${JSON.stringify(routines.map((r) => ({ id: r.id, name: r.name, steps: r.steps.length, parameters: r.parameters.map((p) => p.name), runs: r.runs, origin: r.origin })), null, 2)}\n`);
      if (routines.length === 0) return void out(io, 'No routines yet: record one with gai record NAME.\n');
      for (const r of routines) out(io, `${r.id}\t${r.name}\t${r.steps.length} step(s)\t${r.parameters.map((p) => `{${p.name}}`).join(' ')}\t${r.runs.successes}/${r.runs.successes + r.runs.failures} runs ok\n`);
    }),
  );
  withDir(routine.command('show').description('a routine step by step').argument('<name>')).action(
    run(async (name: string, options: DirOption) => {
      const found = requireRoutine((await open(options)).document, name);
      out(io, options.json ? routineFileText(found) : `${formatRoutine(found)}\n`);
    }),
  );
  withDir(routine.command('param').description('turn a text a step typed into a parameter').argument('<name>').argument('<parameter>', 'e.g. month').argument('<value>', 'the text typed when recorded, e.g. March').option('--step <n>', 'only in this step (1-based)')).action(
    run((name: string, parameter: string, value: string, options: DirOption & { step?: string }) => edit(name, { kind: 'parameter', name: parameter, value, ...(options.step ? { step: stepNumber(options.step) } : {}) }, options)),
  );
  withDir(routine.command('optional').description('mark a step optional (skipped when not found), or not with --off').argument('<name>').argument('<step>', '1-based').option('--off', 'required again')).action(
    run((name: string, step: string, options: DirOption & { off?: boolean }) => edit(name, { kind: 'optional', step: stepNumber(step), optional: options.off !== true }, options)),
  );
  withDir(routine.command('delete-step').description('delete a step').argument('<name>').argument('<step>', '1-based')).action(
    run((name: string, step: string, options: DirOption) => edit(name, { kind: 'delete-step', step: stepNumber(step) }, options)),
  );
  withDir(routine.command('move-step').description('move a step to another place').argument('<name>').argument('<step>', '1-based').argument('<to>', '1-based')).action(
    run((name: string, step: string, to: string, options: DirOption) => edit(name, { kind: 'move-step', step: stepNumber(step), to: stepNumber(to, 'to') }, options)),
  );
  withDir(routine.command('rename').description('rename a routine (its id follows)').argument('<name>').argument('<new-name>')).action(
    run((name: string, newName: string, options: DirOption) => edit(name, { kind: 'rename', name: newName }, options)),
  );
  withDir(routine.command('confirm').description('trust an imported routine after reading its steps (they stop asking)').argument('<name>')).action(
    run((name: string, options: DirOption) => edit(name, { kind: 'confirm' }, options)),
  );
  withDir(routine.command('accept').description('take the change a replay proposed for a step').argument('<name>').argument('<step>', '1-based')).action(
    run((name: string, step: string, options: DirOption) => edit(name, { kind: 'accept', step: stepNumber(step) }, options)),
  );
  withDir(routine.command('reject').description('drop the change a replay proposed for a step').argument('<name>').argument('<step>', '1-based')).action(
    run((name: string, step: string, options: DirOption) => edit(name, { kind: 'reject', step: stepNumber(step) }, options)),
  );
  withDir(routine.command('forget').description('delete a routine').argument('<name>')).action(
    run(async (name: string, options: DirOption) => {
      const store = await open(options);
      const { result } = await store.update((draft, context) => forgetRoutine(draft, name, context.now));
      out(io, `Forgot the routine "${result.name}".\n`);
    }),
  );
  withDir(routine.command('export').description('write a routine as a readable file').argument('<name>').option('--out <file>', 'the file (default: stdout)')).action(
    run(async (name: string, options: DirOption & { out?: string }) => {
      const text = routineFileText(requireRoutine((await open(options)).document, name));
      if (!options.out) return void out(io, text);
      await writeFile(resolve(options.out), text, 'utf8');
      err(io, `Wrote ${resolve(options.out)}\n`);
    }),
  );
  withDir(routine.command('import').description('add a routine from a file (it asks at every step until confirmed)').argument('<file>').option('--replace', 'replace a routine of the same name')).action(
    run(async (file: string, options: DirOption & { replace?: boolean }) => {
      const text = await readFile(resolve(file), 'utf8').catch((error: unknown) => {
        throw new GaiError('INVALID_INPUT', `file: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`);
      });
      const incoming = parseRoutineFile(text);
      const store = await open(options);
      const { result } = await store.update((draft, context) => addImported(draft, incoming, context.now, options));
      out(io, `${formatRoutine(result)}\nImported: its steps ask before they run until you confirm it (gai routine confirm ${result.id}).\n`);
    }),
  );
}

function stepNumber(value: string, field = 'step'): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new GaiError('INVALID_INPUT', `${field}: expected a step number from 1, got ${JSON.stringify(value)}`);
  return n;
}
