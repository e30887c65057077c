import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Click by text with the pointer vs through the control's accessibility action, same keys, same run, on a private display. */
export function runPressBench(): Promise<BenchRow[]> {
  return runBenchChild('pressBenchChild.ts', 'press');
}
