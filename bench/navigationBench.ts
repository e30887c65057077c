import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Learning against replaying one target on a private display, measured in a child process. */
export function runNavigationBench(): Promise<BenchRow[]> {
  return runBenchChild('navigationBenchChild.ts', 'navigation');
}
