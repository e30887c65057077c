import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Click by text on a busy desktop of real applications, measured in a child process (see the child). */
export function runBusyDesktopBench(): Promise<BenchRow[]> {
  return runBenchChild('busyDesktopBenchChild.ts', 'busy');
}
