// The .vsix `npm run package` builds: its size, unpacked size, file count, the parts that
// weigh most, and how long the build takes. Builds into a temporary folder, so a .vsix in the
// repository is left alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './benchReport';

type PackageScript = typeof import('../scripts/package.mjs');

const MIB = 1024 * 1024;
const BIGGEST_PARTS = 6;

export async function runPackageBench(): Promise<BenchRow[]> {
  // Imported when run: the script is an ES module next to the CommonJS bench files.
  const script = (await import('../scripts/package.mjs')) as PackageScript;
  const work = mkdtempSync(join(tmpdir(), 'gai-package-bench-'));
  try {
    const started = performance.now();
    const built = await script.buildPackage({ out: join(work, 'gai.vsix'), quiet: true, log: () => undefined });
    const buildSeconds = (performance.now() - started) / 1000;
    const target = built.target ?? 'universal';
    const rows: BenchRow[] = [
      { name: 'package: .vsix size', value: built.vsixBytes / MIB, unit: 'MiB', note: `target ${target}` },
      { name: 'package: unpacked size', value: built.unpackedBytes / MIB, unit: 'MiB' },
      { name: 'package: files', value: built.fileCount, unit: '', note: `${built.packages} runtime packages in node_modules` },
      { name: 'package: build time (production bundles + vsce)', value: buildSeconds, unit: 's' },
    ];
    for (const part of built.parts.slice(0, BIGGEST_PARTS)) {
      rows.push({
        name: `package: part ${part.name}`,
        value: part.compressedBytes / MIB,
        unit: 'MiB',
        note: `${(part.bytes / MIB).toFixed(1)} MiB unpacked, ${part.files} files`,
      });
    }
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
