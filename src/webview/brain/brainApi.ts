// The brain view's side of VS Code's message channel; `acquireVsCodeApi` is injected by VS Code
// (and by the browser test's init script) and may be called only once.
import type { BrainViewMessage } from '../../shared/brainProtocol';

export interface BrainVsCodeApi {
  postMessage(message: BrainViewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): BrainVsCodeApi;

export function brainVsCodeApi(): BrainVsCodeApi {
  return acquireVsCodeApi();
}
