// The busy-desktop bench's screen, 1920x1080, one app of each toolkit issue 19 names: our page
// in chromium (top left), mousepad with code (below it), LibreOffice Writer with a memo and
// Firefox with another page of ours (top row, Firefox a little over Writer), galculator,
// speedcrunch and gnome-calculator (GTK 4) in the bottom row (gnome-calculator a little over
// speedcrunch). Overlaps are kept small and realistic; labels under another window are left
// out of the targets (busyDesktopBenchChild.ts), since no person could click them there.
import { windowGeometry, type GroundTruthLabel, type Placement } from '../test/desktop/support/realApps/appWindow';
import { AtspiApp } from '../test/desktop/support/realApps/atspiApps';
import { ChromiumApp } from '../test/desktop/support/realApps/chromiumApp';
import { BenchFirefox } from './busyDesktopFirefox';
import { BenchGnomeCalculator } from './busyDesktopGnomeCalculator';
import { BenchWriter } from './busyDesktopWriter';

export const BENCH_LAYOUT = {
  chromium: { x: 0, y: 0, width: 640, height: 620 },
  // Client areas: openbox adds a 20 px title bar above each (chromium draws its own frame).
  mousepad: { x: 0, y: 665, width: 640, height: 415 },
  writer: { x: 645, y: 20, width: 700, height: 410 },
  firefox: { x: 1310, y: 20, width: 610, height: 410 },
  galculator: { x: 645, y: 455, width: 330, height: 510 },
  // Its keypad lies below a tall result view: it needs the height down to the screen's edge.
  speedcrunch: { x: 980, y: 455, width: 622, height: 625 },
  gnomeCalculator: { x: 1560, y: 455, width: 360, height: 510 },
} as const satisfies Record<string, Placement>;

export type BenchAppName = 'chromium' | 'mousepad' | 'writer' | 'firefox' | 'galculator' | 'speedcrunch' | 'gnome-calculator';

export interface BenchScene {
  chromium: ChromiumApp;
  mousepad: AtspiApp;
  galculator: AtspiApp;
  speedcrunch: AtspiApp;
  writer: BenchWriter;
  firefox: BenchFirefox;
  gnomeCalculator: BenchGnomeCalculator;
  /** Each app's window id by name, to activate it and to tell what covers what. */
  windows: Record<BenchAppName, string>;
  stop(): Promise<void>;
}

/** Starts the apps one after the other (each placed before the next opens); stops them all on failure. */
export async function startBenchScene(env: NodeJS.ProcessEnv): Promise<BenchScene> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const add = <T extends { stop(): Promise<void> }>(app: T): T => {
    started.push(app);
    return app;
  };
  try {
    const writer = add(await BenchWriter.startApp(env, BENCH_LAYOUT.writer));
    const firefox = add(await BenchFirefox.startApp(env, BENCH_LAYOUT.firefox));
    const speedcrunch = add(await AtspiApp.start('speedcrunch', env, BENCH_LAYOUT.speedcrunch));
    const gnomeCalculator = add(await BenchGnomeCalculator.startApp(env, BENCH_LAYOUT.gnomeCalculator));
    const galculator = add(await AtspiApp.start('galculator', env, BENCH_LAYOUT.galculator));
    const mousepad = add(await AtspiApp.start('mousepad', env, BENCH_LAYOUT.mousepad));
    const chromium = add(await ChromiumApp.start(env, { placement: BENCH_LAYOUT.chromium }));
    const windows: Record<BenchAppName, string> = {
      chromium: chromium.windowId,
      mousepad: mousepad.windowId,
      writer: writer.windowId,
      firefox: firefox.windowId,
      galculator: galculator.windowId,
      speedcrunch: speedcrunch.windowId,
      'gnome-calculator': gnomeCalculator.windowId,
    };
    return { chromium, mousepad, galculator, speedcrunch, writer, firefox, gnomeCalculator, windows, stop: () => stopAll(started) };
  } catch (error) {
    await stopAll(started);
    throw error;
  }
}

/**
 * Labels of `app` that no other app's window (its frame: title bar included) overlaps: the
 * stacking changes with every click, so only these are sure to show whatever is on top.
 */
export async function uncovered(scene: BenchScene, app: BenchAppName, labels: GroundTruthLabel[], env: NodeJS.ProcessEnv): Promise<GroundTruthLabel[]> {
  const others = await Promise.all(
    (Object.keys(scene.windows) as BenchAppName[])
      .filter((name) => name !== app)
      .map(async (name) => {
        const g = await windowGeometry(scene.windows[name], env);
        const title = name === 'chromium' || name === 'gnome-calculator' ? 0 : 24; // they draw their own frame
        return { x: g.x - 2, y: g.y - title, width: g.width + 4, height: g.height + title + 2 };
      }),
  );
  const overlaps = (a: Placement, b: Placement): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  return labels.filter((l) => !others.some((o) => overlaps(l.bbox, o)));
}

async function stopAll(apps: Array<{ stop(): Promise<void> }>): Promise<void> {
  const results = await Promise.allSettled(apps.reverse().map((app) => app.stop()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
