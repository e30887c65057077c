import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Click by text end to end on a private display, measured in a child process (see the child). */
export function runClickBench(): Promise<BenchRow[]> {
  return runBenchChild('clickBenchChild.ts', 'click');
}
