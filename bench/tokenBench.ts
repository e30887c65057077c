import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Input tokens per step of one 5-step task in each computer-use mode, on a private display. */
export function runTokenBench(): Promise<BenchRow[]> {
  return runBenchChild('tokenBenchChild.ts', 'tokens');
}
