// GAI: Show GAI's Desktop and GAI: Stop GAI's Own Desktop.
import * as vscode from 'vscode';
import { errorMessage, isGaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { LiveViewPanel } from './liveViewPanel';

export interface LiveViewCommandHost {
  panel: LiveViewPanel;
  logger: Logger;
  /** The parts are dropped, so the next use starts the desktop again where the setting asks. */
  dropParts(why: string): void;
  notice(text: string): void;
}

const USE_OWN = "Use GAI's Own Desktop";

export function registerLiveViewCommands(host: LiveViewCommandHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('gai.showLiveView', async () => {
      try {
        await host.panel.show();
      } catch (error) {
        if (!isGaiError(error, 'CONFIG') || !/works on your screen/.test(error.message)) {
          void vscode.window.showErrorMessage(`GAI: ${errorMessage(error)}`);
          return;
        }
        const answer = await vscode.window.showInformationMessage(`GAI: ${error.message}`, USE_OWN);
        if (answer !== USE_OWN) return;
        await vscode.workspace.getConfiguration('gai').update('desktop', 'own', vscode.ConfigurationTarget.Global);
        await host.panel.show().catch((again: unknown) => void vscode.window.showErrorMessage(`GAI: ${errorMessage(again)}`));
      }
    }),
    vscode.commands.registerCommand('gai.stopOwnDesktop', async () => {
      try {
        const { stopEditorOwnDesktop } = await import('../gaiParts');
        // The view of a desktop that is about to end closes first (and hands back a hold).
        host.panel.close();
        const stopped = await stopEditorOwnDesktop(process.env);
        host.dropParts("GAI's own desktop stopped");
        const line = stopped ? "GAI's own desktop stopped, with every app on it. It starts again when GAI next works there." : "GAI's own desktop was not running.";
        host.logger.info(line);
        host.notice(line);
        void vscode.window.showInformationMessage(`GAI: ${line}`);
      } catch (error) {
        void vscode.window.showErrorMessage(`GAI: ${errorMessage(error)}`);
      }
    }),
  ];
}
