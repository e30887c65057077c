import { createInterface } from 'node:readline/promises';
import { escapeInvisible } from '../common/invisibleText';
import type { ApprovalDecision, ApprovalHandler } from '../runtime/toolRuntime';

/**
 * Asks on the terminal; anything but an offered answer is a denial. A call landing in an app is
 * asked about with that app in the same question (as the chat's card does): once, the app for
 * this session, or always there while nobody decided it.
 */
export function terminalApproval(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): ApprovalHandler {
  return async (request, signal): Promise<ApprovalDecision> => {
    const rl = createInterface({ input, output });
    try {
      // The summary has its invisible characters escaped already; the note gets the same.
      if (request.note) output.write(`${escapeInvisible(request.note)}\n`);
      const app = request.app;
      const appChoices = app ? ` / [s] ${app.name} for this session${app.undecided ? ` / [p]ermanently in ${app.name}` : ''}` : '';
      const answer = await rl.question(`Allow ${request.risk} tool ${request.summary}? [y]es / [N]o / [a]lways${appChoices}: `, { signal });
      const normalized = answer.trim().toLowerCase();
      if (normalized === 'a' || normalized === 'always') return 'always';
      if (app && (normalized === 's' || normalized === 'session')) return 'app-conversation';
      if (app?.undecided && (normalized === 'p' || normalized === 'permanently')) return 'app-always';
      return normalized === 'y' || normalized === 'yes' ? 'approve' : 'deny';
    } finally {
      rl.close();
    }
  };
}

/**
 * `--yes`: every action is approved up front, so only steps that must be asked about anyway
 * arrive here (a consequential step of a learned path: approved, the person said yes to all).
 * The steps of an imported, unconfirmed path and the calls a model's vendor flagged (safety checks)
 * are not the person's to approve blindly: they go to the terminal when there is one, else they
 * are denied.
 */
export function yesApproval(ask: ApprovalHandler | undefined): ApprovalHandler {
  return async (request, signal) => {
    if (request.kind !== 'untrusted-path' && request.kind !== 'safety-check') return 'approve';
    return ask ? ask(request, signal) : 'deny';
  };
}
