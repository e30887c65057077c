import { arch, cpus, platform } from 'node:os';
import { join } from 'node:path';
import { runAgentBench } from './agentBench';
import { printTable, writeJson, type BenchRow } from './benchReport';
import { runBridgeBench } from './bridgeBench';
import { runBusyDesktopBench } from './busyDesktopBench';
import { runClickBench } from './clickBench';
import { runExtensionBench } from './extensionBench';
import { runHostileBench } from './hostileBench';
import { runNavigationBench } from './navigationBench';
import { runStopBench } from './stopBench';
import { runTokenBench } from './tokenBench';
import { runOcrBench } from './ocrBench';
import { runPackageBench } from './packageBench';
import { runPressBench } from './pressBench';
import { runPrivacyBench } from './privacyBench';
import { runWarmBench } from './warmBench';
import { runWaylandBench } from './waylandBench';
import { runLiveViewBench } from './liveViewBench';
import { runRoutineDriftBench } from './routineDriftBench';

// `npm run bench`: every benchmark, a table on stdout and JSON in .bench/results.json.

const BENCHES: Array<{ name: string; run: () => Promise<BenchRow[]> }> = [
  { name: 'agent', run: runAgentBench },
  { name: 'ocr', run: runOcrBench },
  { name: 'click', run: runClickBench },
  { name: 'press', run: runPressBench },
  { name: 'package', run: runPackageBench },
  { name: 'extension', run: runExtensionBench },
  { name: 'navigation', run: runNavigationBench },
  { name: 'stop', run: runStopBench },
  { name: 'hostile', run: runHostileBench },
  { name: 'privacy', run: runPrivacyBench },
  { name: 'warm', run: runWarmBench },
  { name: 'busy', run: runBusyDesktopBench },
  { name: 'bridge', run: runBridgeBench },
  { name: 'tokens', run: runTokenBench },
  { name: 'wayland', run: runWaylandBench },
  { name: 'live', run: runLiveViewBench },
  { name: 'routines', run: runRoutineDriftBench },
];

async function main(): Promise<void> {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc (npm run bench does)');
  const only = process.argv[2];
  const rows: BenchRow[] = [];
  for (const bench of BENCHES) {
    if (only && bench.name !== only) continue;
    rows.push(...(await bench.run()));
  }
  printTable(rows);
  const path = join(process.cwd(), '.bench', 'results.json');
  writeJson(path, rows, { date: new Date().toISOString(), node: process.version, platform: `${platform()} ${arch()}`, cpus: cpus().length });
  console.log(`\nwrote ${path}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
