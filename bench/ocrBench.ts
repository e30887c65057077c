import type { BenchRow } from './benchReport';
import { runBenchChild } from './benchChild';

/** OCR timings and recall on a private 1920x1080 display, measured in a child process (see the child). */
export function runOcrBench(): Promise<BenchRow[]> {
  return runBenchChild('ocrBenchChild.ts', 'ocr');
}
