import { basename, join } from 'node:path';
import { readProcFile, runningProcesses } from './procScan';

// Running applications whose accessibility bridge a new AT-SPI client can crash. Measured on
// Debian 12 (LibreOffice 7.4 with the GTK 3 plugin, at-spi2-core 2.46, 2026-11-27): a `gai click`
// process per click through its Paragraph dialog killed soffice.bin in 3 of 3 runs, at the first
// click after the dialog closed (atk-bridge answering the new client's GetItems from a cache that
// holds a freed object); the same clicks through one long-lived client (the warm daemon), 0 of 3.
// So while one runs, the CLI reads the tree through the warm daemon (cliStack). Only /proc is
// read: no process is touched.

export interface FragileTreeApp {
  pid: number;
  /** The executable's name. */
  app: string;
  /** Why a new accessibility client is a risk to it. */
  why: string;
}

const FRAGILE: Array<{ name: RegExp; why: string }> = [
  {
    name: /^soffice\.bin$/,
    why: 'LibreOffice can crash when a new accessibility client connects just after one of its dialogs closes',
  },
];

/**
 * The running applications a new AT-SPI client may crash (empty off Linux or without /proc);
 * with `display`, only those on that X display (or whose display cannot be read).
 */
export function fragileTreeApps(options: { procRoot?: string; display?: string } = {}): FragileTreeApp[] {
  const found: FragileTreeApp[] = [];
  for (const { pid, args, dir } of runningProcesses(options.procRoot)) {
    const app = args[0] && basename(args[0]);
    const rule = app && FRAGILE.find((f) => f.name.test(app));
    if (!app || !rule) continue;
    const display = options.display === undefined ? undefined : displayOf(join(dir, 'environ'));
    if (display !== undefined && display !== options.display) continue; // another desktop's: its own accessibility bus
    found.push({ pid, app, why: rule.why });
  }
  return found;
}

function displayOf(environ: string): string | undefined {
  return readProcFile(environ)
    ?.split('\0')
    .find((e) => e.startsWith('DISPLAY='))
    ?.slice('DISPLAY='.length);
}
