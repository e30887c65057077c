// Runs inside the bench's private display (started by warmBench.ts): the built CLI as people run
// it, each command a new process, first cold (--cold) and then served by `gai daemon`.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchFixture } from '../test/desktop/support/fixture';
import { median, percentile, type BenchRow } from './benchReport';

const RUNS = 7;
const CLI = resolve(__dirname, '..', 'dist', 'cli.js');

interface Timed {
  wallMs: number;
  toolMs?: number;
  /** The click's own verdict (a miss or refusal is measured, and counted, not fatal). */
  failed?: string;
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
  const load = loadavg()[0]!;
  const home = mkdtempSync(join(tmpdir(), 'gai-warm-bench-'));
  // A private copy: a rebuild of dist/cli.js meanwhile would be another build to the daemon.
  const cli = join(home, 'cli.js');
  copyFileSync(CLI, cli);
  symlinkSync(resolve(__dirname, '..', 'node_modules'), join(home, 'node_modules'));
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_RUNTIME_DIR: home };
  const gai = (args: string[]): Promise<Timed> =>
    new Promise((done, fail) => {
      const t = performance.now();
      execFile(process.execPath, [cli, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
        const wallMs = performance.now() - t;
        const json = args.includes('--json') && stdout.trim().startsWith('{') ? (JSON.parse(stdout) as { success?: boolean; durationMs?: number; error?: string }) : undefined;
        if (error && !json) return fail(new Error(`gai ${args.join(' ')}: ${stderr || error.message}`));
        done({ wallMs, ...(json?.durationMs !== undefined ? { toolMs: json.durationMs } : {}), ...(json && !json.success ? { failed: json.error ?? 'failed' } : {}) });
      });
    });
  const app = await launchFixture({ env });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const series = async (args: (i: number) => string[]): Promise<Timed[]> => {
      const runs: Timed[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await gai(args(i)));
      return runs;
    };
    const label = (i: number): string => (i % 2 ? 'Apply' : 'Cancel');
    const coldRead = await series(() => ['--cold', 'ocr']);
    const coldClick = await series((i) => ['--cold', 'click', label(i), '--json']);
    const start = performance.now();
    await gai(['daemon', 'start']);
    const startMs = performance.now() - start;
    await gai(['ocr']); // the first command waits for the daemon's warm-up read
    const warmRead = await series(() => ['ocr']);
    const warmClick = await series((i) => ['click', label(i), '--json']);
    await gai(['daemon', 'stop']);
    const wall = (runs: Timed[]): number[] => runs.map((r) => r.wallMs);
    const tool = (runs: Timed[]): number[] => runs.flatMap((r) => (r.toolMs === undefined ? [] : [r.toolMs]));
    const row = (name: string, values: number[], extra: Partial<BenchRow> = {}): BenchRow => ({
      name,
      value: median(values),
      unit: 'ms',
      note: `p95 ${percentile(values, 95).toFixed(0)} ms, ${values.length} runs`,
      ...extra,
    });
    const rows: BenchRow[] = [
      { name: 'warm: machine load (1 min average at start)', value: load, unit: '' },
      row('gai ocr, cold process (whole command)', wall(coldRead)),
      row('gai ocr, warm daemon (whole command)', wall(warmRead), { goal: '< half of cold', met: median(wall(warmRead)) < median(wall(coldRead)) / 2 }),
      row('gai click TEXT, cold process (whole command)', wall(coldClick)),
      row('gai click TEXT, warm daemon (whole command)', wall(warmClick), { goal: '< half of cold', met: median(wall(warmClick)) < median(wall(coldClick)) / 2 }),
      row('click tool time, cold process (durationMs)', tool(coldClick)),
      row('click tool time, warm daemon (durationMs)', tool(warmClick)),
      { name: 'gai daemon start (until it listens)', value: startMs, unit: 'ms' },
    ];
    const clicks = app.events().filter((e) => e.event === 'click').length;
    const refused = [...coldClick, ...warmClick].filter((r) => r.failed);
    rows.push({ name: 'warm bench: clicks that reached the fixture', value: clicks, unit: '', goal: `= ${2 * RUNS - refused.length}`, met: clicks === 2 * RUNS - refused.length });
    rows.push({
      name: 'warm bench: clicks the tool refused or missed (cold + warm)',
      value: refused.length,
      unit: '',
      note: `cold ${coldClick.filter((r) => r.failed).length}, warm ${warmClick.filter((r) => r.failed).length}${refused[0] ? `; first: ${refused[0].failed!.slice(0, 80)}` : ''}`,
    });
    console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
  } finally {
    await gai(['daemon', 'stop']).catch(() => undefined);
    await app.close();
    rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
