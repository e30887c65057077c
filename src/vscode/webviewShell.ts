// The HTML shell shared by GAI's webviews (chat view, brain panel) as pure functions (no vscode
// import), so tests can build the real pages with their own origin. Strict CSP: nothing by
// default, the script only by nonce, styles, fonts and images only from the webview's resource
// origin (images also from data: where a page asks for it). No 'unsafe-inline', so the pages
// have no inline <style>, style attributes or handlers.

export interface WebviewShellParts {
  /** The webview's resource origin (webview.cspSource). */
  cspSource: string;
  /** The page's bundle in media/dist/. */
  scriptUri: string;
  /** The page's stylesheet in media/. */
  styleUri: string;
  /** media/dist/codicons/codicon.css (copied there from @vscode/codicons by the build) */
  codiconsUri: string;
  /** Fresh for every load; base64. */
  nonce: string;
}

export interface WebviewCspOptions {
  /** Allows data: images too (the chat's screenshots). */
  dataImages?: boolean;
}

export interface WebviewPage extends WebviewCspOptions {
  title: string;
  /** Trusted static markup between <body> and the script tag. */
  body: string;
}

export function webviewCsp(cspSource: string, nonce: string, options: WebviewCspOptions = {}): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource}${options.dataImages ? ' data:' : ''}`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function webviewShellHtml(parts: WebviewShellParts, page: WebviewPage): string {
  const attr = escapeAttribute;
  // The codicon stylesheet's id is how vscode-elements finds it to use the font in its shadow roots.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(webviewCsp(parts.cspSource, parts.nonce, page))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${attr(parts.codiconsUri)}">
<link rel="stylesheet" href="${attr(parts.styleUri)}">
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${attr(parts.nonce)}" src="${attr(parts.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
