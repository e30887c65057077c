// The chat view's HTML for a real webview: resource URIs from media/ and a per-load nonce. The
// markup and CSP themselves are in chatHtmlShell.ts.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { chatHtmlFor } from './chatHtmlShell';

export function chatHtml(webview: vscode.Webview, media: vscode.Uri): string {
  const uri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...path)).toString();
  return chatHtmlFor({
    cspSource: webview.cspSource,
    scriptUri: uri('dist', 'webview.js'),
    styleUri: uri('chat.css'),
    codiconsUri: uri('dist', 'codicons', 'codicon.css'),
    nonce: randomBytes(16).toString('base64'),
  });
}
