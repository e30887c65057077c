import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../src/common/logger';
import { connectWarm } from '../../src/cli/warm/daemonControl';
import { fragileTreeApps } from '../../src/platform/linux/fragileTrees';

// Which running apps a new accessibility client may crash (read from /proc alone), and the CLI's
// way around them: one warm daemon, or, where that cannot start, reading in the command saying why.
// (The crash itself: realAppsLibreOffice.test.ts, LibreOffice's Paragraph dialog cycle.)

describe('apps a new accessibility client may crash', () => {
  let proc: string;
  beforeEach(() => (proc = mkdtempSync(join(tmpdir(), 'gai-proc-'))));
  afterEach(() => rmSync(proc, { recursive: true, force: true }));

  function process_(pid: number, argv: string[], environ?: Record<string, string>): void {
    mkdirSync(join(proc, String(pid)));
    writeFileSync(join(proc, String(pid), 'cmdline'), argv.join('\0') + '\0');
    if (environ) writeFileSync(join(proc, String(pid), 'environ'), Object.entries(environ).map(([k, v]) => `${k}=${v}`).join('\0') + '\0');
  }

  it("finds LibreOffice's soffice.bin, on this display or where its display cannot be read, and nothing else", () => {
    process_(40, ['/usr/lib/libreoffice/program/soffice.bin', '--writer', 'memo.odt'], { DISPLAY: ':1' });
    process_(41, ['/usr/lib/libreoffice/program/soffice.bin', '--calc'], { DISPLAY: ':7' });
    process_(42, ['/usr/lib/libreoffice/program/soffice.bin']); // environ not readable
    process_(43, ['/usr/lib/libreoffice/program/oosplash', '--writer']);
    process_(44, ['/usr/bin/mousepad', 'soffice.bin']);
    mkdirSync(join(proc, 'self'));
    const found = fragileTreeApps({ procRoot: proc, display: ':1' });
    assert.deepEqual(
      found.map((f) => [f.pid, f.app]),
      [
        [40, 'soffice.bin'],
        [42, 'soffice.bin'],
      ],
    );
    assert.match(found[0]!.why, /LibreOffice can crash when a new accessibility client connects/);
    assert.equal(fragileTreeApps({ procRoot: proc }).length, 3, 'without a display, every one');
    assert.deepEqual(fragileTreeApps({ procRoot: join(proc, 'missing') }), []);
  });

  it("'prefer' reads in the command, saying why, when no daemon can start (here: no DISPLAY)", async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
    const client = await connectWarm({ env: {}, mode: 'prefer', reason: 'LibreOffice can crash (soffice.bin, pid 40 runs)', ocrLanguage: 'eng', logger });
    assert.equal(client, undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /could not start one \(.*DISPLAY is not set.*\); reading in this process, though LibreOffice can crash/);
  });
});
