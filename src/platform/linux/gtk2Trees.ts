import { basename, join } from 'node:path';
import { readProcFile, runningProcesses } from './procScan';

// Which running GTK 2 apps (GIMP 2.10, Pidgin, lxtask) show GAI no accessibility tree. A GTK 2
// process joins AT-SPI only with the gail and atk-bridge modules loaded (GTK_MODULES, or a
// GNOME session's XSETTINGS with accessibility on): measured with lxtask on Debian 12, which
// started plainly is in no tree and started with GTK_MODULES=gail:atk-bridge is read whole.
// Only /proc is read (a process's mapped libraries): no process is touched.

export interface Gtk2TreeFinding {
  pid: number;
  /** The executable's name. */
  app: string;
}

export const GTK2_FIX =
  'GAI reads such apps by OCR only until they restart with GTK_MODULES=gail:atk-bridge (launch_app starts apps so; the modules come with the ' +
  'libatk-adaptor and libgail-common packages). For good: export GTK_MODULES=gail:atk-bridge in ~/.profile.';

/** Running processes that drew with GTK 2 and have not loaded the accessibility bridge. */
export function gtk2AppsWithoutTree(procRoot = '/proc'): Gtk2TreeFinding[] {
  const findings: Gtk2TreeFinding[] = [];
  for (const { pid, args, dir } of runningProcesses(procRoot)) {
    if (args.length === 0) continue;
    const maps = readProcFile(join(dir, 'maps'));
    if (maps === undefined || !maps.includes('libgtk-x11-2.0.so') || maps.includes('libatk-bridge')) continue;
    findings.push({ pid, app: basename(args[0]!) });
  }
  return findings;
}
