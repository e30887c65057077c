import { createInterface } from 'node:readline/promises';
import type { BrainDocument, BrainPath } from '../../navigation/store/brainTypes';
import { describeAction } from '../../navigation/routes/pathActions';
import type { CliIo } from '../../common/cliIo';

// `gai brain confirm` shows an imported path step by step: a path someone else learned may
// launch a terminal and type a command, and the person must see that before trusting it.

export function formatPendingPaths(document: BrainDocument, paths: readonly BrainPath[]): string {
  const label = (key: string): string => (key === '@launcher' ? 'anywhere' : (document.nodes.find((n) => n.key === key)?.label ?? key));
  return paths
    .map((path) => {
      const steps = path.actions.map((action, i) => `    ${i + 1}. ${describeAction(action)}`).join('\n');
      return `Path ${path.id}: from "${label(path.from)}" to "${label(path.to)}" (imported${path.trust ? ` ${path.trust.importedAt}` : ''})\n${steps}\n`;
    })
    .join('');
}

/** Asks for each step in turn; the first "no" leaves the path unconfirmed. */
export async function confirmSteps(io: CliIo, path: BrainPath): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    for (const [i, action] of path.actions.entries()) {
      const answer = await rl.question(`  Step ${i + 1} of ${path.actions.length}: ${describeAction(action)} — OK? [y/N] `);
      if (!/^y(es)?$/i.test(answer.trim())) {
        io.stderr.write(`  Path ${path.id} stays unconfirmed: its steps will ask before they run.\n`);
        return false;
      }
    }
    return true;
  } finally {
    rl.close();
  }
}
