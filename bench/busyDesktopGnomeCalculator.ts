// gnome-calculator (GTK 4 / libadwaita) for the busy-desktop bench, in its Basic mode with a
// temp HOME. Its keys' truth: GTK 4 reports boxes relative to its window, so the window's
// screen origin is measured here (X geometry, less the client-side shadow margin GTK 4 adds
// around its AT-SPI frame, which the two sizes tell).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { placeWindow, startProcess, stopProcess, waitForWindow, windowGeometry, type GroundTruthLabel, type Placement } from '../test/desktop/support/realApps/appWindow';
import { BenchApp, waitUntil } from './busyDesktopApp';

export class BenchGnomeCalculator extends BenchApp {
  static async startApp(env: NodeJS.ProcessEnv, placement: Placement): Promise<BenchGnomeCalculator> {
    const home = mkdtempSync(path.join(tmpdir(), 'gai-gnome-calculator-'));
    mkdirSync(path.join(home, '.config'), { recursive: true });
    const appEnv: NodeJS.ProcessEnv = { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_CACHE_HOME: path.join(home, '.cache'), GSETTINGS_BACKEND: 'memory' };
    delete appEnv.NO_AT_BRIDGE;
    const process = startProcess('gnome-calculator', ['--mode=basic'], { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const windowId = await waitForWindow(process, appEnv, 'gnome-calculator');
      const placed = await placeWindow(windowId, placement, appEnv);
      const app = new BenchGnomeCalculator('gnome-calculator', process, home, appEnv, windowId, placed, process.child.pid ?? 0);
      await waitUntil(async () => (await app.groundTruth()).some((l) => l.text === '7'), 'gnome-calculator showed no keys in its AT-SPI tree');
      return app;
    } catch (error) {
      await stopProcess(process.child);
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** The label each drawn key shows, in screen pixels. */
  async groundTruth(): Promise<GroundTruthLabel[]> {
    const { x, y, width } = await windowGeometry(this.windowId, this.env);
    const frame = (await this.truth('frame'))[0];
    const margin = frame ? Math.max(0, Math.round((width - frame.bbox.width) / 2)) : 0;
    return this.truth('keys', [String(x + margin), String(y + margin)]);
  }
}
