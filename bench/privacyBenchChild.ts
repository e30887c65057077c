// Runs inside the bench's private display (started by privacyBench.ts): what the screen privacy
// pass adds to a screen reading. The pass itself (find masked fields, black them out, filter the
// text, hash the window for the tree cache) on a real frame of the Tk fixture with a typed
// password; the lookups that run beside OCR (active window, AT-SPI query of a GTK window whose
// pixels changed, a tree-less Tk window); and a full reading with and without the pass.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { ScreenPrivacy } from '../src/desktop/reading/screenPrivacy';
import { ScreenReader } from '../src/desktop/reading/screenReader';
import { FIXTURE_PYTHON, launchFixture, type DisplayEnv } from '../test/desktop/support/fixture';
import { median, type BenchRow } from './benchReport';

const RUNS = 7;
const GTK_APP = path.resolve(__dirname, '..', 'test', 'desktop', 'fixtures', 'gtkPasswordApp.py');

async function main(): Promise<void> {
  const display: DisplayEnv = { env: { ...process.env } };
  delete display.env.AT_SPI_BUS_ADDRESS;
  delete display.env.NO_AT_BRIDGE;
  const rows: BenchRow[] = [{ name: 'privacy: machine load (1/5 min average at start)', value: loadavg()[0]!, unit: '', note: `5 min ${loadavg()[1]!.toFixed(2)}` }];
  const desktop = createPlatformDesktop({ env: display.env });
  const privacy = new ScreenPrivacy({ windows: desktop.windows, accessibility: desktop.accessibility });
  try {
    const fixture = await launchFixture(display, { args: ['--password'] });
    try {
      const field = fixture.widget('password_entry');
      await xdotool(display, ['mousemove', String(field.x + 20), String(field.y + 10), 'click', '1']);
      await xdotool(display, ['type', '--delay', '10', 'hunter2-SECRET']);
      await delay(300);
      const image = await desktop.screen.grab();
      const analysis = await desktop.ocr.recognize(image);
      const probe = { fields: [] };
      const pass: number[] = [];
      let masked = 0;
      for (let i = 0; i < RUNS; i++) pass.push(await time(async () => (masked = privacy.protect(image, analysis, probe).regions.length)));
      rows.push({ name: 'privacy: pass on a 1920x1080 reading (find, mask, filter)', value: median(pass), unit: 'ms', note: `${masked} field(s) masked; runs ${pass.map(round).join(', ')}` });

      const window: number[] = [];
      for (let i = 0; i < RUNS; i++) window.push(await time(() => desktop.windows.activeWindow()));
      rows.push({ name: 'privacy: active window lookup (beside OCR)', value: median(window), unit: 'ms' });
      const tk: number[] = [];
      for (let i = 0; i < RUNS; i++) tk.push(await time(() => privacy.probe(image)));
      rows.push({ name: 'privacy: probe of a tree-less Tk window (cached as tree-less)', value: median(tk), unit: 'ms', note: `first ${round(tk[0]!)} ms` });

      const plain = new ScreenReader(desktop.screen, desktop.ocr);
      const guarded = new ScreenReader(desktop.screen, desktop.ocr, { privacy });
      const without: number[] = [];
      const withPass: number[] = [];
      for (let i = 0; i < 3; i++) {
        plain.reset();
        guarded.reset();
        without.push(await time(() => plain.read()));
        withPass.push(await time(() => guarded.read()));
      }
      rows.push({ name: 'privacy: full reading (grab + OCR) without the pass', value: median(without), unit: 'ms' });
      rows.push({ name: 'privacy: full reading (grab + OCR) with the pass', value: median(withPass), unit: 'ms' });
    } finally {
      await fixture.close();
    }
    rows.push(...(await gtkRows(display, desktop, privacy)));
  } finally {
    await desktop.ocr.dispose();
  }
  process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
}

/** The AT-SPI query of a GTK window whose pixels changed (a cache miss), and a cache hit. */
async function gtkRows(display: DisplayEnv, desktop: ReturnType<typeof createPlatformDesktop>, privacy: ScreenPrivacy): Promise<BenchRow[]> {
  if (!desktop.accessibility || !(await desktop.accessibility.available())) return [{ name: 'privacy: AT-SPI probe', value: 0, unit: 'ms', note: 'skipped: AT-SPI cannot be read here' }];
  const dir = mkdtempSync(path.join(tmpdir(), 'gai-privacy-bench-'));
  const log = path.join(dir, 'events.jsonl');
  writeFileSync(log, '');
  const app = spawn(FIXTURE_PYTHON, [GTK_APP, '--log', log], { env: display.env, stdio: 'ignore' });
  try {
    for (const deadline = Date.now() + 20_000; !readFileSync(log, 'utf8').includes('"ready"'); await delay(100)) {
      if (Date.now() > deadline) return [{ name: 'privacy: AT-SPI probe', value: 0, unit: 'ms', note: 'skipped: the GTK fixture did not start' }];
    }
    await delay(500);
    const miss: number[] = [];
    const hit: number[] = [];
    let fields = 0;
    for (let i = 0; i < RUNS; i++) {
      await xdotool(display, ['type', '--delay', '0', 'x']); // new pixels: the cache misses
      await delay(150);
      const image = await desktop.screen.grab();
      miss.push(await time(async () => (fields = (await privacy.probe(image)).fields.length)));
      hit.push(await time(() => privacy.probe(image)));
    }
    return [
      { name: 'privacy: probe of a GTK window that changed (AT-SPI query)', value: median(miss), unit: 'ms', note: `${fields} password field(s)` },
      { name: 'privacy: probe of an unchanged GTK window (cached)', value: median(hit), unit: 'ms' },
    ];
  } finally {
    app.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

function xdotool(display: DisplayEnv, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile('xdotool', args, { env: display.env }, (error) => (error ? reject(error) : resolve())));
}

async function time(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
