// The status-bar item: a one-line screen summary (OCR only, no model), a spinner while the
// agent runs; a click opens the chat. Refreshed on demand and every N seconds when configured.
import * as vscode from 'vscode';
import { errorMessage } from '../core/errors';
import type { GaiController } from './gaiController';
import { statusSummary, type StatusSummary } from './statusSummary';

export class GaiStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('gai.status', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [this.item];
  private timer?: NodeJS.Timeout;
  private summary?: StatusSummary;
  private refreshing = false;

  constructor(private readonly controller: GaiController) {
    this.item.name = 'GAI';
    this.item.command = 'gai.focusChat';
    this.render();
    this.item.show();
    this.disposables.push(
      controller.onDidChangeRunning(() => this.render()),
      vscode.commands.registerCommand('gai.refreshStatus', () => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('gai.statusBar.refreshSeconds')) this.schedule();
      }),
    );
    this.schedule();
  }

  /** Reads the screen by OCR (the tools load on the first refresh). */
  async refresh(): Promise<StatusSummary | undefined> {
    if (this.refreshing || this.controller.running) return this.summary;
    this.refreshing = true;
    this.render();
    try {
      const result = await this.controller.runTool('smart_screen_reader', { mode: 'quick' });
      this.summary = statusSummary(result);
    } catch (error) {
      this.summary = { text: 'screen not read', tooltip: errorMessage(error) };
    } finally {
      this.refreshing = false;
      this.render();
    }
    return this.summary;
  }

  /** What the item shows now (for tests and the API). */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    let seconds = 0;
    try {
      seconds = this.controller.settings().statusBarRefreshSeconds;
    } catch (error) {
      this.controller.logger.warn(errorMessage(error));
    }
    if (seconds > 0) this.timer = setInterval(() => void this.refresh(), seconds * 1000);
  }

  private render(): void {
    const busy = this.controller.running || this.refreshing;
    // Text from the screen goes in as plain text: `$(…)` in it must not turn into icons.
    const summary = this.summary ? ` ${this.summary.text.replace(/\$\(/g, '$\u200b(')}` : '';
    this.item.text = busy ? '$(sync~spin) GAI' : `$(eye) GAI${summary}`;
    this.item.tooltip = this.controller.running
      ? 'GAI is working… (click: open the chat)'
      : this.summary
        ? `${this.summary.tooltip}\n\n(click: open the chat)`
        : 'GAI: click to open the chat';
  }
}
