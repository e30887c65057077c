import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UIA_HELPER_CSHARP } from '../../../src/platform/windows/uiaHelperScript';

// Type-checks the helper's C# with Mono's mcs at C# 5 (what Add-Type's .NET Framework compiler
// takes) against the documented UI Automation signatures (uiaStubs.cs). Skipped where mcs is
// not installed (Debian: mono-mcs and libmono-windowsbase4.0-cil).

function hasMcs(): boolean {
  return spawnSync('mcs', ['--version'], { stdio: 'ignore' }).status === 0;
}

describe('the Windows helper\'s C#', () => {
  it('compiles at C# 5 against UI Automation\'s documented signatures', function () {
    if (!hasMcs()) this.skip();
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'gai-uia-cs-'));
    try {
      const source = join(dir, 'helper.cs');
      writeFileSync(source, UIA_HELPER_CSHARP);
      const out = execFileSync('mcs', ['-langversion:5', '-warnaserror+', '-nowarn:0414,0649,0169', '-target:library', '-r:WindowsBase.dll', `-out:${join(dir, 'helper.dll')}`, join(__dirname, 'uiaStubs.cs'), source], { encoding: 'utf8' });
      assert.doesNotMatch(out, /error/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
