// Record Steps (issue 23) under drift, on a private display: the routines of
// test/desktop/support/routineScenes.ts (galculator's keys, mousepad's Find and Replace, Save As
// through the GTK file chooser, also with the folder picked first) recorded once by a scripted
// person through the real X11 recorder, then replayed without a model after each drift, the
// effect checked in the app or on disk (Save As always from a document outside Reports). Also
// what recording costs the person: an app's reaction to a key with and without a recording under
// way (same run, taking turns), and how long each event's anchoring took after it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { openNavigationBrain } from '../src/app/navigationAssembly';
import { createDesktopServices, type DesktopServices } from '../src/desktop/desktopServices';
import type { InputRecorderPort } from '../src/desktop/ports/inputRecorderPort';
import { RoutineRecording } from '../src/navigation/recording/routineRecorder';
import type { NavigationBrain } from '../src/navigation/navigationBrain';
import type { RoutineRunReport } from '../src/navigation/routines/routinePlayer';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { createPlatformRecorder } from '../src/platform/platformRecorder';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { FIXTURE_PYTHON } from '../test/desktop/support/fixture';
import { activateWindow, delay, placeWindow, run, stopProcess, type Placement } from '../test/desktop/support/realApps/appWindow';
import {
  PLACEMENTS, recordScene, ROUTINE_SCENES, SceneHome, ScriptedPerson, startScene, type RoutineScene, type SceneApp, type SceneContext, type SceneLook,
} from '../test/desktop/support/routineScenes';
import { runBenchChild } from './benchChild';
import { median, percentile, type BenchRow } from './benchReport';

/** On a private display of its own, in a child process (its environment is that display's). */
export function runRoutineDriftBench(): Promise<BenchRow[]> {
  return runBenchChild('routineDriftBench.ts', 'routines');
}

type Outcome = 'completed' | 'stopped' | 'wrong';

interface Drift {
  name: string;
  /** Restarts the app with this look (undefined: the same process, only moved, sized or covered). */
  look?: SceneLook;
  /** Where the window goes before the replay, from the recorded placement. */
  place?(recorded: Placement): Placement;
  /** A sticky note over a corner without targets, per routine. */
  cover?: boolean;
  /** Recorded again in this look first, then replayed in the default one (dark → light). */
  recordedIn?: SceneLook;
}

/** Each drift is replayed twice in a row (the second in the same drifted app when the first completed). */
const REPLAYS_PER_DRIFT = 2;

const DRIFTS: Drift[] = [
  { name: 'none (as recorded)' },
  { name: 'window moved', place: (p) => ({ ...p, x: p.x > 600 ? 120 : 880, y: p.y > 300 ? 90 : 380 }) },
  { name: 'window resized', place: (p) => ({ ...p, width: Math.round(p.width * 1.3), height: Math.round(p.height * 1.15) }) },
  { name: 'another window over a corner', cover: true },
  { name: 'app restarted', look: {} },
  { name: 'dark theme', look: { dark: true } },
  { name: 'larger font (GDK_DPI_SCALE 1.25)', look: { bigFont: true } },
  { name: 'toolbar / keys added before the targets', look: { extraControls: true } },
  { name: 'light theme, recorded in the dark one', recordedIn: { dark: true } },
];

/** Where the sticky note goes for each routine: a corner of its window where none of its targets are. */
function coverFor(scene: RoutineScene, window: Placement): Placement {
  if (scene.kind === 'galculator') return { x: window.x, y: window.y + 4, width: 190, height: 60 }; // menu bar and the display's left
  if (scene.name.startsWith('Replace')) return { x: window.x, y: window.y + window.height - 100, width: 200, height: 100 }; // under the dialog's left
  return { x: window.x + window.width - 210, y: window.y + 40, width: 200, height: 90 }; // the chooser's file list
}

interface Cell {
  routine: string;
  drift: string;
  outcome: Outcome | 'error';
  detail: string;
  modelCalls: number;
  via: string;
  ms: number;
}

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const started = performance.now();
  const env = process.env;
  const services = createDesktopServices(createPlatformDesktop({ env }));
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(services)) registry.register(tool);
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
  const tally = tallyRecorder(createPlatformRecorder(env));
  const brainDir = mkdtempSync(path.join(tmpdir(), 'gai-routine-bench-'));
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const { brain } = await openNavigationBrain({ dir: brainDir, services, hostRuntime: runtime, tools: () => createDesktopTools(services), logger: quiet, recorder: tally.port });
  const person = new ScriptedPerson(env);
  const cells: Cell[] = [];
  const anchoring: Record<'click' | 'key', number[]> = { click: [], key: [] };
  try {
    // GAI_BENCH_ROUTINES=TEXT: only the routines whose name holds it, to look at one while changing the code.
    const only = process.env.GAI_BENCH_ROUTINES?.toLowerCase();
    for (const scene of ROUTINE_SCENES.filter((s) => !only || s.name.toLowerCase().includes(only))) cells.push(...(await driftScene(scene, brain, services, person, tally, anchoring)));
    const overhead = await recordingOverhead(services, tally.port);
    process.stdout.write(`BENCH_ROWS ${JSON.stringify(rowsOf(cells, anchoring, overhead, load, performance.now() - started))}\n`);
  } finally {
    await services.desktop.ocr.dispose();
    rmSync(brainDir, { recursive: true, force: true });
  }
}

/** Records the scene once, then replays it after each drift. */
async function driftScene(
  scene: RoutineScene,
  brain: NavigationBrain,
  services: DesktopServices,
  person: ScriptedPerson,
  tally: Tally,
  anchoring: Record<'click' | 'key', number[]>,
): Promise<Cell[]> {
  const home = new SceneHome('gai-routine-bench-');
  const recorded = PLACEMENTS[scene.kind];
  let app: SceneApp = await startScene(scene, process.env, home);
  const context = (): SceneContext => ({ home, app, services });
  const cells: Cell[] = [];
  try {
    tally.kinds.length = 0;
    const { routine, recording } = await recordScene(brain, scene, context(), person);
    recording.anchorMs.forEach((ms, i) => {
      const kind = tally.kinds[i];
      if (kind === 'button') anchoring.click.push(ms);
      else if (kind === 'key') anchoring.key.push(ms);
    });
    log(`${scene.name}: recorded ${routine.steps.length} steps from ${recording.events} events`);
    for (const [round, drift] of DRIFTS.entries()) {
      for (let again = 0; again < REPLAYS_PER_DRIFT; again++) {
        // A replay that did not complete may have left a dialog open: the next starts from a fresh app.
        const dirty = cells.length > 0 && cells.at(-1)!.outcome !== 'completed';
        let cover: { close(): Promise<void> } | undefined;
        try {
          if (drift.recordedIn && again === 0) {
            await app.stop();
            app = await recordAgain(scene, brain, home, drift.recordedIn, person, services);
          }
          if ((drift.look && again === 0) || dirty) {
            await app.stop();
            app = await startScene(scene, process.env, home, drift.look ?? {});
          }
          await app.place(drift.place ? drift.place(recorded) : recorded);
          cover = drift.cover ? await openCover(process.env, coverFor(scene, recorded)) : undefined;
          if (cover) await app.activate(); // the note stays above; the keys go to the app as before
          const cell = await replayOnce(scene, brain, context(), round * REPLAYS_PER_DRIFT + again, drift.name);
          cells.push(cell);
          log(`  ${drift.name}: ${cell.outcome} (${cell.via}) ${cell.outcome === 'completed' ? '' : cell.detail}`);
        } catch (error) {
          // The scene could not be set (not the replay's doing): said, and left out of the counts.
          const detail = error instanceof Error ? error.message : String(error);
          cells.push({ routine: scene.name, drift: drift.name, outcome: 'error', detail, modelCalls: 0, via: '', ms: 0 });
          log(`  ${drift.name}: bench error: ${detail}`);
        } finally {
          await cover?.close();
        }
      }
    }
  } finally {
    await app.stop();
    home.dispose();
  }
  return cells;
}

/** The scene recorded again in another look (replacing the routine); returns its app restarted in the default look. */
async function recordAgain(scene: RoutineScene, brain: NavigationBrain, home: SceneHome, look: SceneLook, person: ScriptedPerson, services: DesktopServices): Promise<SceneApp> {
  // The Save As routines' file from the first recording: the chooser would ask whether to replace it.
  if (typeof scene.parameters.name === 'string') rmSync(path.join(home.reports, `${scene.parameters.name}.txt`), { force: true });
  const app = await startScene(scene, process.env, home, look, PLACEMENTS[scene.kind]);
  try {
    const { routine } = await recordScene(brain, scene, { home, app, services }, person);
    log(`${scene.name}: recorded again (${JSON.stringify(look)}), ${routine.steps.length} steps`);
  } finally {
    await app.stop();
  }
  return startScene(scene, process.env, home, {});
}

async function replayOnce(scene: RoutineScene, brain: NavigationBrain, context: SceneContext, round: number, drift: string): Promise<Cell> {
  await scene.startElsewhere?.(context);
  const values = await scene.prepare(context, round);
  const t = performance.now();
  const report = await brain.routines.run(scene.name, values);
  const ms = performance.now() - t;
  const problem = await scene.verify(context, values);
  const outcome: Outcome = !report.ok ? 'stopped' : problem ? 'wrong' : 'completed';
  if (outcome !== 'completed') log(`  step reports (${drift}):\n${explain(report)}${problem ? `\n    effect: ${problem}` : ''}`);
  return { routine: scene.name, drift, outcome, detail: report.ok ? (problem ?? '') : (report.reason ?? ''), modelCalls: report.modelCalls, via: vias(report), ms };
}

function vias(report: RoutineRunReport): string {
  const counts = new Map<string, number>();
  for (const step of report.steps) counts.set(step.via ?? '-', (counts.get(step.via ?? '-') ?? 0) + 1);
  return [...counts].map(([via, n]) => `${via}×${n}`).join(' ');
}

function explain(report: RoutineRunReport): string {
  return report.steps.map((s) => `    ${s.index + 1}. ${s.action}: ${s.ok ? 'ok' : 'FAILED'} via ${s.via ?? '-'}: ${s.observation}`).join('\n');
}

interface Tally {
  port: InputRecorderPort;
  /** The kind of each input delivered, in order (anchorMs follows the same order). */
  kinds: string[];
}

function tallyRecorder(inner: InputRecorderPort): Tally {
  const kinds: string[] = [];
  return {
    kinds,
    port: { record: (options, handlers) => inner.record(options, { onInput: (input) => (kinds.push(input.kind), handlers.onInput(input)), onStop: () => handlers.onStop(), onWarning: (m) => handlers.onWarning(m) }) },
  };
}

// A Tk window that prints CLOCK_MONOTONIC when each key reaches it: the app's reaction.
const KEY_CLOCK = [
  'import sys, time, tkinter as tk',
  "root = tk.Tk(className='GaiKeyClock')",
  "root.title('Key clock')",
  "root.geometry('360x120+1500+80')",
  "entry = tk.Entry(root); entry.pack(fill='x', padx=10, pady=30); entry.focus_set()",
  "root.bind_all('<KeyPress>', lambda e: print('%.6f %s' % (time.monotonic(), e.keysym), flush=True))",
  'root.mainloop()',
].join('\n');

const KEYS_PER_TURN = 10;
const TURNS = 3;

/** Key → app reaction with no recording and with one under way, taking turns; ≥ 30 keys each. */
async function recordingOverhead(services: DesktopServices, port: InputRecorderPort): Promise<{ off: number[]; on: number[]; anchorMs: number[] }> {
  const child: ChildProcess = spawn(FIXTURE_PYTHON, ['-c', KEY_CLOCK], { env: process.env, stdio: ['ignore', 'pipe', 'ignore'] });
  const seen: Array<(at: number) => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => seen.shift()?.(Number(line.split(' ')[0]) * 1000));
  const result = { off: [] as number[], on: [] as number[], anchorMs: [] as number[] };
  try {
    const windowId = await windowOfClass(child, 'GaiKeyClock', process.env);
    await activateWindow(windowId, process.env);
    await delay(500);
    const press = async (key: string): Promise<number> => {
      let resolver: (at: number) => void = () => undefined;
      const reached = new Promise<number>((resolve) => seen.push((resolver = resolve)));
      const sent = Number(process.hrtime.bigint()) / 1e6;
      await run('xdotool', ['key', key], process.env);
      const at = await Promise.race([reached, delay(3_000).then(() => NaN)]);
      if (Number.isNaN(at)) seen.splice(seen.indexOf(resolver), 1); // lost: the next key keeps its own
      return at - sent;
    };
    for (let i = 0; i < 3; i++) await press('x'); // warm
    for (let turn = 0; turn < TURNS * 2; turn++) {
      const recording = turn % 2 ? await RoutineRecording.start({ port, services }) : undefined;
      await delay(300);
      for (let k = 0; k < KEYS_PER_TURN; k++) {
        const ms = await press(String.fromCharCode(97 + ((turn * KEYS_PER_TURN + k) % 26)));
        if (Number.isFinite(ms)) (recording ? result.on : result.off).push(ms);
        await delay(220 + ((k * 53) % 90)); // a person's typing pace
      }
      if (recording) result.anchorMs.push(...(await recording.stop()).anchorMs);
    }
  } finally {
    await stopProcess(child);
  }
  return result;
}

function rowsOf(cells: Cell[], anchoring: Record<'click' | 'key', number[]>, overhead: { off: number[]; on: number[]; anchorMs: number[] }, load: number, totalMs: number): BenchRow[] {
  const ran = cells.filter((c) => c.outcome !== 'error');
  const count = (o: Outcome): number => ran.filter((c) => c.outcome === o).length;
  const modelCalls = ran.reduce((n, c) => n + c.modelCalls, 0);
  const share = ran.length ? count('completed') / ran.length : 0;
  const rows: BenchRow[] = [{ name: 'routines: machine load (1 min average at start)', value: load, unit: '' }];
  for (const key of new Set(cells.map((c) => `${c.routine} × ${c.drift}`))) {
    const group = cells.filter((c) => `${c.routine} × ${c.drift}` === key);
    const done = group.filter((c) => c.outcome === 'completed');
    const notes = group.map((c) => (c.outcome === 'completed' ? `completed (${c.via}, ${Math.round(c.ms)} ms)` : `${c.outcome}: ${c.detail.slice(0, 240)}`));
    rows.push({ name: `routines: ${key}`, value: done.length, unit: `of ${group.filter((c) => c.outcome !== 'error').length}`, note: [...new Set(notes.map((n) => n.replace(/, \d+ ms\)/, ')')))].join(' | ') });
  }
  const addedMs = median(overhead.on) - median(overhead.off);
  rows.push(
    { name: 'routines: replays completed (effect verified)', value: share * 100, unit: '%', goal: '>= 95', met: share >= 0.95, note: `${count('completed')} of ${ran.length}` },
    { name: 'routines: replays stopped with a reason', value: count('stopped'), unit: 'replays' },
    { name: 'routines: drifts the bench could not set up (not counted)', value: cells.length - ran.length, unit: 'drifts' },
    { name: 'routines: wrong actions (reported done, effect wrong)', value: count('wrong'), unit: 'replays', goal: '0', met: count('wrong') === 0 },
    { name: 'routines: model calls in all replays', value: modelCalls, unit: 'calls', goal: '0', met: modelCalls === 0 },
    ...[...new Set(cells.map((c) => c.routine))].flatMap((routine) => {
      const times = ran.filter((c) => c.routine === routine && c.outcome === 'completed').map((c) => c.ms);
      return times.length ? [{ name: `routines: ${routine}: a completed replay`, value: median(times), unit: 'ms', note: `p95 ${percentile(times, 95).toFixed(0)} ms, ${times.length} replays` }] : [];
    }),
    { name: 'recording: key → app reaction, no recording', value: median(overhead.off), unit: 'ms', note: `p95 ${percentile(overhead.off, 95).toFixed(1)} ms, ${overhead.off.length} keys (xdotool's start included)` },
    { name: 'recording: key → app reaction, recording under way', value: median(overhead.on), unit: 'ms', note: `p95 ${percentile(overhead.on, 95).toFixed(1)} ms, ${overhead.on.length} keys, same run, taking turns` },
    { name: 'recording: latency added for the person (medians)', value: addedMs, unit: 'ms' },
    { name: 'recording: anchoring after a click', value: median(anchoring.click), unit: 'ms', note: `p95 ${percentile(anchoring.click, 95).toFixed(0)} ms, max ${Math.max(...anchoring.click).toFixed(0)} ms, ${anchoring.click.length} clicks of the ${ROUTINE_SCENES.length} recordings` },
    { name: 'recording: anchoring after a key', value: median([...anchoring.key, ...overhead.anchorMs]), unit: 'ms', note: `p95 ${percentile([...anchoring.key, ...overhead.anchorMs], 95).toFixed(0)} ms, ${anchoring.key.length + overhead.anchorMs.length} keys` },
    { name: 'routines: bench run time', value: totalMs / 1000, unit: 's' },
  );
  return rows;
}

/** A small window that stays above the app (a sticky note), placed over one of its corners. */
export async function openCover(display: NodeJS.ProcessEnv, at: Placement): Promise<{ close(): Promise<void>; windowId: string }> {
  const script = [
    'import tkinter as tk',
    "root = tk.Tk(className='GaiNote')",
    "root.title('Sticky note')",
    `root.geometry('${at.width}x${at.height}+${at.x}+${at.y}')`,
    "root.attributes('-topmost', True)",
    "tk.Label(root, text='Call Ada at 3', bg='#fff59d', font=('DejaVu Sans', 14)).pack(fill='both', expand=True)",
    'root.mainloop()',
  ].join('\n');
  const child: ChildProcess = spawn(FIXTURE_PYTHON, ['-c', script], { env: display, stdio: 'ignore' });
  try {
    const windowId = await windowOfClass(child, 'GaiNote', display);
    await placeWindow(windowId, at, display);
    return { windowId, close: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** A Tk window's id by its WM_CLASS (Tk sets no _NET_WM_PID, so waitForWindow cannot find it). */
export async function windowOfClass(child: ChildProcess, className: string, display: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<string> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await delay(100)) {
    if (child.exitCode !== null) throw new Error(`the ${className} window's program exited (${child.exitCode})`);
    const ids = await run('xdotool', ['search', '--onlyvisible', '--class', className], display).catch(() => '');
    const id = ids.split('\n').map((line) => line.trim()).find((line) => line !== '');
    if (id !== undefined) return id;
  }
  throw new Error(`no ${className} window within ${timeoutMs} ms`);
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
