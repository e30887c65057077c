// The brain panel's HTML shell as a pure function (no vscode import), so the browser test can
// build the real page with its own origin. The shell and its strict CSP are webviewShell.ts,
// the same as the chat's: images also from data: (the screens' thumbnails the host sends).
import { webviewCsp, webviewShellHtml, type WebviewPage, type WebviewShellParts } from '../webviewShell';

/** scriptUri is media/dist/brainView.js, styleUri media/brain.css. */
export type BrainHtmlParts = WebviewShellParts;

const BRAIN_PAGE: WebviewPage = {
  title: 'GAI Brain',
  dataImages: true,
  body: `<header class="brain-header">
  <h1><span class="codicon codicon-type-hierarchy" aria-hidden="true"></span> GAI Brain</h1>
  <div id="stats" class="stats" aria-live="polite"></div>
  <vscode-button id="refresh" icon="refresh" secondary title="Read the brain again">Refresh</vscode-button>
</header>
<div id="message" class="message" role="status">Loading the brain…</div>
<div class="brain-body">
  <section id="graph" class="graph" aria-label="Screens and learned paths" tabindex="0"></section>
  <aside id="side" class="side" aria-label="Screens and paths"></aside>
</div>`,
};

export function brainCsp(cspSource: string, nonce: string): string {
  return webviewCsp(cspSource, nonce, BRAIN_PAGE);
}

export function brainHtmlFor(parts: BrainHtmlParts): string {
  return webviewShellHtml(parts, BRAIN_PAGE);
}
