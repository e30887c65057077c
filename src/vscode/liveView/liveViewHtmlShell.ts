// The live view's HTML shell as a pure function (no vscode import), so the browser test can build
// the real page with its own origin. Same strict CSP as the other pages (webviewShell.ts), with
// data: images (the frames of GAI's desktop).
import { webviewShellHtml, type WebviewPage, type WebviewShellParts } from '../webviewShell';

/** scriptUri is media/dist/liveView.js, styleUri media/liveView.css. */
export type LiveViewHtmlParts = WebviewShellParts;

const LIVE_VIEW_PAGE: WebviewPage = {
  title: "GAI's Desktop",
  dataImages: true,
  body: `<header class="toolbar" role="toolbar" aria-label="GAI's desktop">
  <span class="codicon codicon-device-desktop" aria-hidden="true"></span>
  <span id="title" class="title">GAI's desktop</span>
  <span id="agent" class="agent" aria-live="polite"></span>
  <button type="button" id="take-over" class="action" title="Your clicks, wheel and keys go to GAI's desktop; GAI waits until you hand back"><span class="codicon codicon-person" aria-hidden="true"></span> Take over</button>
  <button type="button" id="hand-back" class="action primary" hidden title="GAI goes on from here"><span class="codicon codicon-debug-continue" aria-hidden="true"></span> Hand back</button>
</header>
<div id="note" class="note" role="status" hidden></div>
<main id="stage" class="stage" tabindex="0" aria-label="GAI's desktop (watching; Take over to use it)"><p class="waiting">Waiting for the first picture of GAI's desktop…</p></main>`,
};

export function liveViewHtmlFor(parts: LiveViewHtmlParts): string {
  return webviewShellHtml(parts, LIVE_VIEW_PAGE);
}
