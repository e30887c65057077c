import { createInterface } from 'node:readline/promises';
import { escapeInvisible } from '../common/invisibleText';
import type { ApprovalDecision, ApprovalHandler } from '../runtime/toolRuntime';

/** Asks on the terminal; anything but y/yes/a/always is a denial. */
export function terminalApproval(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): ApprovalHandler {
  return async (request, signal): Promise<ApprovalDecision> => {
    const rl = createInterface({ input, output });
    try {
      // The summary has its invisible characters escaped already; the note gets the same.
      if (request.note) output.write(`${escapeInvisible(request.note)}\n`);
      const answer = await rl.question(`Allow ${request.risk} tool ${request.summary}? [y]es / [N]o / [a]lways: `, { signal });
      const normalized = answer.trim().toLowerCase();
      if (normalized === 'a' || normalized === 'always') return 'always';
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
