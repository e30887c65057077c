import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** 10,000 fuzzed tool calls through the built CLI on a private display, measured in a child process. */
export function runHostileBench(): Promise<BenchRow[]> {
  return runBenchChild('hostileBenchChild.ts', 'hostile');
}
