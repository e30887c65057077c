// The chat view's HTML for a real webview: resource URIs from media/ and a per-load nonce
// (webviewResources.ts). The markup and CSP themselves are in chatHtmlShell.ts.
import type * as vscode from 'vscode';
import { chatHtmlFor } from './chatHtmlShell';
import { webviewShellParts } from '../webviewResources';

export function chatHtml(webview: vscode.Webview, media: vscode.Uri): string {
  return chatHtmlFor(webviewShellParts(webview, media, { script: 'webview.js', style: 'chat.css' }));
}
