import * as vscode from 'vscode';
import type { TakeoverDecision, TakeoverHandler } from '../../safety/safetyMonitor';

/**
 * "You took over: paused. Resume?" as a notification with Resume / Stop, and a line in the chat.
 * Closing the notification, or the request ending meanwhile, counts as Stop.
 */
export function takeoverPrompt(chatLine: (text: string) => void): TakeoverHandler {
  return async (request, signal): Promise<TakeoverDecision> => {
    chatLine(`${request.message} (you ${request.detail}; next: ${request.call.name})`);
    const choice = vscode.window.showWarningMessage(`GAI: ${request.message}`, { detail: `You ${request.detail}.` }, 'Resume', 'Stop');
    const aborted = new Promise<undefined>((resolve) => {
      if (signal.aborted) resolve(undefined);
      else signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    const answer = await Promise.race([choice, aborted]);
    const decision: TakeoverDecision = answer === 'Resume' ? 'resume' : 'stop';
    chatLine(decision === 'resume' ? 'Resumed.' : 'Stopped after you took over.');
    return decision;
  };
}
