// The command palette entries (package.json `contributes.commands`), wired to the tools.
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { centreOf } from '../common/geometry';
import type { ToolResult } from '../tools/toolTypes';
import type { ApiKeyStore } from './setup/apiKeyStore';
import { BrainPanel } from './brain/brainPanel';
import type { ConversationHistory } from './chat/conversationHistory';
import type { GaiController } from './gaiController';

/** Registers a command whose failure is logged and shown in a few words, never thrown at VS Code. */
export function registerReported(controller: Pick<GaiController, 'logger' | 'redactor'>, id: string, run: (...args: unknown[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await run(...args);
    } catch (error) {
      controller.logger.error(`${id} failed: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`GAI: ${controller.redactor.redactError(error)}`);
      return undefined;
    }
  });
}

export function registerCommands(controller: GaiController, keys: ApiKeyStore, focusChat: () => void, extensionUri: vscode.Uri, history: ConversationHistory): vscode.Disposable[] {
  const register = (id: string, run: (...args: unknown[]) => unknown): vscode.Disposable => registerReported(controller, id, run);

  const withProgress = (title: string, work: (signal: AbortSignal) => Promise<ToolResult>): Thenable<ToolResult> =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
      const controllerAbort = new AbortController();
      token.onCancellationRequested(() => controllerAbort.abort());
      return work(controllerAbort.signal);
    });

  const report = (result: ToolResult): ToolResult => {
    const message = `GAI: ${result.observation}`;
    if (result.success) void vscode.window.showInformationMessage(message);
    else void vscode.window.showWarningMessage(message);
    return result;
  };

  const readScreen = (mode: 'quick' | 'detailed') => async () => {
    focusChat();
    const result = await withProgress(`GAI: reading the screen (${mode})…`, (signal) => controller.readScreen(mode, signal));
    if (!result.success) report(result);
    return result;
  };

  const clickText = async (text: string): Promise<ToolResult> => {
    const result = await withProgress(`GAI: clicking "${text}"…`, (signal) => controller.runTool('click', { text }, signal));
    const candidates = candidatesOf(result);
    if (result.success || candidates.length === 0) return report(result);
    // Ambiguous: the person picks one, and that one is clicked where it was seen.
    const picked = await vscode.window.showQuickPick(
      candidates.map((candidate, index) => ({
        label: `${index + 1}. ${candidate.foundText}`,
        description: `at (${candidate.x}, ${candidate.y})`,
        detail: `${candidate.match} match, confidence ${candidate.confidence}`,
        candidate,
      })),
      { title: `GAI: "${text}" appears ${candidates.length} times. Which one?`, ignoreFocusOut: true },
    );
    if (!picked) return report(result);
    const { x, y } = picked.candidate;
    return report(await withProgress(`GAI: clicking "${text}" at (${x}, ${y})…`, (signal) => controller.runTool('click', { x, y }, signal)));
  };

  return [
    register('gai.readScreenQuick', readScreen('quick')),
    register('gai.readScreenDetailed', readScreen('detailed')),
    register('gai.clickText', async (arg) => {
      const text = typeof arg === 'string' ? arg : await vscode.window.showInputBox({ title: 'GAI: Click Text', prompt: 'The visible text to click, e.g. "Save"', ignoreFocusOut: true });
      if (!text) return undefined;
      return clickText(text);
    }),
    register('gai.launchApp', async (arg) => {
      const appName = typeof arg === 'string' ? arg : await vscode.window.showInputBox({ title: 'GAI: Launch App', prompt: 'The application, e.g. "Calculator"', ignoreFocusOut: true });
      if (!appName) return undefined;
      return report(await withProgress(`GAI: launching ${appName}…`, (signal) => controller.runTool('launch_app', { appName }, signal)));
    }),
    register('gai.navigateTo', async (arg) => {
      const target =
        typeof arg === 'string'
          ? arg
          : await vscode.window.showInputBox({ title: 'GAI: Navigate To', prompt: 'Where to go, e.g. "Network settings" or "Calculator"', ignoreFocusOut: true });
      if (!target?.trim()) return undefined;
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `GAI: navigating to "${target}"`, cancellable: true },
        (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return controller.navigate(target, abort.signal, (message) => progress.report({ message }));
        },
      );
      const summary = `GAI: ${report.message} (${report.how}, ${report.modelCalls} model call(s))`;
      if (report.success) void vscode.window.showInformationMessage(summary);
      else void vscode.window.showWarningMessage(summary);
      return report;
    }),
    register('gai.showBrain', async () => {
      const panel = BrainPanel.show(extensionUri, controller.brainSource(), controller.logger);
      await panel.refresh();
      return panel;
    }),
    register('gai.stopAgent', () => controller.stop()),
    register('gai.newConversation', () => controller.newConversation()),
    // An id argument reopens that conversation directly (automation and tests); none shows the list.
    register('gai.showHistory', (arg) => (typeof arg === 'string' ? history.open(arg) : history.pick())),
    register('gai.setApiKey', async (arg) => {
      // An argument is accepted for automation and tests; it never goes to settings or logs.
      const key =
        typeof arg === 'string'
          ? arg
          : await vscode.window.showInputBox({
              title: 'GAI: Set API Key',
              prompt: keys.memoryOnly
                ? 'VS Code for the Web: not the OS keychain; the key may be kept only in memory, for this window. Leave empty to remove it.'
                : 'Stored in VS Code SecretStorage (the OS keychain). Leave empty to remove the stored key.',
              password: true,
              ignoreFocusOut: true,
            });
      if (key === undefined) return false;
      await keys.set(key);
      controller.logger.info(key.trim() === '' ? 'API key removed from SecretStorage' : `API key stored in SecretStorage${keys.memoryOnly ? ' (in memory only on this host)' : ''}`);
      if (typeof arg !== 'string') void vscode.window.showInformationMessage(key.trim() === '' ? 'GAI: API key removed.' : 'GAI: API key stored.');
      return true;
    }),
    register('gai.openLog', () => controller.logger.channel.show(true)),
    register('gai.focusChat', () => focusChat()),
  ];
}

interface ClickCandidate {
  foundText: string;
  x: number;
  y: number;
  match: string;
  confidence: number;
}

function candidatesOf(result: ToolResult): ClickCandidate[] {
  const data = result.data as { candidates?: unknown } | undefined;
  if (!Array.isArray(data?.candidates)) return [];
  return data.candidates.flatMap((raw: unknown) => {
    const candidate = raw as { foundText?: unknown; bbox?: { x: number; y: number; width: number; height: number }; match?: unknown; confidence?: unknown };
    if (typeof candidate.foundText !== 'string' || !candidate.bbox) return [];
    const { bbox } = candidate;
    return [
      {
        foundText: candidate.foundText,
        ...centreOf(bbox),
        match: String(candidate.match ?? ''),
        confidence: typeof candidate.confidence === 'number' ? candidate.confidence : 0,
      },
    ];
  });
}
