// Runs inside the bench's private display (started by stopBench.ts). A scripted model asks for
// 20 clicks on the fixture's Apply button (a short wait after each); after the third click
// arrives, xdotool sends Ctrl+Alt+Escape. Measured from just before xdotool starts: until the
// safety monitor stopped the request, and until the request was idle (its promise settled);
// counted: clicks started after the stop, and clicks the fixture logged beyond those started.
import { loadavg } from 'node:os';
import { createStopRig } from '../test/desktop/support/stopRig';
import { median, type BenchRow } from './benchReport';

const RUNS = 10;
const GOAL_MS = 200;

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const rig = await createStopRig({ env: process.env }, { clicks: 20, gapMs: 120 });
  const toStop: number[] = [];
  const toIdle: number[] = [];
  let startedAfter = 0;
  let loggedBeyond = 0;
  let cancelledRuns = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const before = rig.fixtureClicks();
      const running = rig.run();
      await rig.waitForClicks(before + 3);
      const sent = await rig.xdotool(['key', 'ctrl+alt+Escape']);
      const response = await running;
      const idle = performance.now();
      const stoppedAt = rig.stoppedAt;
      if (stoppedAt === undefined) throw new Error(`run ${run + 1}: the hotkey did not stop the request`);
      if (response.stopReason === 'cancelled') cancelledRuns++;
      toStop.push(stoppedAt - sent);
      toIdle.push(idle - sent);
      startedAfter += rig.clicksStarted.filter((t) => t > stoppedAt).length;
      await new Promise((r) => setTimeout(r, 400)); // clicks in flight arrive
      loggedBeyond += Math.max(0, rig.fixtureClicks() - before - rig.clicksStarted.length);
    }
  } finally {
    await rig.dispose();
  }
  const rows: BenchRow[] = [
    { name: 'stop: machine load (1 min average at start)', value: load, unit: '' },
    {
      name: 'stop hotkey → request stopped (xdotool key, X grab)',
      value: median(toStop),
      unit: 'ms',
      goal: `< ${GOAL_MS}`,
      met: Math.max(...toStop) < GOAL_MS,
      note: `max ${Math.max(...toStop).toFixed(0)} ms over ${RUNS} runs; includes xdotool's start-up`,
    },
    {
      name: 'stop hotkey → request idle (agent returned)',
      value: median(toIdle),
      unit: 'ms',
      goal: `< ${GOAL_MS}`,
      met: Math.max(...toIdle) < GOAL_MS,
      note: `max ${Math.max(...toIdle).toFixed(0)} ms; ${cancelledRuns}/${RUNS} runs ended cancelled`,
    },
    {
      name: 'stop: actions started after the stop',
      value: startedAfter,
      unit: 'clicks',
      goal: '0',
      met: startedAfter === 0 && loggedBeyond === 0,
      note: `over ${RUNS} runs of a 20-click queue; ${loggedBeyond} click(s) logged by the fixture beyond those started before the stop`,
    },
  ];
  process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
