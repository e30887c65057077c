import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision, ApprovalHandler } from '../tools/toolRuntime';

/** Asks on the terminal; anything but y/yes/a/always is a denial. */
export function terminalApproval(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): ApprovalHandler {
  return async (request, signal): Promise<ApprovalDecision> => {
    const rl = createInterface({ input, output });
    try {
      const answer = await rl.question(`Allow ${request.risk} tool ${request.summary}? [y]es / [N]o / [a]lways: `, { signal });
      const normalized = answer.trim().toLowerCase();
      if (normalized === 'a' || normalized === 'always') return 'always';
      return normalized === 'y' || normalized === 'yes' ? 'approve' : 'deny';
    } finally {
      rl.close();
    }
  };
}
