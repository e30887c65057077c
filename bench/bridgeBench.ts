import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** The desktop bridge (windows and the AT-SPI tree kept warm) on a busy desktop of real apps, in a child process. */
export function runBridgeBench(): Promise<BenchRow[]> {
  return runBenchChild('bridgeBenchChild.ts', 'bridge');
}
