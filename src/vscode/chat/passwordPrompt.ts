import * as vscode from 'vscode';
import type { SecretPrompt } from '../../navigation/routes/pathReplayer';

/**
 * Asks for a secret a learned step typed (it is never stored) in a password box; a stop of the
 * navigation closes the box. Undefined when the person dismisses it.
 */
export const passwordPrompt: SecretPrompt = async (label, signal) => {
  if (signal.aborted) return undefined;
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await vscode.window.showInputBox({ title: 'GAI needs a secret to continue', prompt: label, password: true, ignoreFocusOut: true }, cancel.token);
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
};
