import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** Cost of the screen privacy pass per read, on a private 1920x1080 display (see the child). */
export function runPrivacyBench(): Promise<BenchRow[]> {
  return runBenchChild('privacyBenchChild.ts', 'privacy');
}
