// The chat view's HTML shell as a pure function (no vscode import), so the browser test can build
// the real page with its own origin. Strict CSP: nothing by default, the script only by nonce,
// styles and fonts only from the webview's resource origin, images from there and data: (the
// screenshots). No inline <style> and no style attributes: the CSP has no 'unsafe-inline'.

export interface ChatHtmlParts {
  /** The webview's resource origin (webview.cspSource). */
  cspSource: string;
  /** media/dist/webview.js */
  scriptUri: string;
  /** media/chat.css */
  styleUri: string;
  /** media/dist/codicons/codicon.css (copied there from @vscode/codicons by the build) */
  codiconsUri: string;
  /** Fresh for every load; base64. */
  nonce: string;
}

export function chatCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function chatHtmlFor(parts: ChatHtmlParts): string {
  const attr = escapeAttribute;
  // The codicon stylesheet's id is how vscode-elements finds it to use the font in its shadow roots.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(chatCsp(parts.cspSource, parts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${attr(parts.codiconsUri)}">
<link rel="stylesheet" href="${attr(parts.styleUri)}">
<title>GAI</title>
</head>
<body>
<main id="log" role="log" aria-label="Conversation" aria-live="polite" tabindex="0"></main>
<footer>
<div class="status-row">
  <vscode-progress-ring id="busy" class="busy" aria-label="GAI is working"></vscode-progress-ring>
  <span class="busy-text">Working… <kbd>Esc</kbd> stops</span>
  <div id="usage" class="usage" aria-label="Token usage"></div>
</div>
<vscode-textarea id="input" rows="3" resize="vertical" label="Message to GAI" placeholder="Ask GAI to do something on the screen… (Enter sends, Shift+Enter for a new line)"></vscode-textarea>
<div class="buttons">
  <vscode-button id="send" icon="send" title="Send (Enter)">Send</vscode-button>
  <vscode-button id="stop" icon="debug-stop" secondary disabled title="Stop the agent (Escape)">Stop</vscode-button>
  <vscode-button id="new" icon="add" secondary title="Start a new conversation">New conversation</vscode-button>
</div>
</footer>
<script nonce="${attr(parts.nonce)}" src="${attr(parts.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
