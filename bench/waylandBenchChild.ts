// Runs inside the bench's private X display (benchChild.ts) and starts a headless sway (as the
// set-up's unprivileged user) and a headless GNOME Shell beside it: the same two real GTK 3 apps
// on each desktop, side by side (galculator, mousepad with code; native Wayland clients on
// Wayland), every unique label of their buttons and menu bars clicked by text through the real
// click tool, landing judged against the toolkit's own tree read independently (atspiTruth.py; on
// Wayland its window-relative boxes are moved by the window's place: sway's tree, or on GNOME
// Shell the window's buffer box asked of the shell itself, through Eval, which the bench unlocks
// by typing into the shell's Looking Glass as a developer would), and full-screen captures timed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BBox } from '../src/common/geometry';
import { createDesktopServices } from '../src/desktop/desktopServices';
import type { InputPort } from '../src/desktop/ports/inputPort';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { SwayIpc, swayViews } from '../src/platform/linux/wayland/swayIpc';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { placeWindow, startProcess, stopProcess, waitForWindow, type StartedProcess } from '../test/desktop/support/realApps/appWindow';
import { CODE_SAMPLE } from '../test/desktop/support/realApps/atspiApps';
import { FIXTURE_PYTHON } from '../test/desktop/support/fixture';
import { startSway, type SwayDisplay } from '../test/desktop/support/swayDisplay';
import { startGnome } from '../test/desktop/support/gnomeDisplay';
import { median, percentile, type BenchRow } from './benchReport';

const SIZE = { width: 1920, height: 1080 };
const TRUTH = join(__dirname, '..', 'test', 'desktop', 'support', 'realApps', 'atspiTruth.py');
const CAPTURES = 10;
/** The second pass waits this long before each click (not timed), as between an agent's steps. */
const PAUSE_MS = 1_000;
/** Roles a person clicks by name here; not the menu items that would quit or open dialogs. */
const CLICKABLE = new Set(['push button', 'toggle button', 'menu']);
/** Where each window's surface is, by pid, asked of GNOME Shell (Eval, in its unsafe mode). */
const SHELL_WINDOWS = String.raw`
import json, sys
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
code = 'JSON.stringify(global.get_window_actors().map(a => { const w = a.meta_window, b = w.get_buffer_rect(); return [w.get_pid(), b.x, b.y]; }))'
ok, out = bus.call_sync('org.gnome.Shell', '/org/gnome/Shell', 'org.gnome.Shell', 'Eval', GLib.Variant('(s)', (code,)), None, 0, 5000, None).unpack()
# Eval answers the value JSON-encoded: here a string that holds the JSON.
print(json.loads(out) if ok else 'null')
`;

/** The Wayland desktop measured, if any: where its windows are comes from it. */
type Wayland = { kind: 'sway'; sway: SwayDisplay } | { kind: 'gnome' } | undefined;

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
    wayland = await measure('Wayland (sway, headless)', sway.env, { kind: 'sway', sway });
  } finally {
    await sway.stop();
  }
  const shell = await startGnome('gnome-shell', 30_000, SIZE);
  let gnome: Outcome;
  try {
    gnome = await measure('Wayland (GNOME Shell 43, headless)', shell.env, { kind: 'gnome' });
  } finally {
    await shell.stop();
  }
  const rows: BenchRow[] = [{ name: 'wayland: machine load (1 min average at start)', value: load, unit: '' }];
  for (const o of [x11, wayland, gnome]) {
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
  const gnomeRatio = median(gnome.times) / median(x11.times);
  rows.push({ name: 'wayland: click by text, GNOME median / X11 median', value: gnomeRatio, unit: 'x', goal: '< 1.5', met: gnomeRatio < 1.5, note: 'clicks back to back' });
  const gnomePaused = median(gnome.pausedTimes) / median(x11.pausedTimes);
  rows.push({ name: `wayland: the same on GNOME, ${PAUSE_MS / 1000} s after the last action`, value: gnomePaused, unit: 'x', goal: '< 1.5', met: gnomePaused < 1.5 });
  rows.push({ name: 'wayland: misclicks on GNOME', value: gnome.misclicked, unit: '', goal: '0', met: gnome.misclicked === 0 });
  process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
}

async function measure(desktop: string, env: NodeJS.ProcessEnv, wayland: Wayland): Promise<Outcome> {
  const home = mkdtempSync(join(tmpdir(), 'gai-wl-bench-'));
  const file = join(home, 'settingsLoader.ts');
  writeFileSync(file, CODE_SAMPLE);
  const appEnv: NodeJS.ProcessEnv = { ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GSETTINGS_BACKEND: 'memory', ...(wayland ? { GDK_BACKEND: 'wayland' } : {}) };
  delete appEnv.NO_AT_BRIDGE;
  const apps: Array<{ name: string; process: StartedProcess }> = [];
  const desktopPorts = createPlatformDesktop({ env });
  const profile = process.env.GAI_BENCH_DETAIL ? profiled(desktopPorts as unknown as Record<string, Record<string, unknown>>) : undefined;
  const services = createDesktopServices(desktopPorts);
  try {
    if (wayland?.kind === 'gnome') {
      // GNOME Shell starts in its overview: left with Escape, as a person would (after the truth's unlock).
      await new Promise((r) => setTimeout(r, 1_500));
      await unlockShellEval(desktopPorts.input);
      await desktopPorts.input.pressKey({ modifiers: [], key: 'escape' });
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const options = { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] as Array<'ignore' | 'pipe'> };
    for (const [i, name] of ['galculator', 'mousepad'].entries()) {
      const app = { name, process: name === 'mousepad' ? startProcess('mousepad', [file], options) : startProcess('galculator', [], options) };
      apps.push(app);
      // sway tiles the two side by side; GNOME Shell does with Super+Left/Right; on X11 they are placed so.
      if (wayland?.kind === 'sway') await waitForSwayWindow(wayland.sway, app.process);
      else if (wayland?.kind === 'gnome') {
        await waitForTree(app.process, appEnv);
        await new Promise((r) => setTimeout(r, 500));
        await desktopPorts.input.pressKey({ modifiers: ['super'], key: i === 0 ? 'left' : 'right' });
      } else await placeWindow(await waitForWindow(app.process, appEnv, app.name), { x: i * 960, y: 0, width: 950, height: 1040 }, appEnv);
    }
    await new Promise((r) => setTimeout(r, 1500)); // the trees and first frames settle
    const labels = await groundTruth(apps, appEnv, wayland);
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
          outcome.failures.push(`${label.app} "${label.text}": ${result.code} (${result.observation})`);
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
async function groundTruth(apps: Array<{ name: string; process: StartedProcess }>, env: NodeJS.ProcessEnv, wayland: Wayland): Promise<Label[]> {
  const all: Label[] = [];
  const views = wayland?.kind === 'sway' ? swayViews(await new SwayIpc(wayland.sway.swaySocket).tree()) : [];
  const shell = wayland?.kind === 'gnome' ? (JSON.parse(execFileSync(FIXTURE_PYTHON, ['-c', SHELL_WINDOWS], { env, encoding: 'utf8', timeout: 10_000 })) as Array<[number, number, number]> | null) : undefined;
  if (wayland?.kind === 'gnome' && !shell) throw new Error('GNOME Shell refused Eval: its unsafe mode is off');
  for (const app of apps) {
    const reply = truthOf(app.process, env);
    // On Wayland the toolkit's boxes are relative to its window: moved by the window's client box
    // (on GNOME, the screen half it was tiled to: a tiled GTK window draws no shadow margin).
    const view = views.find((v) => v.pid === app.process.child.pid);
    const surface = shell?.find(([pid]) => pid === app.process.child.pid);
    if (wayland?.kind === 'gnome' && !surface) throw new Error(`GNOME Shell knows no window of ${app.name} (pid ${app.process.child.pid})`);
    const dx = view ? view.rect.x + (view.window_rect?.x ?? 0) : (surface?.[1] ?? 0);
    const dy = view ? view.rect.y + (view.window_rect?.y ?? 0) : (surface?.[2] ?? 0);
    for (const e of reply.elements ?? []) {
      if (!CLICKABLE.has(e.role) || !e.name.trim() || /quit|close/i.test(e.name)) continue;
      all.push({ text: e.name.trim(), app: app.name, box: { x: e.box[0] + dx, y: e.box[1] + dy, width: e.box[2], height: e.box[3] } });
    }
  }
  const count = new Map<string, number>();
  for (const l of all) count.set(l.text.toLowerCase(), (count.get(l.text.toLowerCase()) ?? 0) + 1);
  return all.filter((l) => count.get(l.text.toLowerCase()) === 1);
}

/**
 * The shell's own account of its windows is the bench's truth; GNOME Shell answers Eval only in
 * unsafe mode, which its Looking Glass (Alt+F2, "lg") can switch on.
 */
async function unlockShellEval(input: InputPort): Promise<void> {
  await input.pressKey({ modifiers: ['alt'], key: 'f2' });
  await new Promise((r) => setTimeout(r, 1_000));
  await input.typeText('lg\n', 20);
  await new Promise((r) => setTimeout(r, 1_500));
  await input.typeText('global.context.unsafe_mode = true\n', 10);
  await new Promise((r) => setTimeout(r, 500));
  await input.pressKey({ modifiers: [], key: 'escape' });
  await new Promise((r) => setTimeout(r, 500));
}

function truthOf(process: StartedProcess, env: NodeJS.ProcessEnv): { elements?: Array<{ name: string; role: string; box: [number, number, number, number] }> } {
  return JSON.parse(execFileSync(FIXTURE_PYTHON, [TRUTH, String(process.child.pid)], { env, encoding: 'utf8', timeout: 30_000 })) as ReturnType<typeof truthOf>;
}

/** Until the app's window is in the accessibility tree (GNOME says nothing else of windows). */
async function waitForTree(process: StartedProcess, env: NodeJS.ProcessEnv): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(truthOf(process, env).elements ?? []).some((e) => e.role === 'menu')) {
    if (Date.now() > deadline) throw new Error(`no window of pid ${process.child.pid} in the tree: ${process.stderr().slice(-300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
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
