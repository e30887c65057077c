// A webview's side of VS Code's message channel, typed by the messages that view sends;
// `acquireVsCodeApi` is injected by VS Code (and by the browser test's init script) and may be
// called only once.
import type { WebviewMessage } from '../shared/protocol';

export interface VsCodeApi<M = WebviewMessage> {
  postMessage(message: M): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown>;

/** `M` is the view's own protocol; the chat's by default. */
export function vscodeApi<M = WebviewMessage>(): VsCodeApi<M> {
  return acquireVsCodeApi();
}
