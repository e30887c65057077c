import { runBenchChild } from './benchChild';
import type { BenchRow } from './benchReport';

/** Click by text on sway beside X11, in one run (waylandBenchChild.ts). */
export function runWaylandBench(): Promise<BenchRow[]> {
  return runBenchChild('waylandBenchChild.ts', 'wayland');
}
