// What `gai doctor` says each platform's parts rest on: CI on real desktops for Linux, a scripted
// helper's protocol tests for the Windows and macOS trees and hotkeys, nothing for recording there.
import { strict as assert } from 'node:assert';
import { DesktopUnavailableError } from '../../src/common/errors';
import { nutMissing } from '../../src/platform/nut/nutLoader';
import { platformSupport } from '../../src/platform/platformSupport';
import { runCliCaptured } from '../support/cliHarness';

describe('platform support in gai doctor', function () {
  this.timeout(60_000);

  it('names the same parts on every platform, and says which are proven how', () => {
    const parts = (platform: NodeJS.Platform): Record<string, string> => Object.fromEntries(platformSupport(platform).map((p) => [p.part, p.verified]));
    const linux = parts('linux');
    assert.deepEqual(Object.keys(parts('win32')), Object.keys(linux));
    assert.deepEqual(Object.keys(parts('darwin')), Object.keys(linux));
    assert.ok(Object.values(linux).every((v) => v === 'ci'), JSON.stringify(linux));
    for (const platform of ['win32', 'darwin'] as const) {
      const these = parts(platform);
      assert.equal(these['accessibility tree'], 'protocol', platform);
      assert.equal(these['stop hotkey and takeover'], 'protocol', platform);
      assert.equal(these['Record Steps'], 'unavailable', platform);
    }
  });

  it('gai doctor prints them with the meaning of each word', async () => {
    const run = await runCliCaptured(['doctor'], { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' });
    assert.match(run.stdout, /^What GAI does on linux, and what checks it \(ci: verified by GAI's CI on real desktops\):$/m);
    assert.match(run.stdout, /^ {2}accessibility tree {7}ci {10}AT-SPI through a python3 helper/m);
    const json = JSON.parse((await runCliCaptured(['doctor', '--json'], { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' })).stdout) as { support: Array<{ part: string; verified: string }> };
    assert.deepEqual(json.support.map((p) => p.part), platformSupport('linux').map((p) => p.part));
  });

  it('says on an arm64 Linux or Windows that libnut has no addon there, in one line instead of the paths bindings tried', () => {
    assert.equal(platformSupport('win32', 'arm64').find((p) => p.part === 'screen and input')?.verified, 'unavailable');
    assert.match(platformSupport('linux', 'arm64').find((p) => p.part === 'screen and input')?.how ?? '', /no arm64 addon/);
    assert.equal(platformSupport('darwin', 'arm64').find((p) => p.part === 'screen and input')?.verified, 'packaged');
    const bindings = new Error("Could not locate the bindings file. Tried:\n → /x/build/libnut.node\n → /x/build/Debug/libnut.node");
    const said = nutMissing(bindings);
    assert.ok(said instanceof DesktopUnavailableError);
    assert.match(said.message, /^mouse, keyboard and screen capture are not available on \w+-\w+: nut-js's libnut publishes no prebuilt addon for this CPU$/);
    assert.doesNotMatch(said.message, /Tried/);
    const other = new Error('EACCES');
    assert.equal(nutMissing(other), other);
  });
});
