// Runs inside the bench's private X display (benchChild.ts) and starts a headless sway beside it
// (as the set-up's unprivileged user): the same two real GTK 3 apps on each desktop, side by
// side (galculator, mousepad with code; native Wayland clients on sway), every unique label of
// their buttons and menu bars clicked by text through the real click tool, landing judged against
// the toolkit's own tree read independently (atspiTruth.py; on sway its window-relative boxes are
// moved by the window's place in sway's tree), and full-screen captures timed (nut-js on X11,
// grim on sway).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BBox } from '../src/common/geometry';
import { createDesktopServices } from '../src/desktop/desktopServices';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { SwayIpc, swayViews } from '../src/platform/linux/wayland/swayIpc';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { placeWindow, startProcess, stopProcess, waitForWindow, type StartedProcess } from '../test/desktop/support/realApps/appWindow';
import { CODE_SAMPLE } from '../test/desktop/support/realApps/atspiApps';
import { FIXTURE_PYTHON } from '../test/desktop/support/fixture';
import { startSway, type SwayDisplay } from '../test/desktop/support/swayDisplay';
import { median, percentile, type BenchRow } from './benchReport';

const SIZE = { width: 1920, height: 1080 };
const TRUTH = join(__dirname, '..', 'test', 'desktop', 'support', 'realApps', 'atspiTruth.py');
const CAPTURES = 10;
/** The second pass waits this long before each click (not timed), as between an agent's steps. */
const PAUSE_MS = 1_000;
/** Roles a person clicks by name here; not the menu items that would quit or open dialogs. */
const CLICKABLE = new Set(['push button', 'toggle button', 'menu']);

interface Label {
  text: string;
  box: BBox;
  app: string;
}

interface Outcome {
  desktop: string;
  times: number[];
  /** The same labels again, each after PAUSE_MS with nothing happening. */
  pausedTimes: number[];
  landed: number;
  misclicked: number;
  missed: number;
  captures: number[];
  labels: number;
  failures: string[];
}

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const x11 = await measure('X11 (Xvfb + openbox)', process.env, undefined);
  const sway = await startSway(20_000, SIZE);
  let wayland: Outcome;
  try {
    wayland = await measure('Wayland (sway, headless)', sway.env, sway);
  } finally {
    await sway.stop();
  }
  const rows: BenchRow[] = [{ name: 'wayland: machine load (1 min average at start)', value: load, unit: '' }];
  for (const o of [x11, wayland]) {
    if (o.failures.length) console.error(`wayland bench, ${o.desktop}: ${o.failures.join('; ')}`);
    rows.push(
      { name: `wayland: click by text, ${o.desktop}, median`, value: median(o.times), unit: 'ms', note: `p95 ${percentile(o.times, 95).toFixed(0)} ms, ${o.labels} labels of galculator and mousepad` },
      { name: `wayland: click by text, ${o.desktop}, ${PAUSE_MS / 1000} s after the last action, median`, value: median(o.pausedTimes), unit: 'ms', note: `p95 ${percentile(o.pausedTimes, 95).toFixed(0)} ms` },
      { name: `wayland: labels clicked on target, ${o.desktop}`, value: (100 * o.landed) / (2 * o.labels), unit: '%', note: `both passes; ${o.misclicked} misclicks, ${o.missed} not clicked` },
      { name: `wayland: full-screen capture, ${o.desktop}, median`, value: median(o.captures), unit: 'ms', note: `${SIZE.width}x${SIZE.height}, ${CAPTURES} captures` },
    );
  }
  const ratio = median(wayland.times) / median(x11.times);
  rows.push({ name: 'wayland: click by text, sway median / X11 median', value: ratio, unit: 'x', goal: '< 1.5', met: ratio < 1.5, note: 'clicks back to back' });
  const paused = median(wayland.pausedTimes) / median(x11.pausedTimes);
  rows.push({ name: `wayland: the same, ${PAUSE_MS / 1000} s after the last action`, value: paused, unit: 'x', goal: '< 1.5', met: paused < 1.5 });
  rows.push({ name: 'wayland: misclicks on sway', value: wayland.misclicked, unit: '', goal: '0', met: wayland.misclicked === 0 });
  process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
}

async function measure(desktop: string, env: NodeJS.ProcessEnv, sway: SwayDisplay | undefined): Promise<Outcome> {
  const home = mkdtempSync(join(tmpdir(), 'gai-wl-bench-'));
  const file = join(home, 'settingsLoader.ts');
  writeFileSync(file, CODE_SAMPLE);
  const appEnv: NodeJS.ProcessEnv = { ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GSETTINGS_BACKEND: 'memory', ...(sway ? { GDK_BACKEND: 'wayland' } : {}) };
  delete appEnv.NO_AT_BRIDGE;
  const apps: Array<{ name: string; process: StartedProcess }> = [];
  const desktopPorts = createPlatformDesktop({ env });
  const profile = process.env.GAI_BENCH_DETAIL ? profiled(desktopPorts as unknown as Record<string, Record<string, unknown>>) : undefined;
  const services = createDesktopServices(desktopPorts);
  try {
    const options = { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] as Array<'ignore' | 'pipe'> };
    apps.push({ name: 'galculator', process: startProcess('galculator', [], options) });
    apps.push({ name: 'mousepad', process: startProcess('mousepad', [file], options) });
    for (const [i, app] of apps.entries()) {
      // sway tiles the two side by side; on X11 they are placed so.
      if (sway) await waitForSwayWindow(sway, app.process);
      else await placeWindow(await waitForWindow(app.process, appEnv, app.name), { x: i * 960, y: 0, width: 950, height: 1040 }, appEnv);
    }
    await new Promise((r) => setTimeout(r, 1500)); // the trees and first frames settle
    const labels = await groundTruth(apps, appEnv, sway);
    const registry = new ToolRegistry();
    for (const tool of createDesktopTools(services)) registry.register(tool);
    const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
    const signal = new AbortController().signal;
    const outcome: Outcome = { desktop, times: [], pausedTimes: [], landed: 0, misclicked: 0, missed: 0, captures: [], labels: labels.length, failures: [] };
    // One click not timed: the OCR workers and the tree's first walk.
    await runtime.executeWithRecovery({ id: 'warm', name: 'click', input: { text: labels[0]!.text } }, signal);
    await services.desktop.input.pressKey({ modifiers: [], key: 'escape' });
    let n = 0;
    // Back to back, then each click after a pause: right after a click the apps answer their tree
    // slower on sway (they redraw under the compositor's frame pacing), which a pause hides.
    for (const [times, pause] of [[outcome.times, 0], [outcome.pausedTimes, PAUSE_MS]] as const) {
      for (const label of labels) {
        if (pause) await new Promise((r) => setTimeout(r, pause));
        const started = performance.now();
        const { result } = await runtime.executeWithRecovery({ id: `c${++n}`, name: 'click', input: { text: label.text } }, signal);
        times.push(performance.now() - started);
        const point = result.success ? (result.data as { point?: { x: number; y: number } }).point : undefined;
        if (!point) {
          outcome.missed++;
          outcome.failures.push(`${label.app} "${label.text}": ${result.code}`);
        } else if (within(point, label.box)) outcome.landed++;
        else {
          outcome.misclicked++;
          outcome.failures.push(`${label.app} "${label.text}" clicked at ${point.x},${point.y}, outside ${JSON.stringify(label.box)}`);
        }
        // A menu title opens its menu: closed again, as a person would.
        if (label.app === 'mousepad') await services.desktop.input.pressKey({ modifiers: [], key: 'escape' });
      }
    }
    if (profile) console.error(`${desktop}: ${[...profile].map(([k, v]) => `${k} ${v.calls}x ${v.ms.toFixed(0)} ms`).join(', ')}`);
    for (let i = 0; i < CAPTURES; i++) {
      const started = performance.now();
      await services.desktop.screen.grab();
      outcome.captures.push(performance.now() - started);
    }
    return outcome;
  } finally {
    for (const app of apps) await stopProcess(app.process.child);
    await desktopPorts.dispose?.();
    execFileSync('rm', ['-rf', home]);
  }
}

async function waitForSwayWindow(sway: SwayDisplay, process: StartedProcess): Promise<void> {
  const ipc = new SwayIpc(sway.swaySocket);
  const deadline = Date.now() + 30_000;
  while (!swayViews(await ipc.tree()).some((v) => v.pid === process.child.pid)) {
    if (Date.now() > deadline) throw new Error(`no sway window of pid ${process.child.pid}: ${process.stderr().slice(-300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Unique names of both apps' buttons and menu titles, with their boxes on the screen. */
async function groundTruth(apps: Array<{ name: string; process: StartedProcess }>, env: NodeJS.ProcessEnv, sway: SwayDisplay | undefined): Promise<Label[]> {
  const all: Label[] = [];
  const views = sway ? swayViews(await new SwayIpc(sway.swaySocket).tree()) : [];
  for (const app of apps) {
    const reply = JSON.parse(execFileSync(FIXTURE_PYTHON, [TRUTH, String(app.process.child.pid)], { env, encoding: 'utf8', timeout: 30_000 })) as {
      elements?: Array<{ name: string; role: string; box: [number, number, number, number] }>;
    };
    // On Wayland the toolkit's boxes are relative to its window: moved by the window's client box.
    const view = views.find((v) => v.pid === app.process.child.pid);
    const dx = view ? view.rect.x + (view.window_rect?.x ?? 0) : 0;
    const dy = view ? view.rect.y + (view.window_rect?.y ?? 0) : 0;
    for (const e of reply.elements ?? []) {
      if (!CLICKABLE.has(e.role) || !e.name.trim() || /quit|close/i.test(e.name)) continue;
      all.push({ text: e.name.trim(), app: app.name, box: { x: e.box[0] + dx, y: e.box[1] + dy, width: e.box[2], height: e.box[3] } });
    }
  }
  const count = new Map<string, number>();
  for (const l of all) count.set(l.text.toLowerCase(), (count.get(l.text.toLowerCase()) ?? 0) + 1);
  return all.filter((l) => count.get(l.text.toLowerCase()) === 1);
}

/** GAI_BENCH_DETAIL=1: how often each port is asked during the clicks, and how long it takes. */
function profiled(desktop: Record<string, Record<string, unknown>>): Map<string, { calls: number; ms: number }> {
  const totals = new Map<string, { calls: number; ms: number }>();
  for (const port of ['screen', 'windows', 'accessibility', 'input']) {
    const target = desktop[port];
    if (!target) continue;
    for (const method of ['grab', 'size', 'activeWindow', 'activeWindowId', 'listWindows', 'listPopups', 'elements', 'textBoxes', 'focusedElement', 'treeDigest', 'click', 'move', 'position']) {
      const original = target[method];
      if (typeof original !== 'function') continue;
      target[method] = async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (original as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          const read = port === 'accessibility' && method === 'elements' ? (target as { lastRead?: { windows: number; cached: number } }).lastRead : undefined;
          const key = `${port}.${method}${read ? (read.cached < read.windows ? ' walked' : ' cached') : ''}`;
          const entry = totals.get(key) ?? { calls: 0, ms: 0 };
          entry.calls++;
          entry.ms += performance.now() - started;
          totals.set(key, entry);
        }
      };
    }
  }
  return totals;
}

function within(point: { x: number; y: number }, box: BBox): boolean {
  return point.x >= box.x && point.x < box.x + box.width && point.y >= box.y && point.y < box.y + box.height;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
