// Check Setup's finding about running browsers whose accessibility tree is off, read from a
// /proc of our own making (the real one is covered by test/desktop/realAppsBrowsers.test.ts).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { browsersWithoutTree } from '../../src/platform/linux/browserTrees';
import { gtk2AppsWithoutTree } from '../../src/platform/linux/gtk2Trees';

describe('browsersWithoutTree (Check Setup)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'gai-proc-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function proc(pid: number, args: string[]): void {
    mkdirSync(path.join(root, String(pid)));
    writeFileSync(path.join(root, String(pid), 'cmdline'), args.join('\0') + '\0');
  }

  it('names a Chromium or Electron browser process started without the renderer switch, with how to turn it on', () => {
    proc(100, ['/usr/lib/chromium/chromium', '--no-first-run', 'https://example.org']);
    proc(101, ['/usr/lib/chromium/chromium', '--type=renderer', '--lang=en']);
    proc(200, ['/usr/lib/chromium/chromium', '--force-renderer-accessibility']);
    proc(300, ['/usr/share/code/code', '--unity-launch']);
    proc(400, ['/usr/bin/bash']);
    const findings = browsersWithoutTree(root);
    assert.deepEqual(findings.map((f) => [f.pid, f.app]), [[100, 'chromium'], [300, 'code']]);
    assert.match(findings[0]!.fix, /--force-renderer-accessibility/);
    assert.match(findings[0]!.fix, /ACCESSIBILITY_ENABLED=1/);
    assert.match(findings[1]!.fix, /editor\.accessibilitySupport/);
  });

  it('names Firefox only when its profile forces accessibility off', () => {
    const off = path.join(root, 'off');
    const on = path.join(root, 'on');
    mkdirSync(off);
    mkdirSync(on);
    writeFileSync(path.join(off, 'user.js'), 'user_pref("accessibility.force_disabled", 1);\n');
    writeFileSync(path.join(on, 'prefs.js'), 'user_pref("accessibility.force_disabled", 0);\n');
    proc(10, ['/usr/lib/firefox-esr/firefox-esr', '--profile', off]);
    proc(11, ['/usr/lib/firefox-esr/firefox-esr', '-contentproc', '-parentPid', '10']);
    proc(20, ['/usr/lib/firefox-esr/firefox-esr', '--profile', on]);
    proc(30, ['/usr/lib/firefox-esr/firefox-esr']);
    const findings = browsersWithoutTree(root);
    assert.deepEqual(findings.map((f) => f.pid), [10]);
    assert.match(findings[0]!.fix, /accessibility\.force_disabled/);
  });

  it('names GTK 2 apps that have not loaded the accessibility bridge, not those that have, nor GTK 3 ones', () => {
    const withMaps = (pid: number, exe: string, libraries: string[]): void => {
      proc(pid, [exe]);
      writeFileSync(path.join(root, String(pid), 'maps'), libraries.map((l, i) => `7f00000${i}000-7f00000${i}fff r-xp 00000000 08:01 ${i} ${l}`).join('\n') + '\n');
    };
    withMaps(500, '/usr/bin/gimp-2.10', ['/usr/lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0.2400.33', '/usr/lib/x86_64-linux-gnu/libgdk-x11-2.0.so.0']);
    withMaps(501, '/usr/bin/pidgin', ['/usr/lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0.2400.33', '/usr/lib/x86_64-linux-gnu/gtk-2.0/modules/libatk-bridge.so', '/usr/lib/x86_64-linux-gnu/libatk-bridge-2.0.so.0']);
    withMaps(502, '/usr/bin/mousepad', ['/usr/lib/x86_64-linux-gnu/libgtk-3.so.0', '/usr/lib/x86_64-linux-gnu/libatk-bridge-2.0.so.0']);
    proc(503, ['/usr/bin/bash']);
    assert.deepEqual(gtk2AppsWithoutTree(root), [{ pid: 500, app: 'gimp-2.10' }]);
  });
});
