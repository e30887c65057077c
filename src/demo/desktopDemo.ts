import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ToolResult } from '../tools/toolTypes';
import type { GaiStack } from '../app/gaiStack';
import type { DesktopServices } from '../desktop/desktopServices';
import type { Annotation } from '../desktop/ports/imageCodec';
import { demoAppScript, desktopEntry, waitForEvent, type AppEvent } from './demoApp';

export interface DemoOptions {
  /** Where the annotated screenshot goes. */
  outDir: string;
  write: (line: string) => void;
  /** GAI's assembly on the desktop of `env` (launched apps find the demo app's desktop entry there). */
  open: (env: NodeJS.ProcessEnv) => GaiStack;
}

export interface DemoOutcome {
  passed: number;
  failed: number;
  screenshot?: string;
}

/**
 * The demo of `npm start`, on the display in DISPLAY: the demo app launched by name, the
 * screen read by OCR, buttons clicked by their text, a field typed into, every step checked
 * in the app's own log, and an annotated screenshot written to a file.
 */
export async function runDesktopDemo(options: DemoOptions): Promise<DemoOutcome> {
  const say = options.write;
  const work = mkdtempSync(join(tmpdir(), 'gai-demo-'));
  const log = join(work, 'app.jsonl');
  const env = { ...process.env, XDG_DATA_HOME: join(work, 'data') };
  mkdirSync(join(work, 'data', 'applications'), { recursive: true });
  writeFileSync(join(work, 'data', 'applications', 'gai-demo.desktop'), desktopEntry('GAI Demo', ['python3', demoAppScript(), '--log', log, '--title', 'GAI Demo']));

  const stack = options.open(env);
  // A script's actions: approved up front by running the demo, under the same guards as an agent's.
  const { runtime } = stack.runtime({ kind: 'agent', profile: 'full', approvedUpFront: true, navigation: 'none' });
  const services = stack.desktop;
  const clicks: Annotation['points'] = [];
  const outcome: DemoOutcome = { passed: 0, failed: 0 };
  const check = (ok: boolean, what: string): void => {
    if (ok) outcome.passed++;
    else outcome.failed++;
    say(`  ${ok ? '✓' : '✗'} ${what}`);
  };
  let step = 0;
  const run = async (name: string, input: unknown): Promise<ToolResult> => {
    const { result } = await runtime.executeWithRecovery({ id: `demo_${++step}`, name, input }, new AbortController().signal);
    say(`→ ${name} ${JSON.stringify(input)}\n  ${result.success ? '' : `${result.code}: `}${result.observation} (${result.durationMs.toFixed(0)} ms)`);
    const point = (result.data as { point?: { x: number; y: number } } | undefined)?.point;
    if (result.success && point) clicks.push({ ...point, label: String(step) });
    return result;
  };
  const arrived = async (predicate: (e: AppEvent) => boolean): Promise<boolean> => (await waitForEvent(log, predicate)) !== undefined;

  try {
    const launched = await run('launch_app', { appName: 'GAI Demo' });
    check(launched.success && (await arrived((e) => e.event === 'ready')), 'the demo app started by name and its window is active');

    const read = await run('ocr', { captureScreen: true, level: 'words', maxElements: 2_000 });
    const words = ((read.data as { elements?: Array<{ text: string; bbox: { x: number; y: number; width: number; height: number } }> }).elements ?? []);
    const labels = ['Save', 'Cancel', 'Apply', 'OK', 'Name', 'Email'];
    const seen = labels.filter((l) => words.some((w) => w.text.toLowerCase() === l.toLowerCase()));
    check(seen.length === labels.length, `OCR read ${words.length} words, among them ${seen.join(', ')}`);

    await run('click', { text: 'Save' });
    check(await arrived((e) => e.event === 'click' && e.widget === 'save_button'), 'the app received a click on Save');

    const ambiguous = await run('click', { text: 'OK' });
    const candidates = ((ambiguous.data as { candidates?: unknown[] } | undefined)?.candidates ?? []).length;
    check(!ambiguous.success && candidates === 2, `"OK" is on the screen twice: the candidates were listed (${candidates}), nothing was clicked`);
    await run('click', { text: 'OK', near: 'Right panel' });
    check(await arrived((e) => e.event === 'click' && e.widget === 'right_ok_button'), 'the OK in the right panel was clicked');

    const name = words.find((w) => w.text.toLowerCase().startsWith('name'));
    if (name) await run('click', { x: name.bbox.x + name.bbox.width + 120, y: Math.round(name.bbox.y + name.bbox.height / 2) });
    const text = 'Hello, World! café';
    await run('type_text', { text, delay: 20 });
    check(await arrived((e) => e.event === 'text' && e.widget === 'name_entry' && e.value === text), `the Name field holds exactly "${text}"`);

    await run('press_key', { key: 'tab' });
    check(await arrived((e) => e.event === 'focus' && e.widget === 'email_entry'), 'Tab moved the focus to Email');

    outcome.screenshot = await annotatedScreenshot(services, clicks, options.outDir);
    say(`\nAnnotated screenshot (OCR boxes in blue, clicks in red): ${outcome.screenshot}`);
  } finally {
    await stack.dispose();
    // The demo app goes with the demo (on a real desktop it would otherwise stay open).
    const ready = (await waitForEvent(log, (e) => e.event === 'ready', 0)) as { pid?: number } | undefined;
    if (ready?.pid) killQuietly(ready.pid);
  }
  say(`Demo: ${outcome.passed} of ${outcome.passed + outcome.failed} checks passed.`);
  return outcome;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function annotatedScreenshot(services: DesktopServices, points: Annotation['points'], outDir: string): Promise<string> {
  services.reader.reset();
  const reading = await services.reader.read();
  const boxes = reading.analysis.elements.filter((e) => e.level === 'word').map((e) => ({ ...e.bbox }));
  const image = await services.desktop.images.annotate(reading.image, { boxes, points }, 'png');
  mkdirSync(outDir, { recursive: true });
  const path = resolve(outDir, `gai-demo-${new Date().toISOString().replace(/[:.]/g, '-')}.png`);
  writeFileSync(path, image.data);
  return path;
}
