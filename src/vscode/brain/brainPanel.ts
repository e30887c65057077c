// The "GAI Brain" webview panel (command gai.showBrain): a picture of the navigation brain
// with forget/rename, and the recorded routines (review, edit, export, run). One panel at a time; showing it again reveals it. Strict CSP (nonce'd
// script, styles from media/ only), resources only from media/. What the panel does with the
// view's messages is in brainController.ts; this file is the VS Code side of it.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { MAX_NODE_LABEL } from '../../shared/brainProtocol';
import { BrainController, labelProblem, type BrainSource } from './brainController';
import { brainHtmlFor } from './brainHtmlShell';
import { webviewShellParts } from '../webviewResources';

export type { BrainSource } from './brainController';

export const BRAIN_PANEL_VIEW_TYPE = 'gai.brain';

export class BrainPanel implements vscode.Disposable {
  private static current?: BrainPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  readonly controller: BrainController;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    media: vscode.Uri,
    source: BrainSource,
    logger: Logger,
  ) {
    this.controller = new BrainController(
      source,
      {
        post: (message) => void panel.webview.postMessage(message),
        visible: () => panel.visible,
        confirm: async (message, detail, action) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
        askLabel: (current, screen) =>
          Promise.resolve(
            vscode.window.showInputBox({
              title: 'Rename screen',
              prompt: `A new name for "${screen}" (at most ${MAX_NODE_LABEL} characters)`,
              value: current.slice(0, MAX_NODE_LABEL),
              validateInput: (value) => labelProblem(value),
            }),
          ),
        showError: (message) => void vscode.window.showErrorMessage(message),
        showInfo: (message) => void vscode.window.showInformationMessage(message),
        askText: (request) =>
          Promise.resolve(vscode.window.showInputBox({ title: request.title, prompt: request.prompt, value: request.value, ignoreFocusOut: true, validateInput: (value) => request.validate?.(value) })),
        saveFile: (suggestedName, text) => saveText(suggestedName, text),
        runRoutine: async (id) => {
          await vscode.commands.executeCommand('gai.runRoutine', { name: id });
        },
      },
      logger,
    );
    panel.iconPath = vscode.Uri.joinPath(media, 'gai.svg');
    panel.webview.html = brainHtml(panel.webview, media);
    this.disposables.push(
      this.controller,
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.controller.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Opens the panel, or reveals the open one (then reading from `source` and refreshing). */
  static show(extensionUri: vscode.Uri, source: BrainSource, logger: Logger): BrainPanel {
    const open = BrainPanel.current;
    if (open) {
      open.controller.setSource(source);
      open.panel.reveal();
      void open.controller.refresh();
      return open;
    }
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(BRAIN_PANEL_VIEW_TYPE, 'GAI Brain', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
    });
    BrainPanel.current = new BrainPanel(panel, media, source, logger);
    return BrainPanel.current;
  }

  /** The open panel, if any (for tests and for refreshing after a navigation). */
  static get open(): BrainPanel | undefined {
    return BrainPanel.current;
  }

  /** Reads the brain again and redraws. */
  refresh(): Promise<void> {
    return this.controller.refresh();
  }

  /** Closes the panel; also runs when the person closes it. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (BrainPanel.current === this) BrainPanel.current = undefined;
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }
}

/** The save dialog (in the workspace, else the home folder), then the file written; its path or undefined. */
async function saveText(suggestedName: string, text: string): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(folder, suggestedName), filters: { 'GAI routine': ['json'] }, saveLabel: 'Export', title: 'Export routine' });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  return target.scheme === 'file' ? target.fsPath : target.toString();
}

function brainHtml(webview: vscode.Webview, media: vscode.Uri): string {
  return brainHtmlFor(webviewShellParts(webview, media, { script: 'brainView.js', style: 'brain.css' }));
}
