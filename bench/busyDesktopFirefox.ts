// Firefox ESR for the busy-desktop bench: a page of ours (fixtures/pages/dispatch.html) in a
// temp profile with its first-run pages off. GNOME_ACCESSIBILITY=1 turns its tree on at start;
// the page's part of the tree is built when first asked, so start waits until it shows.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { placeWindow, startProcess, stopProcess, waitForWindow, type GroundTruthLabel, type Placement } from '../test/desktop/support/realApps/appWindow';
import { PAGES_DIR } from '../test/desktop/support/realApps/chromiumApp';
import { BenchApp, waitUntil } from './busyDesktopApp';

const PREFS = [
  ['browser.shell.checkDefaultBrowser', false],
  ['browser.startup.homepage_override.mstone', '"ignore"'],
  ['browser.aboutwelcome.enabled', false],
  ['datareporting.policy.dataSubmissionEnabled', false],
  ['toolkit.telemetry.reportingpolicy.firstRun', false],
  ['browser.sessionstore.resume_from_crash', false],
  ['app.update.disabledForTesting', true],
  ['browser.translations.enable', false],
] as const;

export class BenchFirefox extends BenchApp {
  static async startApp(env: NodeJS.ProcessEnv, placement: Placement): Promise<BenchFirefox> {
    const home = mkdtempSync(path.join(tmpdir(), 'gai-firefox-'));
    const profile = path.join(home, 'profile');
    mkdirSync(profile, { recursive: true });
    writeFileSync(path.join(profile, 'user.js'), PREFS.map(([k, v]) => `user_pref("${k}", ${String(v)});`).join('\n') + '\n');
    const appEnv: NodeJS.ProcessEnv = { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache'), GNOME_ACCESSIBILITY: '1', MOZ_CRASHREPORTER_DISABLE: '1' };
    delete appEnv.NO_AT_BRIDGE;
    const page = 'file://' + path.join(PAGES_DIR, 'dispatch.html');
    const args = ['--new-instance', '--no-remote', '--profile', profile, '--width', String(placement.width), '--height', String(placement.height), page];
    const process = startProcess('firefox-esr', args, { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const windowId = await waitForWindow(process, appEnv, 'firefox-esr', 60_000);
      const placed = await placeWindow(windowId, placement, appEnv);
      const app = new BenchFirefox('firefox', process, home, appEnv, windowId, placed, process.child.pid ?? 0);
      await waitUntil(async () => (await app.groundTruth()).some((l) => l.text === 'Print manifest'), "Firefox's page showed no labels in its AT-SPI tree", 40_000);
      return app;
    } catch (error) {
      await stopProcess(process.child);
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** The page's named links, buttons, headings and cells, in screen pixels. */
  groundTruth(): Promise<GroundTruthLabel[]> {
    return this.truth('page');
  }
}
