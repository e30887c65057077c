// The brain panel's HTML shell as a pure function (no vscode import), so the browser test can
// build the real page with its own origin. The same strict CSP as the chat (chatHtmlShell.ts)
// minus data: images, which the brain view does not use: the script only by nonce, styles and
// fonts only from the webview's resource origin, no inline styles or handlers anywhere.

export interface BrainHtmlParts {
  /** The webview's resource origin (webview.cspSource). */
  cspSource: string;
  /** media/dist/brainView.js */
  scriptUri: string;
  /** media/brain.css */
  styleUri: string;
  /** media/dist/codicons/codicon.css */
  codiconsUri: string;
  /** Fresh for every load; base64. */
  nonce: string;
}

export function brainCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource}`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function brainHtmlFor(parts: BrainHtmlParts): string {
  const attr = escapeAttribute;
  // The codicon stylesheet's id is how vscode-elements finds it to use the font in its shadow roots.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(brainCsp(parts.cspSource, parts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${attr(parts.codiconsUri)}">
<link rel="stylesheet" href="${attr(parts.styleUri)}">
<title>GAI Brain</title>
</head>
<body>
<header class="brain-header">
  <h1><span class="codicon codicon-type-hierarchy" aria-hidden="true"></span> GAI Brain</h1>
  <div id="stats" class="stats" aria-live="polite"></div>
  <vscode-button id="refresh" icon="refresh" secondary title="Read the brain again">Refresh</vscode-button>
</header>
<div id="message" class="message" role="status">Loading the brain…</div>
<div class="brain-body">
  <section id="graph" class="graph" aria-label="Screens and learned paths" tabindex="0"></section>
  <aside id="side" class="side" aria-label="Screens and paths"></aside>
</div>
<script nonce="${attr(parts.nonce)}" src="${attr(parts.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
