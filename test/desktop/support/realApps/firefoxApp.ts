// Debian's Firefox ESR showing a page of our own, served on 127.0.0.1 (pageServer.ts), with a
// temporary profile and HOME. Its accessibility tree is on as Firefox has it by default here
// (it answers AT-SPI clients that ask, measured 2026-11-27), or off with the
// accessibility.force_disabled pref: a page read by OCR only. Ground truth comes from the DOM,
// reported by the page itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { placeWindow, startProcess, stopProcess, waitForWindow, type GroundTruthLabel, type Placement, type StartedProcess } from './appWindow';
import { domGroundTruth, type DomLabel } from './chromiumApp';
import { PageServer } from './pageServer';

export interface FirefoxOptions {
  /** A file in fixtures/pages; default people.html. */
  page?: string;
  placement?: Placement;
  /** false: accessibility.force_disabled, no tree at all; default true. */
  tree?: boolean;
}

const PREFS: Record<string, string | number | boolean> = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'startup.homepage_welcome_url': '',
  'browser.aboutwelcome.enabled': false,
  'browser.sessionstore.resume_from_crash': false,
  'browser.tabs.warnOnClose': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.disabledForTesting': true,
  'extensions.autoDisableScopes': 15,
  'browser.translations.automaticallyPopup': false,
  'sidebar.revamp': false,
  // One device pixel per CSS pixel: the page's boxes are screen pixels.
  'layout.css.devPixelsPerPx': '1.0',
};

export class FirefoxApp {
  private constructor(
    private readonly process: StartedProcess,
    private readonly server: PageServer,
    private readonly profileDir: string,
    readonly windowId: string,
    readonly tree: boolean,
  ) {}

  get pid(): number | undefined {
    return this.process.child.pid;
  }

  static async start(env: NodeJS.ProcessEnv, options: FirefoxOptions = {}): Promise<FirefoxApp> {
    const placement = options.placement ?? { x: 0, y: 0, width: 960, height: 1080 };
    const profileDir = mkdtempSync(path.join(tmpdir(), 'gai-firefox-'));
    const profile = path.join(profileDir, 'profile');
    mkdirSync(profile);
    const prefs = { ...PREFS, ...(options.tree === false ? { 'accessibility.force_disabled': 1 } : {}) };
    writeFileSync(path.join(profile, 'user.js'), Object.entries(prefs).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`).join('\n') + '\n');
    const server = await PageServer.start();
    const url = server.url(options.page ?? 'people.html');
    const appEnv: NodeJS.ProcessEnv = { ...env, HOME: profileDir, XDG_CONFIG_HOME: path.join(profileDir, 'config'), XDG_CACHE_HOME: path.join(profileDir, 'cache'), MOZ_CRASHREPORTER_DISABLE: '1' };
    const args = ['--no-remote', '--new-instance', '--profile', profile, `--width=${placement.width}`, `--height=${placement.height}`, url];
    const process = startProcess('firefox-esr', args, { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const windowId = await waitForWindow(process, appEnv, 'firefox-esr', 60_000);
      await placeWindow(windowId, placement, appEnv);
      await server.labels(30_000); // loaded and its script running
      return new FirefoxApp(process, server, profileDir, windowId, options.tree !== false);
    } catch (error) {
      await stopProcess(process.child);
      await server.stop();
      rmSync(profileDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Every visible element with text or an aria-label, boxes in screen pixels. */
  domLabels(): Promise<DomLabel[]> {
    return this.server.labels();
  }

  async groundTruth(): Promise<GroundTruthLabel[]> {
    return domGroundTruth(await this.domLabels(), !this.tree);
  }

  takeClicks(): string[] {
    return this.server.takeClicks();
  }

  waitForClicks(timeoutMs?: number): Promise<string[]> {
    return this.server.waitForClicks(timeoutMs);
  }

  async stop(): Promise<void> {
    await stopProcess(this.process.child);
    await this.server.stop();
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}
