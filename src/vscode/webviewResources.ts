// The parts of a webview page's shell (webviewShell.ts) for a real webview: its resource URIs
// from media/ and a fresh nonce for every load.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { WebviewShellParts } from './webviewShell';

/** `script` is a bundle in media/dist/, `style` a stylesheet in media/. */
export function webviewShellParts(webview: vscode.Webview, media: vscode.Uri, files: { script: string; style: string }): WebviewShellParts {
  const uri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...path)).toString();
  return {
    cspSource: webview.cspSource,
    scriptUri: uri('dist', files.script),
    styleUri: uri(files.style),
    codiconsUri: uri('dist', 'codicons', 'codicon.css'),
    nonce: randomBytes(16).toString('base64'),
  };
}
