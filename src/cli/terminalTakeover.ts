import { createInterface } from 'node:readline/promises';
import type { TakeoverDecision, TakeoverHandler } from '../safety/safetyMonitor';

/** Asks on the terminal whether to resume after the person took over; anything but r/resume/y stops. */
export function terminalTakeover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): TakeoverHandler {
  return async (request, signal): Promise<TakeoverDecision> => {
    const rl = createInterface({ input, output });
    try {
      const answer = await rl.question(`\n${request.message} (you ${request.detail}; next: ${request.call.name}) [r]esume / [S]top: `, { signal });
      const normalized = answer.trim().toLowerCase();
      return normalized === 'r' || normalized === 'resume' || normalized === 'y' || normalized === 'yes' ? 'resume' : 'stop';
    } finally {
      rl.close();
    }
  };
}
