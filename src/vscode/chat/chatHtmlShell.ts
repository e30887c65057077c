// The chat view's HTML shell as a pure function (no vscode import), so the browser test can build
// the real page with its own origin. The shell and its strict CSP are webviewShell.ts; the chat
// also allows data: images (the screenshots).
import { webviewCsp, webviewShellHtml, type WebviewPage, type WebviewShellParts } from '../webviewShell';

/** scriptUri is media/dist/webview.js, styleUri media/chat.css. */
export type ChatHtmlParts = WebviewShellParts;

const CHAT_PAGE: WebviewPage = {
  title: 'GAI',
  dataImages: true,
  body: `<main id="log" role="log" aria-label="Conversation" aria-live="polite" tabindex="0"></main>
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
</footer>`,
};

export function chatCsp(cspSource: string, nonce: string): string {
  return webviewCsp(cspSource, nonce, CHAT_PAGE);
}

export function chatHtmlFor(parts: ChatHtmlParts): string {
  return webviewShellHtml(parts, CHAT_PAGE);
}
