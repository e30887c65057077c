import type { ToolCall } from '../model/messages';
import type { ExecuteOptions } from './runtimeTypes';

/**
 * A call the vendor flagged asks every time, with the vendor's codes and messages, as a kind of
 * its own so that no blanket approval (`--yes`, auto-approved risks, "always") confirms it.
 */
export function withConfirmation(call: ToolCall, options: ExecuteOptions): ExecuteOptions {
  if (!call.confirm?.length) return options;
  const checks = call.confirm.map((c) => `${c.code ?? 'safety check'}: ${c.message ?? '(no details)'}`).join('; ');
  const note = `The model's provider flagged this call and the person must confirm it (${checks}).`;
  return { approval: 'required', approvalKind: 'safety-check', approvalNote: options.approvalNote ? `${options.approvalNote} ${note}` : note };
}
