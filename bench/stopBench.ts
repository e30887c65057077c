import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** The global stop hotkey against a queue of clicks, on a private display, in a child process. */
export function runStopBench(): Promise<BenchRow[]> {
  return runBenchChild('stopBenchChild.ts', 'stop');
}
