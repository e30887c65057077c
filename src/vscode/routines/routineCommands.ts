// Record Steps, Stop Recording and Run Routine in the command palette: the person shows a task
// once, names the texts that change between runs, and runs it again without a model.
import * as vscode from 'vscode';
import type { RoutineRunReport } from '../../navigation/routines/routinePlayer';
import { describeStep } from '../../navigation/routines/stepWords';
import type { Routine } from '../../navigation/store/routineTypes';
import type { GaiController } from '../gaiController';
import { registerReported } from '../commands';

interface StopArgs {
  parameters?: Record<string, string>;
  cancel?: boolean;
}

interface RunArgs {
  name: string;
  params?: Record<string, string>;
}

export function registerRoutineCommands(controller: GaiController): vscode.Disposable[] {
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 1000);
  status.command = 'gai.stopRecording';
  status.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
  const book = async () => (await (await controller.getParts()).brain()).routines;
  const setRecording = async (name: string | undefined): Promise<void> => {
    await vscode.commands.executeCommand('setContext', 'gai.recording', name !== undefined);
    if (name === undefined) return status.hide();
    status.text = `$(record) Recording "${name}" — Stop`;
    status.tooltip = 'GAI is watching your clicks and keys to learn this task. Click to stop (or press the stop hotkey).';
    status.show();
  };

  const record = async (arg?: unknown): Promise<boolean> => {
    const name = typeof arg === 'string' ? arg : await vscode.window.showInputBox({ title: 'GAI: Record Steps', prompt: 'Name the task you will show, e.g. "Export report"', ignoreFocusOut: true });
    if (!name?.trim()) return false;
    const routines = await book();
    await routines.startRecording(name, {
      onStopHotkey: () => void vscode.commands.executeCommand('gai.stopRecording'),
      onWarning: (message) => controller.logger.warn(`recording: ${message}`),
      onObserved: (line) => controller.logger.info(`recorded: ${line}`),
    });
    await setRecording(name.trim());
    if (typeof arg !== 'string') void vscode.window.showInformationMessage(`GAI is recording "${name.trim()}": do the task in its windows, then click Stop in the status bar.`);
    return true;
  };

  const stop = async (arg?: unknown): Promise<Routine | boolean> => {
    const given = typeof arg === 'object' && arg !== null ? (arg as StopArgs) : undefined;
    const routines = await book();
    await setRecording(undefined);
    if (given?.cancel) return routines.cancelRecording();
    const stopped = await routines.stopRecording(given?.parameters ? { parameters: given.parameters } : {});
    const { recording } = stopped;
    let { routine } = stopped;
    if (!given && recording.typed.length > 0) routine = await askParameters(routine, recording.typed, (name, value) => routines.edit(routine.id, { kind: 'parameter', name, value }));
    const steps = routine.steps.map((s, i) => `${i + 1}. ${describeStep(s)}`).join('\n');
    controller.logger.info(`kept routine "${routine.name}":\n${steps}`);
    if (!given) {
      const choice = await vscode.window.showInformationMessage(`GAI kept "${routine.name}" (${routine.steps.length} steps${routine.parameters.length ? `, parameters ${routine.parameters.map((p) => p.name).join(', ')}` : ''}).`, 'Run it', 'Show steps');
      if (choice === 'Run it') await vscode.commands.executeCommand('gai.runRoutine', { name: routine.id });
      if (choice === 'Show steps') controller.logger.channel.show(true);
    }
    return routine;
  };

  const run = async (arg?: unknown): Promise<RoutineRunReport | undefined> => {
    const routines = await book();
    const given = typeof arg === 'object' && arg !== null ? (arg as RunArgs) : typeof arg === 'string' ? { name: arg } : undefined;
    const routine = given ? routines.find(given.name) : await pickRoutine(routines.list());
    if (!routine) {
      if (given) void vscode.window.showWarningMessage(`GAI: no routine "${given.name}" (record one with GAI: Record Steps)`);
      return undefined;
    }
    const params = given?.params ?? (await askValues(routine));
    if (!params) return undefined;
    const parts = await controller.getParts();
    const report: RoutineRunReport = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `GAI: ${routine.name}`, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      // The stop hotkey, the corner and a takeover end it like Cancel.
      const watch = parts.safety.begin(() => abort.abort());
      try {
        return await routines.run(routine.id, params, {
          signal: abort.signal,
          onStepStart: (index, total, action) => progress.report({ message: `Step ${index + 1} of ${total}: ${action}` }),
          // Every step in the audit trail, as a replayed path's are.
          onStep: (step) => controller.activity.replayStep({ ...step, pathId: routine.id }, 'recorded-routine'),
          // A step GAI cannot find: the person may show it; the new way is only proposed.
          tellPerson: async (message) => (await vscode.window.showWarningMessage(`GAI: ${message}`, 'Show me', 'Stop')) === 'Show me',
        });
      } finally {
        await watch.end();
      }
    });
    const line = report.ok ? `GAI ran "${report.routine}": ${report.steps.length} steps, no model, ${Math.round(report.durationMs)} ms.` : `GAI stopped "${report.routine}" at ${report.reason}. Nothing after it was done.`;
    controller.logger.info(line);
    if (report.ok) void vscode.window.showInformationMessage(line);
    else void vscode.window.showWarningMessage(line);
    return report;
  };

  return [
    status,
    registerReported(controller, 'gai.recordSteps', record),
    registerReported(controller, 'gai.stopRecording', stop),
    registerReported(controller, 'gai.runRoutine', run),
  ];
}

async function pickRoutine(routines: readonly Routine[]): Promise<Routine | undefined> {
  if (routines.length === 0) {
    void vscode.window.showInformationMessage('GAI: no routines yet. Record one with GAI: Record Steps.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    routines.map((routine) => ({ label: routine.name, description: `${routine.steps.length} steps${routine.parameters.length ? ` · ${routine.parameters.map((p) => `{${p.name}}`).join(' ')}` : ''}`, detail: routine.steps.slice(0, 4).map((s) => describeStep(s)).join(' → '), routine })),
    { title: 'GAI: Run Routine', ignoreFocusOut: true },
  );
  return picked?.routine;
}

async function askValues(routine: Routine): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  for (const parameter of routine.parameters) {
    const value = await vscode.window.showInputBox({ title: `GAI: ${routine.name}`, prompt: parameter.description ?? `{${parameter.name}}`, value: parameter.default ?? '', password: parameter.secret === true, ignoreFocusOut: true });
    if (value === undefined) return undefined;
    values[parameter.name] = value;
  }
  return values;
}

/** Which typed texts change between runs: each picked one becomes a named parameter. */
async function askParameters(routine: Routine, typed: readonly string[], add: (name: string, value: string) => Promise<Routine>): Promise<Routine> {
  const picked = await vscode.window.showQuickPick(
    typed.map((text) => ({ label: text, picked: false })),
    { title: `GAI: which texts of "${routine.name}" change between runs?`, placeHolder: 'Each one you pick becomes a parameter you fill in when it runs', canPickMany: true, ignoreFocusOut: true },
  );
  let current = routine;
  for (const item of picked ?? []) {
    const suggested = item.label.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').replace(/^(\d)/, 'p$1').slice(0, 40) || 'text';
    const name = await vscode.window.showInputBox({ title: `GAI: name the parameter for "${item.label}"`, value: suggested, validateInput: (v) => (/^[a-z][a-z0-9_]{0,39}$/.test(v) ? undefined : 'a lower-case letter, then a-z, 0-9 or _'), ignoreFocusOut: true });
    if (!name) continue;
    current = await add(name, item.label);
  }
  return current;
}
