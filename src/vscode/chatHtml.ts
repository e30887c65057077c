// The chat view's HTML shell: strict CSP with a per-load nonce, script and styles from media/ only.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function chatHtml(webview: vscode.Webview, media: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css'));
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>GAI</title>
</head>
<body>
<main id="log" aria-live="polite"></main>
<footer>
<div id="usage" class="usage"></div>
<form id="composer">
  <textarea id="input" rows="3" placeholder="Ask GAI to do something on the screen…" aria-label="Message"></textarea>
  <div class="buttons">
    <button type="submit" id="send">Send</button>
    <button type="button" id="stop" class="secondary" disabled>Stop</button>
    <button type="button" id="new" class="secondary">New</button>
  </div>
</form>
</footer>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
