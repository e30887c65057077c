// Runs inside the bench's private 1920x1080 display (started by busyDesktopBench.ts): a busy
// desktop of real applications of every toolkit (busyDesktopScene.ts: our pages in chromium and
// Firefox, mousepad with code, LibreOffice Writer with a memo, galculator, speedcrunch,
// gnome-calculator), warm click by text through the real click tool on labels of every app in
// turn (real clicks on harmless targets), the same with the tree off (OCR only), a full-screen
// read, and one plain full-screen pass of the native tesseract CLI for comparison.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { NativeTesseractOcr } from '../src/platform/ocr/nativeTesseractOcr';
import { createPlatformDesktop } from '../src/platform/platformDesktop';
import { TesseractJsOcr } from '../src/platform/ocr/tesseractJsOcr';
import { createDesktopServices } from '../src/desktop/desktopServices';
import { warmUpDesktop } from '../src/desktop/warmUp';
import { LayeredOcr } from '../src/desktop/ocr/layeredOcr';
import { TargetLocator } from '../src/desktop/grounding/targetLocator';
import type { AccessibilityPort } from '../src/desktop/ports/accessibilityPort';
import type { ScreenImage } from '../src/desktop/ports/screenPort';
import { changedRegions } from '../src/desktop/reading/screenDiff';
import { createDesktopTools } from '../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { activateWindow, startProcess, stopProcess, waitForWindow, type GroundTruthLabel } from '../test/desktop/support/realApps/appWindow';
import { CODE_SAMPLE } from '../test/desktop/support/realApps/atspiApps';
import { foldLabel, inside } from '../test/desktop/support/realApps/labelScore';
import { median, percentile, type BenchRow } from './benchReport';
import { startBenchScene, uncovered, type BenchAppName, type BenchScene } from './busyDesktopScene';
import { WRITER_MEMO } from './busyDesktopWriter';

/** Per app, at most this many labels; all apps in turn, so each click may be in another window. */
const PER_APP = 12;
const FULL_READS = 5;

interface Target {
  app: BenchAppName;
  label: GroundTruthLabel;
}

interface Clicked {
  point?: { x: number; y: number };
  /** Why nothing was clicked. */
  why?: string;
}

interface Pass {
  times: number[];
  /** Per click, in the targets' order. */
  outcomes: Array<'landed' | 'missed' | 'misclicked'>;
  landed: number;
  missed: number;
  misclicked: number;
  failures: string[];
}

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const tesseract = new TesseractJsOcr();
  // The terminal a person asks from (`gai click …`), in the gap under galculator: GAI looks past it.
  const terminal = startProcess('xterm', ['-geometry', '50x4+645+995', '-e', 'sh', '-c', "printf '$ gai click '; sleep 3600"], { env: process.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const terminalWindow = await waitForWindow(terminal, process.env, 'xterm');
  const services = createDesktopServices(createPlatformDesktop({ ocr: new LayeredOcr(tesseract) }), { asker: { pids: [terminal.child.pid ?? 0], windowIds: [] } });
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(services)) registry.register(tool);
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
  const signal = new AbortController().signal;
  const scene = await startBenchScene(process.env);
  try {
    // GAI_BENCH_SHOT=FILE: the scene as a person sees it, to check the layout.
    if (process.env.GAI_BENCH_SHOT) writeFileSync(process.env.GAI_BENCH_SHOT, (await services.desktop.images.encode(await services.desktop.screen.grab(), 'png')).data);
    const targets = await harmlessTargets(scene);
    if (targets.length < 30) throw new Error(`only ${targets.length} harmless unique labels on the busy desktop`);
    let n = 0;
    const viaTool = async (text: string): Promise<Clicked> => {
      const { result } = await runtime.executeWithRecovery({ id: `b${++n}`, name: 'click', input: { text } }, signal);
      return result.success ? { point: (result.data as { point: { x: number; y: number } }).point } : { why: `${result.code}: ${result.error ?? ''}`.slice(0, 160) };
    };
    const coldStart = performance.now();
    await viaTool(targets[0]!.label.text);
    const cold = performance.now() - coldStart;
    // Then what the extension and the daemon start before their first request (the OCR workers,
    // which that first label, answered by the tree, did not need): the passes time warm clicks.
    await warmUpDesktop(services.desktop);
    // Where a click's time goes: the locator's share (the rest is the runtime, the guarded input
    // and the click itself) and its path.
    let locateMs = 0;
    const locate = services.locator.locate.bind(services.locator);
    services.locator.locate = async (...args) => {
      const t = performance.now();
      try {
        return await locate(...args);
      } finally {
        locateMs = performance.now() - t;
      }
    };
    // And each window reading's kind and time (cached, partial or full OCR).
    const readings: string[] = [];
    const readWindow = services.reader.readWindow.bind(services.reader);
    const lastPixels = new Map<string, ScreenImage>();
    services.reader.readWindow = async (...args) => {
      const reading = await readWindow(...args);
      let changed = '';
      if (process.env.GAI_BENCH_DIFF && reading.ocr === 'full') {
        const now = await services.desktop.screen.grab(reading.bounds);
        const before = lastPixels.get(reading.window.title);
        if (before && before.width === now.width && before.height === now.height) changed = JSON.stringify(changedRegions(before, now).map((r) => [r.x, r.y, r.width, r.height]));
        lastPixels.set(reading.window.title, now);
      }
      readings.push(`${reading.window.title.slice(0, 12)}:${reading.ocr}:${reading.ocrMs.toFixed(0)}${changed}`);
      return reading;
    };
    const tree = services.desktop.accessibility as ({ lastRead?: { windows: number; cached: number; visited: number; walked?: string[] } } & AccessibilityPort) | undefined;
    // And each tree read: which windows, fresh or not, how many walks came from the cache.
    if (tree) {
      const elements = tree.elements.bind(tree);
      tree.elements = async (options) => {
        const t = performance.now();
        const out = await elements(options);
        const read = tree.lastRead;
        const fresh = (options as { fresh?: unknown } | undefined)?.fresh ? '-fresh' : '';
        readings.push(`tree-${options?.activeWindowOnly === false ? 'all' : 'active'}${fresh}:${read ? `${read.cached}/${read.windows}` : '?'}:${(performance.now() - t).toFixed(0)}${read?.walked?.length ? `(${read.walked.join(', ')})` : ''}`);
        return out;
      };
    }
    const traced = (): string => {
      const line = `locate ${locateMs.toFixed(0).padStart(4)} ms: ${describeTrace(services.locator.lastTrace)} [${readings.join(' ')}]`;
      readings.length = 0;
      return line;
    };
    const withTree = await clickAll(targets, viaTool, scene, undefined, traced);
    // GAI_BENCH_QUICK=1: that pass alone, to profile while changing the code.
    if (process.env.GAI_BENCH_QUICK) {
      process.stdout.write(`BENCH_ROWS ${JSON.stringify([...passRows('click tool (tree + OCR)', withTree, targets.length, NaN, ''), ...appRows('click tool', withTree, targets)])}\n`);
      return;
    }
    // The same labels again: each window's pixels were read once while it was active, so the
    // locator knows which trees hold what their windows show (the steady state of a session).
    const again = await clickAll(targets, viaTool, scene, undefined, traced);
    // The same with the target's window made active first (not timed): a person looking at that app.
    const focused = await clickAll(targets, viaTool, scene, (app) => activateWindow(scene.windows[app], process.env), traced);
    // Asked from the terminal: it is the active window at each click (made so, not timed), as for a person typing `gai click`.
    const asked = await clickAll(targets, viaTool, scene, () => activateWindow(terminalWindow, process.env), traced);

    const ocrOnly = new TargetLocator(services);
    const viaOcr = async (text: string): Promise<Clicked> => {
      const found = await ocrOnly.locate(text, { accessibility: false });
      if (found.status !== 'found') return { why: found.status };
      await services.desktop.input.click(found.point, 'left', false);
      return { point: found.point };
    };
    const withoutTree = await clickAll(targets, viaOcr, scene);

    const reads: number[] = [];
    for (let i = 0; i < FULL_READS; i++) {
      services.reader.reset();
      const t = performance.now();
      await services.reader.read();
      reads.push(performance.now() - t);
    }
    const frame = await services.desktop.screen.grab();
    const native = new NativeTesseractOcr();
    const nativeStart = performance.now();
    const nativeRead = await native.recognize(frame);
    const nativeMs = performance.now() - nativeStart;
    const nativeFound = targets.filter((t) => nativeRead.fullText.toLowerCase().includes(foldLabel(t.label.text))).length;

    const apps = [...new Set(targets.map((t) => t.app))].map((app) => `${app} ${targets.filter((t) => t.app === app).length}`).join(', ');
    const perApp = (what: string, pass: Pass): BenchRow[] => appRows(what, pass, targets);
    const rows: BenchRow[] = [
      { name: 'busy: machine load (1 min average at start)', value: load, unit: '' },
      { name: 'busy: click by text, cold (first call of a process)', value: cold, unit: 'ms', note: 'OCR workers and tree start' },
      ...passRows('click tool (tree + OCR)', withTree, targets.length, nativeMs, apps),
      ...perApp('click tool', withTree),
      ...passRows('click tool, second round', again, targets.length, nativeMs, apps),
      ...passRows("click tool, target's window active", focused, targets.length, nativeMs, apps),
      ...perApp("window active", focused),
      ...passRows('click tool, asked from the active terminal', asked, targets.length, nativeMs, apps),
      ...passRows('OCR only (tree off)', withoutTree, targets.length, nativeMs, apps),
      ...perApp('OCR only', withoutTree),
      { name: 'busy: full-screen read (ScreenReader.read after reset)', value: median(reads), unit: 'ms', note: `p95 ${percentile(reads, 95).toFixed(0)} ms, ${FULL_READS} reads` },
      {
        name: 'busy: one plain full-screen pass, native tesseract CLI',
        value: nativeMs,
        unit: 'ms',
        note: `process + model load included; ${nativeFound}/${targets.length} of the labels in its text`,
      },
    ];
    process.stdout.write(`BENCH_ROWS ${JSON.stringify(rows)}\n`);
  } finally {
    await scene.stop().catch((error: unknown) => console.error(error));
    await stopProcess(terminal.child);
    await services.desktop.ocr.dispose();
  }
}

function passRows(what: string, pass: Pass, count: number, nativeMs: number, apps: string): BenchRow[] {
  const warm = median(pass.times);
  const p95 = percentile(pass.times, 95);
  const share = (100 * pass.landed) / count;
  if (pass.failures.length > 0) console.error(`busy bench, ${what}: ${pass.failures.join('; ')}`);
  return [
    {
      name: `busy: warm click by text, ${what}, median`,
      value: warm,
      unit: 'ms',
      // The quick pass measures no CLI pass (NaN): its goal is the 100 ms alone.
      goal: Number.isNaN(nativeMs) ? '< 100' : `< 100 and < ${(nativeMs / 2).toFixed(0)} (half a CLI pass)`,
      met: warm < 100 && (Number.isNaN(nativeMs) || warm < nativeMs / 2),
      note: `over ${count} labels${apps ? ` (${apps})` : ''}`,
    },
    { name: `busy: warm click by text, ${what}, p95`, value: p95, unit: 'ms', goal: '< 300', met: p95 < 300 },
    { name: `busy: labels clicked on target, ${what}`, value: share, unit: '%', goal: '>= 98', met: share >= 98, note: `${pass.landed}/${count}; ${pass.missed} not clicked` },
    { name: `busy: misclicks, ${what}`, value: (100 * pass.misclicked) / count, unit: '%', goal: '< 0.5', met: (100 * pass.misclicked) / count < 0.5, note: `${pass.misclicked} of ${count}` },
  ];
}

/** One row per app: median and p95 click time, with what landed, missed and misclicked. */
function appRows(what: string, pass: Pass, targets: Target[]): BenchRow[] {
  return [...new Set(targets.map((t) => t.app))].map((app) => {
    const mine = targets.map((t, i) => (t.app === app ? i : -1)).filter((i) => i >= 0);
    const times = mine.map((i) => pass.times[i]!);
    const count = (o: Pass['outcomes'][number]): number => mine.filter((i) => pass.outcomes[i] === o).length;
    return {
      name: `busy: ${what}, ${app}, median`,
      value: median(times),
      unit: 'ms',
      note: `p95 ${percentile(times, 95).toFixed(0)} ms; ${mine.length} labels: landed ${count('landed')}, missed ${count('missed')}, misclicked ${count('misclicked')}`,
    };
  });
}

/** Clicks each target once, timed; judged by the ground-truth box (and chromium's own record). */
async function clickAll(targets: Target[], click: (text: string) => Promise<Clicked>, scene: BenchScene, before?: (app: BenchAppName) => Promise<void>, trace?: () => string): Promise<Pass> {
  const pass: Pass = { times: [], outcomes: [], landed: 0, missed: 0, misclicked: 0, failures: [] };
  await scene.chromium.takeClicks();
  for (const { app, label } of targets) {
    if (before) await before(app);
    await new Promise((r) => setTimeout(r, 120)); // let the last click's redraw finish (not timed)
    const started = performance.now();
    const { point, why } = await click(label.text);
    pass.times.push(performance.now() - started);
    // GAI_BENCH_DETAIL=1: one line a click (time and the locator's path), to see where time goes.
    if (process.env.GAI_BENCH_DETAIL && trace) console.error(`  ${app.padEnd(11)} ${(pass.times.at(-1) ?? 0).toFixed(0).padStart(5)} ms  ${trace()}  "${label.text}"`);
    let hits = app === 'chromium' ? await scene.chromium.waitForClicks(point ? 1500 : 200) : [];
    if (app === 'chromium' && point && hits.length === 0) {
      // A busy machine can hold chromium's input back: a click that arrives late still landed.
      hits = await scene.chromium.waitForClicks(3000);
      if (hits.length > 0) pass.failures.push(`late (>1.5 s) chromium "${label.text}" hit ${JSON.stringify(hits)}`);
    }
    if (point === undefined) {
      pass.missed++;
      pass.outcomes.push('missed');
      pass.failures.push(`missed ${app} "${label.text}" (${why ?? ''})`);
    } else if (inside(point, label.bbox) && (app !== 'chromium' || hits.includes(label.where))) {
      pass.landed++;
      pass.outcomes.push('landed');
    } else {
      pass.misclicked++;
      pass.outcomes.push('misclicked');
      pass.failures.push(`MISCLICK ${app} "${label.text}" at ${point.x},${point.y} (label ${JSON.stringify(label.bbox)})${app === 'chromium' ? ` hit ${JSON.stringify(hits)}; ${whereInputWent()}` : ''}`);
    }
  }
  return pass;
}

/**
 * Labels that are unique text on the whole busy screen, not under another window, and harmless
 * to click: the pages' elements (clicks there do nothing; chromium's page records them),
 * mousepad's code words and Writer's memo words (the caret moves), the calculators' keys (the
 * expression changes). Menus, and keys that open one, are left out: an open menu changes the
 * screen and takes the next click.
 */
async function harmlessTargets(scene: BenchScene): Promise<Target[]> {
  const page = (await scene.chromium.groundTruth()).filter((l) => l.where !== '');
  const mousepad = await scene.mousepad.groundTruth();
  const galculator = await scene.galculator.groundTruth();
  const speedcrunch = await scene.speedcrunch.groundTruth();
  const writer = await scene.writer.groundTruth();
  const firefox = await scene.firefox.groundTruth();
  const gnomeCalculator = await scene.gnomeCalculator.groundTruth();
  const everything = [...page, ...mousepad, ...galculator, ...speedcrunch, ...writer, ...firefox, ...gnomeCalculator];
  // Unique on the whole screen: in no other label, not even inside a longer one or the texts
  // ("and" in "Billing and plans", "/" in a regex): a speed bench, not a test of ambiguity.
  const texts = [...everything.map((l) => foldLabel(l.text)), foldLabel(CODE_SAMPLE), ...WRITER_MEMO.map(foldLabel)];
  const unique = (labels: GroundTruthLabel[]): GroundTruthLabel[] =>
    labels.filter((l) => {
      const text = foldLabel(l.text);
      return texts.filter((t) => t.includes(text)).length === (l.role === 'word' ? 2 : 1); // a word is in its text too
    });
  const candidates: Array<[BenchAppName, GroundTruthLabel[]]> = [
    ['chromium', page],
    ['mousepad', mousepad.filter((e) => e.role === 'word')],
    // MS and MR open a popup menu, whose grab swallows the next click wherever it goes.
    ['galculator', galculator.filter((e) => e.role === 'toggle button' && !['MS', 'MR'].includes(e.text))],
    ['speedcrunch', speedcrunch.filter((e) => e.role === 'push button')],
    ['writer', writer],
    ['firefox', firefox],
    // Its mode button opens a popover.
    ['gnome-calculator', gnomeCalculator.filter((e) => !['Basic', 'Undo'].includes(e.text))],
  ];
  const lists: Array<[BenchAppName, GroundTruthLabel[]]> = [];
  for (const [app, labels] of candidates) {
    const shown = await uncovered(scene, app, unique(labels), process.env);
    if (process.env.GAI_BENCH_DETAIL) console.error(`  ${app}: ${labels.length} labels, ${unique(labels).length} unique, ${shown.length} not under another window`);
    lists.push([app, spread(shown, PER_APP)]);
  }
  const out: Target[] = [];
  for (let i = 0; i < PER_APP; i++) {
    for (const [app, labels] of lists) {
      const label = labels[i];
      if (label) out.push({ app, label });
    }
  }
  return out;
}

/** Which window has the focus and lies under the pointer, to tell a lost click from a misplaced one. */
function whereInputWent(): string {
  try {
    const focus = execFileSync('xdotool', ['getwindowfocus', 'getwindowname'], { encoding: 'utf8', timeout: 2000 }).trim();
    const mouse = execFileSync('xdotool', ['getmouselocation', '--shell'], { encoding: 'utf8', timeout: 2000 }).replace(/\n/g, ' ').trim();
    return `focus "${focus}", pointer ${mouse}`;
  } catch (error) {
    return `xdotool: ${String(error).slice(0, 80)}`;
  }
}

function describeTrace(trace: TargetLocator['lastTrace']): string {
  return trace ? `${trace.steps.map((step, i) => `${step}@${trace.startedAt[i] ?? '?'}`).join(' > ')} ocr×${trace.ocrRuns}${trace.notes.length > 0 ? ` (${trace.notes.join('; ')})` : ''}` : '-';
}

/** `count` labels spread evenly over the list (not just the first rows). */
function spread(labels: GroundTruthLabel[], count: number): GroundTruthLabel[] {
  if (labels.length <= count) return labels;
  return Array.from({ length: count }, (_, i) => labels[Math.floor((i * labels.length) / count)]!);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
