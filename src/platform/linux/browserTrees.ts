import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CHROMIUM_FAMILY, RENDERER_SWITCH } from './accessibleLaunch';
import { runningProcesses } from './procScan';

// Which running browsers and Electron apps show GAI no accessibility tree, and how a person
// turns it on for good. Measured on Debian 12 (Xvfb + openbox, 2026-11-27):
// - Chromium 156 registers with AT-SPI only when started with ACCESSIBILITY_ENABLED=1 (or with
//   org.a11y.Status IsEnabled already true), and its page has children only with
//   --force-renderer-accessibility. Setting IsEnabled or ScreenReaderEnabled while it runs
//   changes nothing: it must be restarted. Electron apps are Chromium: the same switch.
// - Firefox ESR 153 answers AT-SPI clients by default, whatever IsEnabled says; only its
//   accessibility.force_disabled pref (1) keeps its tree off.
// Only /proc is read: no process is touched.

export interface BrowserTreeFinding {
  pid: number;
  /** The executable's name (chromium, code, firefox-esr…). */
  app: string;
  /** Why its tree is off. */
  reason: string;
  /** What a person does to turn it on for good. */
  fix: string;
}

const FIREFOX = /^(firefox(-esr|-bin)?|librewolf|iceweasel)$/;

export const CHROMIUM_FIX =
  `GAI reads it by OCR only until it restarts with ${RENDERER_SWITCH} and ACCESSIBILITY_ENABLED=1 (a running Chromium cannot be switched; ` +
  `launch_app starts apps so). For good: the switch in its desktop entry's Exec line (Debian: CHROMIUM_FLAGS in /etc/chromium.d/), ` +
  `ACCESSIBILITY_ENABLED=1 exported in ~/.profile, and for VS Code also "editor.accessibilitySupport": "on".`;

export const FIREFOX_FIX = 'set accessibility.force_disabled to 0 in about:config (or remove it from user.js) and restart Firefox. Until then GAI reads its window by OCR only.';

/** Running Chromium-family, Electron and Firefox main processes whose tree GAI cannot read. */
export function browsersWithoutTree(procRoot = '/proc'): BrowserTreeFinding[] {
  const findings: BrowserTreeFinding[] = [];
  for (const { pid, args } of runningProcesses(procRoot)) {
    if (args.length === 0) continue;
    const app = basename(args[0]!).toLowerCase();
    if (CHROMIUM_FAMILY.test(app)) {
      // Renderers, GPU and utility processes carry --type=; the browser process does not.
      if (args.some((a) => a.startsWith('--type='))) continue;
      if (!args.includes(RENDERER_SWITCH)) findings.push({ pid, app, reason: `started without ${RENDERER_SWITCH}: its pages show no accessibility tree`, fix: CHROMIUM_FIX });
    } else if (FIREFOX.test(app)) {
      if (args.some((a) => a === '-contentproc' || a === '--contentproc')) continue;
      const profile = profileOf(args);
      if (profile && forceDisabled(profile)) findings.push({ pid, app, reason: 'its profile sets accessibility.force_disabled: no accessibility tree', fix: FIREFOX_FIX });
    }
  }
  return findings;
}

/** The profile folder given on the command line (-profile DIR, --profile DIR, --profile=DIR). */
function profileOf(args: readonly string[]): string | undefined {
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if ((arg === '-profile' || arg === '--profile') && args[i + 1]) return args[i + 1];
    if (arg.startsWith('--profile=')) return arg.slice('--profile='.length);
  }
  return undefined;
}

function forceDisabled(profile: string): boolean {
  for (const file of ['user.js', 'prefs.js']) {
    try {
      const text = readFileSync(join(profile, file), 'utf8');
      const match = /user_pref\(\s*"accessibility\.force_disabled"\s*,\s*(-?\d+)\s*\)/.exec(text);
      if (match) return Number(match[1]) === 1;
    } catch {
      // no such file
    }
  }
  return false;
}
