// A busy 1920x1080 desktop built from real applications: our web page in chromium on the left
// half, mousepad with code top right, galculator and speedcrunch side by side bottom right.
import { AtspiApp } from './atspiApps';
import { ChromiumApp } from './chromiumApp';

export interface BusyScene {
  chromium: ChromiumApp;
  mousepad: AtspiApp;
  galculator: AtspiApp;
  speedcrunch: AtspiApp;
  stop(): Promise<void>;
}

export const SCENE_LAYOUT = {
  chromium: { x: 0, y: 0, width: 960, height: 1080 },
  // Client areas: openbox adds a 20 px title bar above each (chromium draws its own frame).
  mousepad: { x: 960, y: 0, width: 960, height: 500 },
  // speedcrunch's keypad needs about 620 px; galculator fits in 330.
  galculator: { x: 960, y: 545, width: 330, height: 510 },
  speedcrunch: { x: 1296, y: 545, width: 622, height: 510 },
} as const;

/** Starts the four apps one after the other (each placed before the next opens); stops them all on failure. */
export async function startBusyScene(env: NodeJS.ProcessEnv): Promise<BusyScene> {
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    const speedcrunch = await AtspiApp.start('speedcrunch', env, SCENE_LAYOUT.speedcrunch);
    started.push(speedcrunch);
    const galculator = await AtspiApp.start('galculator', env, SCENE_LAYOUT.galculator);
    started.push(galculator);
    const mousepad = await AtspiApp.start('mousepad', env, SCENE_LAYOUT.mousepad);
    started.push(mousepad);
    const chromium = await ChromiumApp.start(env, { placement: SCENE_LAYOUT.chromium });
    started.push(chromium);
    return {
      chromium,
      mousepad,
      galculator,
      speedcrunch,
      stop: () => stopAll(started),
    };
  } catch (error) {
    await stopAll(started);
    throw error;
  }
}

async function stopAll(apps: Array<{ stop(): Promise<void> }>): Promise<void> {
  const results = await Promise.allSettled(apps.reverse().map((app) => app.stop()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
