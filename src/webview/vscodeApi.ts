// The webview side of VS Code's message channel; `acquireVsCodeApi` is injected by VS Code
// (and by the browser test's init script) and may be called only once.
import type { WebviewMessage } from '../shared/protocol';

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function vscodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}
