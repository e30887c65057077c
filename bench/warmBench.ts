import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Whole `gai` commands, cold (each starts its own OCR) vs served by the warm daemon, on a private display. */
export function runWarmBench(): Promise<BenchRow[]> {
  return runBenchChild('warmBenchChild.ts', 'warm');
}
