import { createInterface } from 'node:readline/promises';
import { summarizeCall } from '../tools/callPreview';
import type { AppChoice, AppPermissionPrompt } from '../safety/appPermissions';

const CHOICES: Record<string, AppChoice> = {
  o: 'once',
  once: 'once',
  c: 'conversation',
  conversation: 'conversation',
  a: 'always',
  always: 'always',
  n: 'never',
  never: 'never',
};

/** Asks on the terminal; Enter or anything unknown allows nothing this time (and is not remembered). */
export function terminalAppPrompt(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): AppPermissionPrompt {
  return async (request, signal) => {
    const rl = createInterface({ input, output });
    try {
      const window = request.title ? ` (window "${request.title}")` : '';
      output.write(`GAI wants to ${summarizeCall(request.call)} in ${request.app}${window}.\n`);
      const answer = await rl.question(`Allow GAI to act in ${request.app}? [o]nce / [c]onversation / [a]lways / [n]ever, Enter: not now: `, { signal });
      return CHOICES[answer.trim().toLowerCase()];
    } finally {
      rl.close();
    }
  };
}
