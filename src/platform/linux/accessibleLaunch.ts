import { basename } from 'node:path';
import { atspiEnv } from './desktopBridge';

// What an app GAI starts on Linux needs so its accessibility tree can be read (measured on
// Debian 12, Xvfb + openbox, Chromium 156, Qt 5.15):
// - GTK3 apps register with AT-SPI by themselves, unless NO_AT_BRIDGE=1 is inherited.
// - Qt apps ask the session bus's org.a11y.Status at start; on a display without a session bus
//   in their environment they register only with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1.
// - Chromium registers with ACCESSIBILITY_ENABLED=1 (or IsEnabled set before it starts), but its
//   windows have no children (GetChildAtIndex answers the null object) unless it was also started
//   with --force-renderer-accessibility; the switch alone does not register it. Nothing found
//   turns the tree on in a Chromium already running: setting IsEnabled or ScreenReaderEnabled
//   later is ignored.
// - GTK 2 apps (GIMP 2.10, lxtask, Pidgin) join only with the gail and atk-bridge modules
//   (libgail-common, libatk-adaptor) named in GTK_MODULES, as a GNOME session with accessibility
//   on does through XSETTINGS; without them they are OCR only. GTK 3 skips those two names (both
//   are built in), GTK 4 and Qt ignore the variable.

/** Executables of Chromium-based browsers and common Electron apps, which take Chromium's switches. */
export const CHROMIUM_FAMILY = /^(chromium(-browser)?|chrome|google-chrome(-stable|-beta|-unstable)?|brave(-browser)?|microsoft-edge(-stable|-beta|-dev)?|vivaldi(-stable)?|opera|code(-insiders|-oss)?|codium|vscodium|cursor|slack|discord|signal-desktop|obsidian|teams-for-linux|electron\d*)$/;
export const RENDERER_SWITCH = '--force-renderer-accessibility';

/** Our environment with the accessibility switches of GTK, Qt and Chromium on. */
export function accessibleAppEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // An AT_SPI_BUS_ADDRESS of another session would register the app there, where we do not read.
  const copy = atspiEnv(env);
  delete copy.NO_AT_BRIDGE;
  copy.ACCESSIBILITY_ENABLED = '1';
  copy.QT_LINUX_ACCESSIBILITY_ALWAYS_ON = '1';
  copy.GTK_MODULES = withGtkModules(copy.GTK_MODULES, GTK2_ACCESSIBILITY_MODULES);
  return copy;
}

const GTK2_ACCESSIBILITY_MODULES = ['gail', 'atk-bridge'];

/** The colon-separated module list with `wanted` added where missing (the person's own kept first). */
export function withGtkModules(current: string | undefined, wanted: readonly string[]): string {
  const modules = (current ?? '').split(':').filter((m) => m !== '');
  return [...modules, ...wanted.filter((m) => !modules.includes(m))].join(':');
}

/** The arguments with Chromium's renderer accessibility switch first, for a Chromium or Electron executable. */
export function accessibleAppArgs(command: string, args: readonly string[]): string[] {
  if (!CHROMIUM_FAMILY.test(basename(command).toLowerCase()) || args.includes(RENDERER_SWITCH)) return [...args];
  return [RENDERER_SWITCH, ...args];
}
