// The live view (command gai.showLiveView): an editor tab showing GAI's own desktop as it changes,
// GAI's actions marked, with Take over / Hand back. One tab; showing it again reveals it. It talks
// to the host only through webview messages, so it works the same in a remote window (SSH, WSL,
// a dev container, Codespaces), where the desktop runs beside the workspace's extension host.
import * as vscode from 'vscode';
import { GaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { GaiParts } from '../gaiParts';
import { webviewShellParts } from '../webviewResources';
import { LiveViewController, type LiveViewStats } from './liveViewController';
import { liveViewHtmlFor } from './liveViewHtmlShell';

export const LIVE_VIEW_TYPE = 'gai.liveView';

export interface LiveViewHost {
  parts(): Promise<GaiParts>;
  /** A line in the chat. */
  notice(text: string): void;
  running(): boolean;
  /** Whether the settings put GAI on its own desktop now (read without building anything). */
  onOwnDesktop(): boolean;
  /** Fires when the parts are dropped (a setting changed): the view binds to the new ones. */
  onDidDropParts: vscode.Event<void>;
  onDidChangeRunning: vscode.Event<boolean>;
}

export class LiveViewPanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private controller?: LiveViewController;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: LiveViewHost,
    private readonly logger: Logger,
  ) {
    this.disposables = [
      host.onDidDropParts(() => void this.rebind()),
      host.onDidChangeRunning(() => this.controller?.sendState()),
    ];
  }

  /** Opens the tab (or reveals it); throws a CONFIG GaiError when GAI works on the person's screen. */
  async show(): Promise<void> {
    const parts = await this.host.parts();
    if (!parts.live) throw notOwn();
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(LIVE_VIEW_TYPE, `GAI's Desktop ${parts.live.display}`, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
      // Frames keep coming while another tab is in front; the page is not rebuilt on return.
      retainContextWhenHidden: true,
    });
    panel.iconPath = vscode.Uri.joinPath(media, 'gai.svg');
    panel.webview.html = liveViewHtmlFor(webviewShellParts(panel.webview, media, { script: 'liveView.js', style: 'liveView.css' }));
    this.panel = panel;
    this.bind(parts);
    const listeners = [
      panel.webview.onDidReceiveMessage((raw: unknown) => this.controller?.receive(raw)),
      panel.onDidDispose(() => {
        this.controller?.dispose();
        this.controller = undefined;
        this.panel = undefined;
        for (const listener of listeners) listener.dispose();
      }),
    ];
  }

  /** The open view's state (for the tests and the bench). */
  get current(): { display: string; takenOver: boolean; stats: LiveViewStats } | undefined {
    const controller = this.controller;
    return controller ? { display: controller.live.display, takenOver: controller.takenOver, stats: controller.stats } : undefined;
  }

  /** As if the page sent `raw` (the tests); false when it was refused. */
  receive(raw: unknown): boolean {
    return this.controller?.receive(raw) ?? false;
  }

  /** The person's input from the page has been sent (the tests). */
  settled(): Promise<void> {
    return this.controller?.settled() ?? Promise.resolve();
  }

  /** Closes the tab (its hold, if the person had taken over, is handed back). */
  close(): void {
    this.panel?.dispose();
  }

  dispose(): void {
    this.close();
    for (const disposable of this.disposables) disposable.dispose();
  }

  private bind(parts: GaiParts): LiveViewController | undefined {
    const panel = this.panel;
    if (!panel || !parts.live) return undefined;
    this.controller?.dispose();
    this.controller = new LiveViewController(parts.live, {
      post: (message) => void panel.webview.postMessage(message),
      notice: (text) => this.host.notice(text),
      agentRunning: () => this.host.running(),
      logger: this.logger,
    });
    panel.title = `GAI's Desktop ${parts.live.display}`;
    return this.controller;
  }

  /** New parts (a setting changed): the same view over them, or closed when GAI left its own desktop. */
  private async rebind(): Promise<void> {
    if (!this.panel) return;
    this.controller?.dispose();
    this.controller = undefined;
    // Decided from the settings first: building parts for a view about to close would start a desktop.
    if (!this.host.onOwnDesktop()) {
      this.panel.dispose();
      this.host.notice("GAI works on your screen now (gai.desktop): the live view of its own desktop closed.");
      return;
    }
    try {
      const parts = await this.host.parts();
      if (!parts.live || !this.panel) {
        this.panel?.dispose();
        return;
      }
      // The page is already loaded: it gets a picture without asking again.
      this.bind(parts)?.receive({ type: 'ready' });
    } catch (error) {
      this.logger.warn(`live view: could not bind to the rebuilt parts: ${String(error)}`);
      this.panel?.dispose();
    }
  }
}

function notOwn(): GaiError {
  return new GaiError('CONFIG', "GAI works on your screen (setting gai.desktop), so there is no desktop of its own to show. Set gai.desktop to \"own\" to let it work on a private desktop you watch here.");
}
