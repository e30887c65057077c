// The picture panel's HTML shell as a pure function (no vscode import), so the browser test can
// build the real page with its own origin. Same strict CSP as the chat (webviewShell.ts), with
// data: images (the screenshot itself).
import { webviewShellHtml, type WebviewPage, type WebviewShellParts } from '../webviewShell';

/** scriptUri is media/dist/pictureView.js, styleUri media/picture.css. */
export type PictureHtmlParts = WebviewShellParts;

const PICTURE_PAGE: WebviewPage = {
  title: 'GAI Picture',
  dataImages: true,
  body: `<header class="toolbar" role="toolbar" aria-label="Zoom">
  <span id="title" class="title"></span>
  <button type="button" id="zoom-out" class="tool" title="Zoom out (-)" aria-label="Zoom out"><span class="codicon codicon-zoom-out"></span></button>
  <output id="scale" class="scale" aria-live="polite">100%</output>
  <button type="button" id="zoom-in" class="tool" title="Zoom in (+)" aria-label="Zoom in"><span class="codicon codicon-zoom-in"></span></button>
  <button type="button" id="fit" class="tool" title="Fit to the window (0)" aria-label="Fit to the window"><span class="codicon codicon-screen-normal"></span></button>
  <button type="button" id="actual" class="tool text" title="Actual size (1)" aria-label="Actual size">100%</button>
</header>
<main id="stage" class="stage" tabindex="0" aria-label="Picture: drag or scroll to pan, Ctrl+wheel to zoom"></main>
<footer id="caption" class="caption" hidden></footer>`,
};

export function pictureHtmlFor(parts: PictureHtmlParts): string {
  return webviewShellHtml(parts, PICTURE_PAGE);
}
