// LibreOffice Writer for the busy-desktop bench: a short memo in a flat ODF file, a temp
// profile, the GTK 3 VCL plugin (which gives it an AT-SPI tree). oosplash starts soffice.bin,
// which owns the window: found by its title, stopped by its pid too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { placeWindow, startProcess, stopProcess, unmaximize, type GroundTruthLabel, type Placement } from '../test/desktop/support/realApps/appWindow';
import { BenchApp, waitForNamedWindow, waitUntil } from './busyDesktopApp';

/** The memo's paragraphs: plain words a person would point at, none of them on the other apps. */
export const WRITER_MEMO = [
  'Quarterly inventory review',
  'The warehouse in Rotterdam counted fewer pallets than the ledger claimed.',
  'Shipments from Valencia arrived late because the ferry schedule changed.',
  'Please reconcile the invoices before Thursday and flag every duplicate.',
  'Margins improved slightly although freight costs kept rising.',
];

export class BenchWriter extends BenchApp {
  static async startApp(env: NodeJS.ProcessEnv, placement: Placement): Promise<BenchWriter> {
    const home = mkdtempSync(path.join(tmpdir(), 'gai-writer-'));
    const file = path.join(home, 'memo.fodt');
    writeFileSync(file, flatOdt(WRITER_MEMO));
    const appEnv: NodeJS.ProcessEnv = { ...env, HOME: home, SAL_USE_VCLPLUGIN: 'gtk3', GSETTINGS_BACKEND: 'memory' };
    delete appEnv.NO_AT_BRIDGE;
    const args = [`-env:UserInstallation=file://${path.join(home, 'profile')}`, '--norestore', '--nologo', '--nodefault', file];
    const process = startProcess('soffice', args, { env: appEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let windowPid: number | undefined;
    try {
      const window = await waitForNamedWindow(process, appEnv, /memo\.fodt - LibreOffice Writer/, 'LibreOffice Writer');
      windowPid = window.pid;
      await unmaximize(window.id, appEnv); // it opens maximized the first time
      const placed = await placeWindow(window.id, placement, appEnv);
      const app = new BenchWriter('writer', process, home, appEnv, window.id, placed, window.pid);
      await waitUntil(async () => (await app.groundTruth()).some((l) => l.text === 'Rotterdam'), "Writer's document showed no words in its AT-SPI tree");
      return app;
    } catch (error) {
      await stopProcess(process.child);
      if (windowPid !== undefined && windowPid !== process.child.pid) killQuietly(windowPid);
      rmSync(home, { recursive: true, force: true });
      throw error;
    }
  }

  /** The document's words with their boxes on screen. */
  groundTruth(): Promise<GroundTruthLabel[]> {
    return this.truth('words');
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function flatOdt(paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<text:p>${p}</text:p>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>${body}</office:text></office:body></office:document>
`;
}
