// Runs inside the bench's private 1920x1080 display (started by bridgeBench.ts), on the busy
// desktop of real apps (chromium with our page, mousepad, galculator, speedcrunch): window
// questions through the desktop bridge's warm X connection against the xprop + xwininfo path it
// replaced, and AT-SPI reads of galculator's and chromium's windows: cold (a new helper: python3
// start, bus connection, walk, as every read cost before), a fresh walk in the warm helper, and
// a read of the unchanged window served from the event-kept cache.
import { loadavg } from 'node:os';
import { AtspiAccessibility } from '../src/platform/linux/atspi/atspiAccessibility';
import { DesktopBridge } from '../src/platform/linux/desktopBridge';
import { X11Windows } from '../src/platform/linux/x11/x11Windows';
import { activateWindow } from '../test/desktop/support/realApps/appWindow';
import { startBusyScene } from '../test/desktop/support/realApps/busyScene';
import { median, percentile, type BenchRow } from './benchReport';

const RUNS = 20;

async function timed(runs: number, what: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await what();
    times.push(performance.now() - started);
  }
  return times;
}

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const env = process.env;
  const scene = await startBusyScene(env);
  const bridge = new DesktopBridge(env);
  const rows: BenchRow[] = [];
  const note = `busy desktop of 4 real apps, 1920x1080; load ${load.toFixed(1)}`;
  try {
    const windows = new X11Windows(env, { bridge });
    // A helper that cannot start: the xprop + xwininfo path, as before the bridge.
    const xprop = new X11Windows(env, { bridge: new DesktopBridge(env, { python: '/nonexistent/python3' }) });
    await windows.activeWindow();
    const bridgeTimes = await timed(RUNS, () => windows.activeWindow());
    const xpropTimes = await timed(RUNS, () => xprop.activeWindow());
    const listTimes = await timed(RUNS, () => windows.listWindows());
    const listed = (await windows.listWindows()).length;
    rows.push(
      { name: 'bridge: activeWindow (warm X connection), median', value: median(bridgeTimes), unit: 'ms', goal: '< 5', met: median(bridgeTimes) < 5, note },
      { name: 'bridge: activeWindow via xprop + xwininfo (before), median', value: median(xpropTimes), unit: 'ms', note: `${RUNS} runs each` },
      { name: 'bridge: listWindows (stacking order), median', value: median(listTimes), unit: 'ms', note: `${listed} windows` },
    );

    for (const [label, windowId] of [['galculator', scene.galculator.windowId], ['chromium page', scene.chromium.windowId]] as const) {
      await activateWindow(windowId, env);
      const cold: number[] = [];
      for (let i = 0; i < 3; i++) {
        const own = new AtspiAccessibility(env);
        const started = performance.now();
        await own.elements();
        cold.push(performance.now() - started);
        await own.dispose();
      }
      const tree = new AtspiAccessibility(env, {}, bridge);
      const count = (await tree.elements({ fresh: true })).length;
      const walks = await timed(5, () => tree.elements({ fresh: true }));
      await tree.elements();
      const cached = await timed(RUNS, () => tree.elements());
      const servedFromCache = tree.lastRead?.cached === tree.lastRead?.windows;
      const digests = await timed(RUNS, () => tree.treeDigest());
      rows.push(
        { name: `bridge: ${label} elements() cold (new helper), median`, value: median(cold), unit: 'ms', note: `${count} elements; 3 runs` },
        { name: `bridge: ${label} elements() fresh walk, warm helper, median`, value: median(walks), unit: 'ms', note: '5 runs' },
        {
          name: `bridge: ${label} elements() unchanged window (cache), median`,
          value: median(cached),
          unit: 'ms',
          goal: '< 20',
          met: median(cached) < 20 && servedFromCache,
          note: `p95 ${percentile(cached, 95).toFixed(1)} ms; ${servedFromCache ? 'served from the cache' : 'NOT served from the cache'}`,
        },
        { name: `bridge: ${label} treeDigest(), median`, value: median(digests), unit: 'ms' },
      );
    }
    // Back and forth between the two windows: focus and activation move, the windows stay as they were.
    const tree = new AtspiAccessibility(env, {}, bridge);
    const switches: number[] = [];
    let fromCache = 0;
    for (let i = 0; i < 10; i++) {
      await activateWindow(i % 2 === 0 ? scene.galculator.windowId : scene.chromium.windowId, env);
      const started = performance.now();
      await tree.elements();
      switches.push(performance.now() - started);
      if (tree.lastRead?.cached === tree.lastRead?.windows) fromCache++;
    }
    rows.push({ name: 'bridge: elements() after switching to an unchanged window, median', value: median(switches), unit: 'ms', note: `${fromCache}/10 from the cache (galculator <-> chromium)` });
  } finally {
    await bridge.dispose();
    await scene.stop();
  }
  console.log(`BENCH_ROWS ${JSON.stringify(rows)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
