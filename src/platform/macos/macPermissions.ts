import type { MacHelper } from './macHelper';

// macOS asks permissions of the "responsible" app: the one the person launched, whose children
// inherit its grants. GAI's helper (osascript) runs under VS Code when the extension drives, under
// Terminal / iTerm when `gai` runs there; granting `node` or `osascript` alone does not help.

export const ACCESSIBILITY_PANE = 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility';
export const SCREEN_RECORDING_PANE = 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture';

export interface MacPermissionProblem {
  permission: 'accessibility' | 'screenRecording';
  /** The app to switch on in the list, e.g. `Visual Studio Code`. */
  app: string;
  /** The System Settings pane to open (`open '<url>'`). */
  pane: string;
  /** One line for `gai doctor` and Check Setup. */
  message: string;
  /** False when macOS could not say (the permission may be there): the message says so. */
  checked: boolean;
}

export interface MacPermissionReport {
  accessibility: boolean;
  /** Undefined when this macOS cannot say. */
  screenRecording: boolean | undefined;
  /** The app macOS asks: the host GAI runs in. */
  host: { name: string; bundleId?: string };
  problems: MacPermissionProblem[];
}

const HOSTS: Readonly<Record<string, string>> = {
  'com.microsoft.VSCode': 'Visual Studio Code',
  'com.microsoft.VSCodeInsiders': 'Visual Studio Code - Insiders',
  'com.visualstudio.code.oss': 'Code - OSS',
  'com.vscodium': 'VSCodium',
  'com.todesktop.230313mzl4w4u92': 'Cursor',
  'com.apple.Terminal': 'Terminal',
  'com.googlecode.iterm2': 'iTerm',
  'dev.warp.Warp-Stable': 'Warp',
};

/** The app macOS holds responsible for this process, from what launched it (its bundle id in the environment). */
export function hostApp(env: NodeJS.ProcessEnv): { name: string; bundleId?: string } {
  // Launch Services sets __CFBundleIdentifier for a process an app started; its children inherit it.
  const bundleId = env.__CFBundleIdentifier;
  if (bundleId) return { name: HOSTS[bundleId] ?? bundleId, bundleId };
  if (env.VSCODE_PID || env.TERM_PROGRAM === 'vscode') return { name: 'Visual Studio Code' };
  if (env.TERM_PROGRAM === 'Apple_Terminal') return { name: 'Terminal', bundleId: 'com.apple.Terminal' };
  if (env.TERM_PROGRAM === 'iTerm.app') return { name: 'iTerm', bundleId: 'com.googlecode.iterm2' };
  return { name: 'the app that runs GAI (your terminal, or node when started by a service)' };
}

export function describePermissions(answer: { accessibility?: unknown; screenRecording?: unknown }, env: NodeJS.ProcessEnv): MacPermissionReport {
  const host = hostApp(env);
  const accessibility = answer.accessibility === true;
  const screenRecording = typeof answer.screenRecording === 'boolean' ? answer.screenRecording : undefined;
  const problems: MacPermissionProblem[] = [];
  if (!accessibility) {
    problems.push({
      permission: 'accessibility',
      app: host.name,
      pane: ACCESSIBILITY_PANE,
      message: `macOS has not given ${host.name} the Accessibility permission: GAI cannot read the accessibility tree, send clicks and keys, or see the stop hotkey. Open System Settings > Privacy & Security > Accessibility (open '${ACCESSIBILITY_PANE}'), switch on ${host.name}, then quit and reopen it`,
      checked: true,
    });
  }
  if (screenRecording !== true) {
    const known = screenRecording === false;
    problems.push({
      permission: 'screenRecording',
      app: host.name,
      pane: SCREEN_RECORDING_PANE,
      checked: known,
      message: known
        ? `macOS has not given ${host.name} the Screen Recording permission: screenshots show only the desktop wallpaper and window titles are empty. ${grant(SCREEN_RECORDING_PANE, host.name)}`
        : `GAI could not ask this macOS whether ${host.name} has the Screen Recording permission: if screenshots show only the desktop wallpaper, ${grant(SCREEN_RECORDING_PANE, host.name).replace(/^O/, 'o')}`,
    });
  }
  return { accessibility, screenRecording, host, problems };
}

function grant(pane: string, app: string): string {
  return `Open System Settings > Privacy & Security > Screen & System Audio Recording (open '${pane}'), switch on ${app}, then quit and reopen it`;
}

/** Asks the helper what macOS grants this process tree; rejects with the helper's failure. */
export async function checkMacPermissions(helper: MacHelper, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<MacPermissionReport> {
  const answer = await helper.request('permissions', {}, { signal });
  return describePermissions(answer, env);
}
