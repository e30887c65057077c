// A child process for the store's crash and concurrency tests: adds paths to the brain in
// `dir` one update at a time and prints `committed <id>` after each update has returned.
// Usage: node --import=tsx brainWriter.ts DIR PREFIX COUNT   (COUNT 0 = until killed)
import { BrainStore } from '../../../src/navigation/store/brainStore';
import { addPath, createPath, upsertNode } from '../../../src/navigation/store/brainRecords';
import { homePage, networkPage, nodeFor } from './brainFixtures';

async function main(): Promise<void> {
  const [dir, prefix, countText] = process.argv.slice(2);
  if (!dir || !prefix) throw new Error('usage: brainWriter.ts DIR PREFIX COUNT');
  const count = Number(countText ?? '0');
  const { store } = await BrainStore.open(dir, { lock: { timeoutMs: 30_000, retryMs: 5 } });
  const home = nodeFor(homePage());
  const network = nodeFor(networkPage());
  process.stdout.write('ready\n');
  for (let i = 0; count === 0 || i < count; i++) {
    const id = `${prefix}-${i}`;
    await store.update((draft, context) => {
      upsertNode(draft, home);
      upsertNode(draft, network);
      // A different action each time, so that paths are not folded into one.
      addPath(draft, createPath({ id, from: home.key, to: network.key, actions: [{ tool: 'type_text', input: { text: id } }], target: `target ${id}`, durationMs: 10 }, context));
    });
    process.stdout.write(`committed ${id}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
