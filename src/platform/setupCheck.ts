// A self-check of what GAI needs at run time and cannot bundle: the nut-js native module,
// sharp (libvips) and tesseract.js (worker script, wasm core, language data), each found from
// wherever node_modules is (a checkout, or the installed .vsix). It never touches the desktop:
// the display is reported, not used; running browsers are looked up in /proc, to say how to
// turn on a tree that is off. Behind the extension's API and `gai doctor`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScreenImage } from '../desktop/ports/screenPort';
import { SharpImages } from './images/sharpImages';
import { browsersWithoutTree, type BrowserTreeFinding } from './linux/browserTrees';
import { GTK2_FIX, gtk2AppsWithoutTree, type Gtk2TreeFinding } from './linux/gtk2Trees';
import { TesseractJsOcr } from './ocr/tesseractJsOcr';
import { describeSession, detectDisplaySession } from './linux/displaySession';
import { gnomeProblem } from './linux/gnome/gnomeReadiness';
import { kdeProblem } from './linux/kde/kdeReadiness';
import { unsupportedReason } from './linux/wayland/waylandDesktop';
import { platformSupport, type PlatformPart } from './platformSupport';
import { nutMissing } from './nut/nutLoader';
import { createMacPorts } from './macos/macDesktop';

type Sharp = (typeof import('sharp'))['default'];

export interface SetupCheck {
  ok: boolean;
  /** What was found, or why it failed. */
  detail: string;
  ms: number;
}

export interface SetupReport {
  /** nut-js, sharp and OCR all work (a missing display does not count against it). */
  ok: boolean;
  platform: string;
  node: string;
  nut: SetupCheck & { nativeModule?: string };
  sharp: SetupCheck & { versions?: Record<string, string> };
  ocr: SetupCheck & { text: string; expected: string; language: string };
  /**
   * The desktop tools need a display GAI can drive; the session is read from the environment,
   * nothing connects to it. kind: the session's, `none` when there is no display at all.
   */
  display: { ok: boolean; detail: string; kind: 'x11' | 'wayland' | 'none' | 'other' };
  /**
   * Running browsers and Electron apps whose accessibility tree is off (read from /proc): GAI
   * reads them by OCR only. A finding, not a failure: clicks still work, less surely.
   */
  browsers: { ok: boolean; detail: string; findings: BrowserTreeFinding[] };
  /** Running GTK 2 apps without the accessibility modules (read from /proc): likewise OCR only. */
  gtk2: { ok: boolean; detail: string; findings: Gtk2TreeFinding[] };
  /** This platform's parts and what checks each (CI on real desktops, a scripted helper, nothing). */
  support: PlatformPart[];
  /** macOS: the Accessibility and Screen Recording permissions of the app GAI runs in, and the panes to open. */
  permissions?: { ok: boolean; detail: string; panes: string[] };
}

export interface SetupCheckOptions {
  /** Tesseract language(s) to load; default `eng`. The sample is English either way. */
  language?: string;
}

/** The text rendered by sharp and read back by tesseract.js. */
export const SETUP_SAMPLE_TEXT = 'GAI 2+2';

const SAMPLE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="360" height="100">' +
  '<rect width="100%" height="100%" fill="white"/>' +
  // Monospace at screen size: sans-serif capital I reads as l at some sizes.
  `<text x="24" y="62" font-family="monospace" font-size="32" fill="black">${SETUP_SAMPLE_TEXT}</text>` +
  '</svg>';

export async function checkSetup(options: SetupCheckOptions = {}): Promise<SetupReport> {
  const language = options.language ?? 'eng';
  const nut = await timed(checkNut);
  const sharp = await timed(checkSharp);
  const ocr = await checkOcr(sharp.image, language);
  return {
    ok: nut.ok && sharp.ok && ocr.ok,
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
    nut,
    sharp: { ok: sharp.ok, detail: sharp.detail, ms: sharp.ms, versions: sharp.versions },
    ocr,
    display: checkDisplay(),
    browsers: checkBrowsers(),
    gtk2: checkGtk2(),
    support: platformSupport(),
    ...(process.platform === 'darwin' ? { permissions: await checkMacPermissionsOnce() } : {}),
  };
}

/** Which permission the host lacks, through the macOS helper (started for this and ended). */
async function checkMacPermissionsOnce(): Promise<NonNullable<SetupReport['permissions']>> {
  const mac = createMacPorts();
  try {
    const report = await mac.permissions();
    if (report.problems.length === 0) return { ok: true, detail: `Accessibility and Screen Recording granted to ${report.host.name}`, panes: [] };
    return { ok: false, detail: report.problems.map((p) => p.message).join('; '), panes: [...new Set(report.problems.map((p) => p.pane))] };
  } catch (error) {
    return { ok: false, detail: `could not check the macOS permissions: ${messageOf(error)}`, panes: [] };
  } finally {
    await mac.dispose();
  }
}

function checkGtk2(): SetupReport['gtk2'] {
  const findings = gtk2AppsWithoutTree();
  if (findings.length === 0) return { ok: true, detail: 'no running GTK 2 app without its accessibility tree', findings };
  return { ok: false, detail: withoutTree(findings, GTK2_FIX), findings };
}

/** "chromium, code (pid 1, 2) run without an accessibility tree: FIX". */
function withoutTree(findings: ReadonlyArray<{ pid: number; app: string }>, fix: string): string {
  const apps = [...new Set(findings.map((f) => f.app))];
  return `${apps.join(', ')} (pid ${findings.map((f) => f.pid).join(', ')}) ${findings.length > 1 ? 'run' : 'runs'} without an accessibility tree: ${fix}`;
}

function checkBrowsers(): SetupReport['browsers'] {
  const findings = browsersWithoutTree();
  if (findings.length === 0) return { ok: true, detail: 'no running browser or Electron app with its accessibility tree off', findings };
  return { ok: false, detail: withoutTree(findings, findings[0]!.fix), findings };
}

async function checkNut(): Promise<{ detail: string; nativeModule?: string }> {
  // Importing nut-js loads libnut's native addon; it opens the display only when used.
  await import('@nut-tree-fork/nut-js').catch((error: unknown) => {
    throw nutMissing(error);
  });
  const nativeModule = loadedNativeFile('libnut.node') ?? installedLibnut();
  return { detail: nativeModule ? `native module ${nativeModule}` : 'loaded (native module path unknown)', nativeModule };
}

async function checkSharp(): Promise<{ detail: string; versions: Record<string, string>; image: ScreenImage }> {
  // Bundled as CommonJS the module is the function itself; under an ES loader, its default.
  const loaded: unknown = await import('sharp');
  const sharp = (typeof loaded === 'function' ? loaded : (loaded as { default: unknown }).default) as Sharp;
  const versions = Object.fromEntries(
    (['sharp', 'vips', 'rsvg', 'fontconfig'] as const).flatMap((name) => (sharp.versions[name] ? [[name, sharp.versions[name]]] : [])),
  ) as Record<string, string>;
  const codec = new SharpImages();
  // Rendering an SVG exercises librsvg and fontconfig inside libvips; the PNG, the encoder.
  const image = await codec.decode(Buffer.from(SAMPLE_SVG));
  const png = await codec.encode(image, 'png');
  if (darkPixels(image) === 0) throw new Error('the sample text rendered blank: no font was found (install a TrueType font, e.g. fonts-dejavu)');
  return { detail: `sharp ${versions.sharp ?? '?'}, libvips ${versions.vips ?? '?'}; rendered and encoded a ${png.width}x${png.height} PNG (${png.data.length} bytes)`, versions, image };
}

async function checkOcr(image: ScreenImage | undefined, language: string): Promise<SetupReport['ocr']> {
  const started = performance.now();
  const base = { expected: SETUP_SAMPLE_TEXT, language };
  if (!image) return { ...base, ok: false, text: '', detail: 'skipped: sharp could not render the sample', ms: 0 };
  const engine = new TesseractJsOcr({ language, workers: 1 });
  try {
    const analysis = await engine.recognize(image, { layout: 'line' });
    const text = analysis.fullText.replace(/\s+/g, ' ').trim();
    // Fonts differ between machines; one confused letter still proves the engine runs.
    const ok = editDistance(text.toUpperCase(), SETUP_SAMPLE_TEXT.toUpperCase()) <= 1;
    const detail = `read "${text}" offline` + (ok ? '' : `, expected "${SETUP_SAMPLE_TEXT}"`);
    return { ...base, ok, text, detail, ms: performance.now() - started };
  } catch (error) {
    return { ...base, ok: false, text: '', detail: messageOf(error), ms: performance.now() - started };
  } finally {
    // The worker thread would keep the process (or a CLI run) alive.
    await engine.dispose();
  }
}

function checkDisplay(): SetupReport['display'] {
  if (process.platform !== 'linux') return { ok: true, detail: `${process.platform} desktop`, kind: 'other' };
  const session = detectDisplaySession(process.env);
  const described = describeSession(session);
  if (session.kind === 'x11') return { ok: true, detail: described, kind: 'x11' };
  if (session.kind === 'none') return { ok: false, detail: `${described}: the desktop tools need one`, kind: 'none' };
  if (session.compositor === 'sway' && session.swaySocket) {
    return {
      ok: true,
      kind: 'wayland',
      detail: `${described}: screen through grim, input through a virtual pointer and keyboard, windows and the stop hotkey through sway's IPC, the accessibility tree placed by sway's window boxes; no takeover pause, fail-safe corner or Record Steps (a Wayland program cannot see the person's input)`,
    };
  }
  if (session.compositor === 'gnome') {
    const problem = gnomeProblem(process.env);
    if (!problem) {
      return {
        ok: true,
        kind: 'wayland',
        detail: `${described}: screen and input through a remote-desktop session of Mutter (GNOME shows its screen-sharing indicator while GAI runs), the accessibility tree placed by matching its labels with the screen's text; no stop hotkey, takeover pause, fail-safe corner or Record Steps (use VS Code's Stop, Escape or Ctrl+C)`,
      };
    }
    return { ok: false, kind: 'wayland', detail: `${described}: ${problem}; or log into "GNOME on Xorg", where GAI works fully` };
  }
  if (session.compositor === 'kde') {
    const problem = kdeProblem(process.env);
    if (!problem) {
      return {
        ok: true,
        kind: 'wayland',
        detail: `${described}: screen and input through the desktop portal's remote-desktop session (Plasma shows a notification when it starts), windows and the accessibility tree's places through KWin's scripting, the stop hotkey through the portal's global shortcuts; no takeover pause, fail-safe corner or Record Steps (a Wayland program cannot see the person's input)`,
      };
    }
    return { ok: false, kind: 'wayland', detail: `${described}: ${problem}; or log into "Plasma (X11)", where GAI works fully` };
  }
  const why = unsupportedReason(session);
  return { ok: false, detail: `${described}: ${why.message}; ${why.hint}`, kind: 'wayland' };
}

/** On Linux the proof that the addon is really loaded: it is mapped into this process. */
function loadedNativeFile(name: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const maps = readFileSync('/proc/self/maps', 'utf8');
    const line = maps.split('\n').find((entry) => entry.endsWith(`/${name}`));
    return line?.slice(line.indexOf('/'));
  } catch {
    return undefined;
  }
}

function installedLibnut(): string | undefined {
  try {
    // Resolved at run time from wherever node_modules is, like the language data.
    const base = dirname(require.resolve(`@nut-tree-fork/libnut-${process.platform}/package.json`));
    const file = join(base, 'build', 'Release', 'libnut.node');
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function darkPixels(image: ScreenImage): number {
  let count = 0;
  for (let p = 0; p < image.data.length; p += 4) if (image.data[p]! < 128) count++;
  return count;
}

type Checked<T> = SetupCheck & Partial<T>;

async function timed<T extends { detail: string }>(check: () => Promise<T>): Promise<Checked<T>> {
  const started = performance.now();
  try {
    return { ...(await check()), ok: true, ms: performance.now() - started };
  } catch (error) {
    const failed: SetupCheck = { ok: false, detail: messageOf(error), ms: performance.now() - started };
    return failed as Checked<T>;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
