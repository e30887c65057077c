// A headless sway with GAI's desktop on it and real apps started in it, for the Wayland tests:
// ready once the apps' windows show in sway's tree and have drawn a frame.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Desktop } from '../../../src/desktop/ports/desktop';
import { SwayIpc } from '../../../src/platform/linux/wayland/swayIpc';
import { createPlatformDesktop } from '../../../src/platform/platformDesktop';
import { SWAY_SIZE, startSway, swayMissing, xwaylandDisplay, type SwayDisplay } from './swayDisplay';

export interface SwayRig {
  sway: SwayDisplay;
  desktop: Desktop;
  apps: ChildProcess[];
  close(): Promise<void>;
}

export interface SwayRigOptions {
  /** Start XWayland too; `start` then gets its DISPLAY. */
  xwayland?: boolean;
  /** Starts the apps with this environment (the desktop's, a HOME of their own). */
  start(env: NodeJS.ProcessEnv, xDisplay?: string): ChildProcess[];
}

/**
 * For a suite: starts the rig before its tests (skipping them, saying why, where sway cannot
 * run), hands it to `ready`, and closes it after.
 */
export function useSwayRig(options: SwayRigOptions, ready: (rig: SwayRig) => void): void {
  let rig: SwayRig | undefined;
  before(async function () {
    const missing = swayMissing();
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    rig = await startSwayRig(options);
    ready(rig);
  });
  after(() => rig?.close());
}

export async function startSwayRig(options: SwayRigOptions): Promise<SwayRig> {
  const sway = await startSway(20_000, SWAY_SIZE, options.xwayland ?? false);
  const home = mkdtempSync(join(tmpdir(), 'gai-sway-apps-'));
  const desktop = createPlatformDesktop({ env: sway.env });
  let apps: ChildProcess[] = [];
  const close = async (): Promise<void> => {
    for (const app of apps) if (app.pid !== undefined && app.exitCode === null) app.kill('SIGTERM');
    await desktop.dispose?.();
    await sway.stop();
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const xDisplay = options.xwayland ? await xwaylandDisplay(sway, new SwayIpc(sway.swaySocket)) : undefined;
    apps = options.start({ ...sway.env, HOME: home, GSETTINGS_BACKEND: 'memory' }, xDisplay);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const shown = new Set((await desktop.windows.listWindows!()).map((w) => w.pid));
      if (apps.every((app) => shown.has(app.pid))) break;
      if (Date.now() > deadline) throw new Error(`not every app showed on sway within 30 s (pids ${apps.map((a) => a.pid).join(', ')}; shown ${[...shown].join(', ')})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The first frames after the windows are mapped: their widgets are drawn.
    await new Promise((r) => setTimeout(r, 1000));
    return { sway, desktop, apps, close };
  } catch (error) {
    await close();
    throw error;
  }
}
