// Check Setup's finding about running browsers whose accessibility tree is off, read from a
// /proc of our own making (the real one is covered by test/desktop/realAppsBrowsers.test.ts).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { browsersWithoutTree } from '../../src/platform/linux/browserTrees';

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
});
