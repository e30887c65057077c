// `gai doctor` on a machine without GAI's own desktop's programs (PATH of an empty folder), told
// which distribution it is by an os-release file: it names the install line of that distribution's
// package manager, and `--fix` runs it (as root) or prints it with sudo.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliCaptured, tempDir } from '../support/cliHarness';

const RELEASES = {
  'Debian/Ubuntu': { text: 'ID=ubuntu\nID_LIKE=debian\nPRETTY_NAME="Ubuntu 24.04.1 LTS"\n', line: 'apt-get update && (sudo )?apt-get install -y --no-install-recommends xvfb openbox x11-utils xdotool dbus-x11' },
  Fedora: { text: 'ID=fedora\nPRETTY_NAME="Fedora Linux 41"\n', line: 'dnf install -y xorg-x11-server-Xvfb openbox xprop xwininfo xdotool dbus-x11' },
  Alpine: { text: 'ID=alpine\nPRETTY_NAME="Alpine Linux v3.20"\n', line: 'apk add --no-cache xvfb openbox xprop xwininfo xdotool dbus-x11' },
  Arch: { text: 'ID=arch\nPRETTY_NAME="Arch Linux"\n', line: 'pacman -Syu --needed --noconfirm xorg-server-xvfb openbox xorg-xprop xorg-xwininfo xdotool dbus' },
} as const;

describe("gai doctor: GAI's own desktop's packages, per distribution", function () {
  // Each run loads nut-js, sharp and an OCR worker, as `gai doctor` does.
  this.timeout(60_000);
  let dir: ReturnType<typeof tempDir>;
  let env: Record<string, string>;

  before(function () {
    if (process.platform !== 'linux') this.skip();
  });
  beforeEach(() => {
    dir = tempDir('gai-doctor-');
    mkdirSync(join(dir.path, 'empty-bin'));
    env = { PATH: join(dir.path, 'empty-bin'), HOME: dir.path };
  });
  afterEach(() => dir.remove());

  const withRelease = (text: string): Record<string, string> => {
    const file = join(dir.path, 'os-release');
    writeFileSync(file, text);
    return { ...env, GAI_OS_RELEASE: file };
  };

  for (const [family, release] of Object.entries(RELEASES)) {
    it(`names ${family}'s install line from its os-release`, async () => {
      const run = await runCliCaptured(['doctor'], withRelease(release.text));
      const row = /^ {2}own desktop note {2}(.*)$/m.exec(run.stdout)?.[1];
      assert.ok(row, run.stdout);
      assert.match(row, new RegExp(`^missing Xvfb, openbox, xprop, xwininfo, xdotool, dbus-launch.*; on ${family.replace('/', '\\/')}: (sudo )?${release.line}$`));
      assert.match(run.stdout, /or: gai doctor --fix/);
      assert.match(run.stdout, /GAI's own desktop is missing some/);
      // A note, not a failure: the person's own display may be all they use.
      assert.equal(run.code, 0, run.stdout + run.stderr);
    });
  }

  it('--json carries the distribution, what is missing and the line', async () => {
    const run = await runCliCaptured(['doctor', '--json'], withRelease(RELEASES.Fedora.text));
    const own = (JSON.parse(run.stdout) as { ownDesktop: { ok: boolean; missing: string[]; distribution: { id: string; family: string }; install: string } }).ownDesktop;
    assert.equal(own.ok, false);
    assert.deepEqual(own.distribution, { id: 'fedora', idLike: [], family: 'fedora' });
    assert.deepEqual(own.missing.slice(0, 4), ['Xvfb', 'openbox', 'xprop, xwininfo', 'xdotool']);
    assert.match(own.install, new RegExp(`^(sudo )?${RELEASES.Fedora.line}`));
  });

  it('--fix runs the line as root (here dnf, absent, so it fails saying so) or prints it with sudo, and exits 1', async () => {
    const run = await runCliCaptured(['doctor', '--fix'], withRelease(RELEASES.Fedora.text));
    assert.equal(run.code, 1, run.stdout + run.stderr);
    if (process.getuid?.() === 0) {
      assert.match(run.stderr, /gai doctor --fix: installing Xvfb, openbox/);
      assert.match(run.stderr, new RegExp(`\\$ ${RELEASES.Fedora.line}`));
      assert.match(run.stderr, /could not start dnf: .*ENOENT/);
    } else {
      assert.match(run.stderr, new RegExp(`installing needs root; run:\\n {2}sudo ${RELEASES.Fedora.line}`));
    }
    assert.match(run.stdout, /own desktop note {2}missing Xvfb/);
  });

  it('--fix on a distribution it does not know installs nothing and says what each family would need', async () => {
    const run = await runCliCaptured(['doctor', '--fix'], withRelease('ID=opensuse-tumbleweed\nID_LIKE="opensuse suse"\n'));
    assert.equal(run.code, 1);
    assert.match(run.stderr, /gai doctor --fix: missing Xvfb.*GAI knows no package names for opensuse-tumbleweed.*Fedora: xorg-x11-server-Xvfb/);
    assert.doesNotMatch(run.stderr, /\$ /);
  });
});
