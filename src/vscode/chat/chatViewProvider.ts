// The "Chat" webview view. Strict CSP (nonce'd script, styles from media/ only), resources
// only from media/. Every inbound message is validated; a malformed one is logged and dropped.
import * as vscode from 'vscode';
import { desktopMessage, ownDesktopNotStarted } from '../liveView/desktopIndicator';
import { errorMessage } from '../../common/errors';
import type { HostMessage } from '../../shared/protocol';
import type { GaiController } from '../gaiController';
import { chatHtml } from './chatHtml';
import { parseWebviewMessage } from './messageValidation';
import type { PicturePanel } from './picturePanel';


const SETUP_COMMANDS = { setApiKey: 'gai.setApiKey', chooseModel: 'gai.chooseModel', checkSetup: 'gai.checkSetup', copyKeyLine: 'gai.copyKeyLine' } as const;

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view?: vscode.WebviewView;
  private readonly disposables: vscode.Disposable[] = [];
  /** Counted for tests and the log. */
  rejectedMessages = 0;
  /** How often a webview said it rendered and is listening (for tests: the view really loads). */
  readyCount = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: GaiController,
    /** Where a picture of the chat opens full size. */
    private readonly pictures: PicturePanel,
    /** Sends the empty chat's setup state (provider, model, key) on every ready. */
    private readonly setup?: { postWelcome(): Promise<void> },
  ) {
    controller.webview = {
      post: (message) => this.post(message),
      visible: () => this.view?.visible ?? false,
    };
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = chatHtml(view.webview, media);
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  /** Handles one message from the webview; never throws. */
  receive(raw: unknown): void {
    const receivedAt = performance.now();
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.rejectedMessages++;
      this.controller.logger.error(`webview: rejected a malformed message: ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    try {
      switch (message.type) {
        case 'ready':
          this.readyCount++;
          this.post(this.controller.chat.snapshot());
          void this.setup?.postWelcome();
          this.controller.grants.show();
          this.postDesktop();
          // A bad setting counts as the screen here: it is reported where it is used.
          if (!ownDesktopNotStarted(this.controller.settingOr((s) => s.desktop, 'screen'), process.env)) this.controller.warmUp();
          break;
        case 'send':
          void this.controller.ask(message.text, receivedAt);
          break;
        case 'stop':
          this.controller.stop();
          break;
        case 'newConversation':
          void this.controller.newConversation();
          break;
        case 'approval':
          if (!this.controller.chat.answerApproval(message.callId, message.decision)) {
            this.controller.logger.warn(`webview: no approval pending for call ${message.callId}`);
          }
          break;
        case 'openPicture': {
          const picture = this.controller.chat.pictureAt(message.index, message.after ?? false);
          if (picture) this.pictures.show(picture);
          else this.controller.logger.warn(`webview: entry ${message.index} has no ${message.after ? 'after-action ' : ''}picture to open`);
          break;
        }
        case 'retry':
          void this.controller.retry();
          break;
        case 'setup':
          // The same commands as the palette's: one place for each step of the setup.
          void vscode.commands.executeCommand(SETUP_COMMANDS[message.action]);
          break;
        case 'openSetting':
          void vscode.commands.executeCommand('workbench.action.openSettings', message.id);
          break;
        case 'revokeTool':
          void this.controller.grants.revokeTool(message.name);
          break;
        case 'revokeApp':
          void this.controller.grants.revokeApp(message.key);
          break;
        case 'showLiveView':
          void vscode.commands.executeCommand('gai.showLiveView');
          break;
      }
    } catch (error) {
      this.controller.logger.error(`webview: handling "${message.type}" failed: ${errorMessage(error)}`);
    }
  }

  /** Says in the header where GAI works (a bad setting: nothing; the chat shows that error elsewhere). */
  postDesktop(): void {
    try {
      this.post(desktopMessage(this.controller.settings().desktop, process.env));
    } catch {
      // parseSettings names the bad setting where the person acts on it
    }
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.controller.webview = undefined;
  }

  private post(message: HostMessage): void {
    void this.view?.webview.postMessage(message);
  }
}
