// The brain view's side of VS Code's message channel (vscodeApi.ts, typed by the brain protocol).
import type { BrainViewMessage } from '../../shared/brainProtocol';
import { vscodeApi, type VsCodeApi } from '../vscodeApi';

export type BrainVsCodeApi = VsCodeApi<BrainViewMessage>;

export function brainVsCodeApi(): BrainVsCodeApi {
  return vscodeApi<BrainViewMessage>();
}
