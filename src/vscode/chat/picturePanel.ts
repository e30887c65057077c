// An editor tab that shows one screen picture full size, with zoom and pan (the chat's pictures
// are thumbnails). One tab, reused: opening another picture replaces the one shown and reveals
// the tab. Strict CSP (nonce'd script, styles from media/ only), resources only from media/.
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { isPicturePanelReady, type PictureMessage } from '../../shared/pictureProtocol';
import { pictureHtmlFor } from './pictureHtmlShell';
import { webviewShellParts } from '../webviewResources';

export const PICTURE_PANEL_VIEW_TYPE = 'gai.picture';

export class PicturePanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  /** What the tab shows (posted again when its webview says it is ready, e.g. after a reload). */
  private shown?: PictureMessage;
  /** How often a panel page loaded its script and said it is ready (for tests). */
  readyCount = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly logger: Logger,
  ) {}

  /** The open tab, if any (for tests). */
  get current(): vscode.WebviewPanel | undefined {
    return this.panel;
  }

  /** The picture on show (for tests). */
  get showing(): PictureMessage | undefined {
    return this.shown;
  }

  show(message: PictureMessage): void {
    this.shown = message;
    const title = `Picture: ${message.title}`;
    if (this.panel) {
      this.panel.title = title;
      void this.panel.webview.postMessage(message);
      this.panel.reveal();
      return;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(PICTURE_PANEL_VIEW_TYPE, title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
    });
    panel.iconPath = vscode.Uri.joinPath(media, 'gai.svg');
    panel.webview.html = pictureHtmlFor(webviewShellParts(panel.webview, media, { script: 'pictureView.js', style: 'picture.css' }));
    this.panel = panel;
    const listeners = [
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        if (!isPicturePanelReady(raw)) {
          this.logger.error('picture panel: rejected a malformed message');
          return;
        }
        this.readyCount++;
        if (this.shown) void panel.webview.postMessage(this.shown);
      }),
      panel.onDidDispose(() => {
        for (const listener of listeners) listener.dispose();
        if (this.panel === panel) this.panel = undefined;
      }),
    ];
  }

  dispose(): void {
    this.panel?.dispose();
    this.panel = undefined;
  }
}
