// The status-bar item. By default it spends nothing: the active window and the agent's last
// action ("Clicked "7" in galculator · 5 s ago"), refreshed after each action and on the
// interval. The model's summary only when the person clicks it (GAI: Summarize Screen) or
// gai.statusBar.summary is "model".
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import type { GaiController } from '../gaiController';
import { StatusModel } from './statusModel';
import type { StatusSummary } from './statusSummary';

/** A failed refresh is tried again this soon, even with no interval set. */
const RETRY_AFTER_FAILURE_MS = 15_000;
/** How often "N s ago" moves on (from what was read last: no desktop call). */
const RETIME_MS = 10_000;

export class GaiStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('gai.status', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [this.item];
  private readonly model: StatusModel;
  private timer?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private readonly retimer: NodeJS.Timeout;
  private refreshing = false;
  private latest: Promise<unknown> = Promise.resolve();

  constructor(private readonly controller: GaiController) {
    this.model = new StatusModel({
      activeWindow: async () => (await (await controller.getParts()).desktop.desktop.windows.activeWindow())?.title,
      lastAction: () => controller.activity.lastAction,
      summarize: () => controller.runTool('smart_screen_reader', { mode: 'quick' }),
    });
    this.item.name = 'GAI';
    this.item.command = 'gai.summarizeScreen';
    this.render();
    this.item.show();
    this.disposables.push(
      controller.onDidChangeRunning((running) => (running ? this.render() : void this.refresh())),
      controller.activity.onDidAct(() => void this.refresh()),
      vscode.commands.registerCommand('gai.refreshStatus', () => this.refresh()),
      vscode.commands.registerCommand('gai.summarizeScreen', () => this.summarize()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('gai.statusBar')) this.schedule();
      }),
    );
    this.schedule();
    this.retimer = setInterval(() => {
      if (this.refreshing) return;
      this.model.retime();
      this.render();
    }, RETIME_MS);
  }

  /** The free line: active window and last action (no OCR, no model). */
  refresh(): Promise<StatusSummary | undefined> {
    return this.update(() => this.model.refresh());
  }

  /** The model's summary of the screen: one model call. */
  summarize(): Promise<StatusSummary | undefined> {
    return this.update(() => this.model.summarize());
  }

  /** What the item shows now (for tests and the API). */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    clearInterval(this.timer);
    clearTimeout(this.retry);
    clearInterval(this.retimer);
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** One reading at a time: a command during a refresh waits for it and then reads afresh. */
  private update(work: () => Promise<StatusSummary>): Promise<StatusSummary | undefined> {
    const next = this.latest.then(() => this.run(work));
    this.latest = next.catch(() => undefined);
    return next;
  }

  private async run(work: () => Promise<StatusSummary>): Promise<StatusSummary | undefined> {
    this.refreshing = true;
    clearTimeout(this.retry);
    this.render();
    try {
      await work();
    } finally {
      this.refreshing = false;
      this.render();
    }
    // Nothing else may refresh soon (no interval, no action): a failure must not stand.
    if (this.model.kind === 'failed') this.retry = setTimeout(() => void this.refresh(), RETRY_AFTER_FAILURE_MS);
    return this.model.current;
  }

  private schedule(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    let seconds = 0;
    let withModel = false;
    try {
      const settings = this.controller.settings();
      seconds = settings.statusBarRefreshSeconds;
      withModel = settings.statusBarSummary === 'model';
    } catch (error) {
      this.controller.logger.warn(errorMessage(error));
    }
    // The agent's own work is not interrupted by a reading of the screen.
    const tick = (): void => {
      if (this.controller.running || this.refreshing) return;
      void (withModel ? this.summarize() : this.refresh());
    };
    if (seconds > 0) this.timer = setInterval(tick, seconds * 1000);
  }

  private render(): void {
    const busy = this.controller.running || this.refreshing;
    const summary = this.model.current;
    // Text from the screen goes in as plain text: `$(…)` in it must not turn into icons.
    const shown = summary ? ` ${summary.text.replace(/\$\(/g, '$\u200b(')}` : '';
    this.item.text = busy ? `$(sync~spin) GAI${this.controller.running ? '' : shown}` : `$(eye) GAI${shown}`;
    const click = '(click: summarize the screen with the model)';
    this.item.tooltip = this.controller.running ? 'GAI is working…' : summary ? `${summary.tooltip}\n\n${click}` : `GAI ${click}`;
  }
}
