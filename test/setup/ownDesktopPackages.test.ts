// What GAI's own desktop needs, per distribution family: os-release read as the distributions
// write it, each family's package names (pinned: checked against the distributions' packaging),
// the install lines, and which parts a machine lacks, found as the own desktop would look.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DISTRO_FAMILIES,
  distroFamily,
  installLine,
  installSteps,
  OWN_DESKTOP_PARTS,
  packagesFor,
  parseOsRelease,
  type DistroFamily,
} from '../../src/platform/linux/ownDesktopPackages';
import { checkOwnDesktop, installOwnDesktopPackages } from '../../src/platform/linux/ownDesktopReadiness';
import { tempDir } from '../support/cliHarness';

/** os-release files as these distributions ship them (trimmed to the fields that matter). */
const RELEASES: Record<string, { text: string; family: DistroFamily | undefined }> = {
  debian12: { text: 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n', family: 'debian' },
  ubuntu2404: { text: 'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\nUBUNTU_CODENAME=noble\n', family: 'debian' },
  mint: { text: 'NAME="Linux Mint"\nID=linuxmint\nID_LIKE="ubuntu debian"\n', family: 'debian' },
  fedora41: { text: 'NAME="Fedora Linux"\nVERSION="41 (Container Image)"\nID=fedora\nPRETTY_NAME="Fedora Linux 41 (Container Image)"\n', family: 'fedora' },
  rocky9: { text: 'NAME="Rocky Linux"\nID="rocky"\nID_LIKE="rhel centos fedora"\n', family: 'fedora' },
  alpine320: { text: 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.20.3\nPRETTY_NAME="Alpine Linux v3.20"\n', family: 'alpine' },
  arch: { text: 'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n', family: 'arch' },
  manjaro: { text: 'NAME="Manjaro Linux"\nID=manjaro\nID_LIKE=arch\n', family: 'arch' },
  tumbleweed: { text: 'PRETTY_NAME="openSUSE Tumbleweed"\nID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n', family: undefined },
};

describe("GAI's own desktop: packages per distribution", () => {
  it('reads os-release as written (quotes, escapes, comments) and finds the family by ID, then ID_LIKE', () => {
    const parsed = parseOsRelease('# a comment\nID="rocky"\nID_LIKE="rhel centos fedora"\nPRETTY_NAME="Rocky \\"Blue Onyx\\""\nBAD LINE\n');
    assert.deepEqual(parsed, { id: 'rocky', idLike: ['rhel', 'centos', 'fedora'], prettyName: 'Rocky "Blue Onyx"' });
    for (const [name, release] of Object.entries(RELEASES)) assert.equal(distroFamily(parseOsRelease(release.text)), release.family, name);
    // ID before ID_LIKE: a distribution that is its own family is not taken for the one it resembles.
    assert.equal(distroFamily(parseOsRelease('ID=fedora\nID_LIKE=debian\n')), 'fedora');
    assert.deepEqual(parseOsRelease(''), { id: 'linux', idLike: [], prettyName: undefined });
  });

  it('names every part on every family, with the packages those distributions really have', () => {
    for (const part of OWN_DESKTOP_PARTS) for (const family of DISTRO_FAMILIES) assert.ok(part.packages[family].length > 0, `${part.name} on ${family}`);
    // The whole set, pinned: a rename here is a deliberate change, checked against the distribution.
    assert.deepEqual(
      Object.fromEntries(DISTRO_FAMILIES.map((family) => [family, packagesFor(family, OWN_DESKTOP_PARTS).join(' ')])),
      {
        debian: 'xvfb openbox x11-utils xdotool dbus-x11 at-spi2-core python3 python3-gi gir1.2-atspi-2.0 python3-xlib fonts-dejavu-core',
        fedora: 'xorg-x11-server-Xvfb openbox xprop xwininfo xdotool dbus-x11 at-spi2-core python3 python3-gobject python3-xlib dejavu-sans-fonts',
        alpine: 'xvfb openbox xprop xwininfo xdotool dbus-x11 at-spi2-core python3 py3-gobject3 py3-xlib font-dejavu',
        arch: 'xorg-server-xvfb openbox xorg-xprop xorg-xwininfo xdotool dbus at-spi2-core python python-gobject python-xlib ttf-dejavu',
      },
    );
  });

  it('installs through each family\'s package manager, non-interactively; with sudo for anyone but root', () => {
    const lines = Object.fromEntries(DISTRO_FAMILIES.map((family) => [family, installLine(installSteps(family, ['a', 'b']), false)]));
    assert.deepEqual(lines, {
      debian: 'sudo apt-get update && sudo apt-get install -y --no-install-recommends a b',
      fedora: 'sudo dnf install -y a b',
      alpine: 'sudo apk add --no-cache a b',
      arch: 'sudo pacman -Syu --needed --noconfirm a b',
    });
    assert.equal(installLine(installSteps('fedora', ['a']), true), 'dnf install -y a');
  });

  it("the README's per-distribution lines are the ones gai doctor prints for a bare machine", () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    for (const family of DISTRO_FAMILIES) {
      const line = installLine(installSteps(family, packagesFor(family, OWN_DESKTOP_PARTS)), false);
      assert.ok(readme.includes(`\n${line}\n`), `README lacks the ${family} line: ${line}`);
    }
  });
});

describe("GAI's own desktop: what this machine lacks", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir('gai-own-parts-')));
  afterEach(() => dir.remove());

  /** A folder of executables by these names, for PATH. */
  const programs = (...names: string[]): string => {
    const bin = join(dir.path, 'bin');
    mkdirSync(bin, { recursive: true });
    for (const name of names) {
      writeFileSync(join(bin, name), '#!/bin/sh\n');
      chmodSync(join(bin, name), 0o755);
    }
    return bin;
  };
  const osRelease = (text: string): string => {
    const file = join(dir.path, 'os-release');
    writeFileSync(file, text);
    return file;
  };

  it('names the missing programs, the accessibility bus launcher and the fonts, and the line that installs just those', async function () {
    if (process.platform !== 'linux') this.skip();
    const bin = programs('Xvfb', 'xprop', 'dbus-launch'); // xwininfo missing: its part is missing
    const emptyFonts = join(dir.path, 'fonts');
    mkdirSync(join(emptyFonts, 'misc'), { recursive: true });
    writeFileSync(join(emptyFonts, 'misc', '6x13.pcf.gz'), ''); // a bitmap font does not count
    const own = await checkOwnDesktop(
      { PATH: bin },
      { osReleaseFile: osRelease(RELEASES.alpine320!.text), asRoot: false, fontDirs: [emptyFonts], helperDirs: [join(dir.path, 'libexec')] },
    );
    assert.equal(own.ok, false);
    const parts = own.missing.map((part) => part.name);
    for (const name of ['openbox', 'xprop, xwininfo', 'xdotool', 'at-spi-bus-launcher', 'fonts']) assert.ok(parts.includes(name), `${name} not reported missing: ${parts.join('; ')}`);
    assert.ok(!parts.includes('Xvfb') && !parts.includes('dbus-launch'), parts.join('; '));
    assert.equal(own.family, 'alpine');
    assert.match(own.install!.line, /^sudo apk add --no-cache openbox xprop xwininfo xdotool at-spi2-core .*font-dejavu$/);
    assert.doesNotMatch(own.install!.line, / xvfb | dbus-x11 /);
    assert.match(own.detail, /^missing openbox, xprop, xwininfo, xdotool, at-spi-bus-launcher.*; on Alpine: sudo apk add/);
  });

  it('finds a part once it is there: a launcher in libexec, a TrueType font in a subfolder', async function () {
    if (process.platform !== 'linux') this.skip();
    const bin = programs('Xvfb', 'openbox', 'xprop', 'xwininfo', 'xdotool', 'dbus-launch');
    mkdirSync(join(dir.path, 'libexec'));
    writeFileSync(join(dir.path, 'libexec', 'at-spi-bus-launcher'), '#!/bin/sh\n');
    chmodSync(join(dir.path, 'libexec', 'at-spi-bus-launcher'), 0o755);
    mkdirSync(join(dir.path, 'fonts', 'truetype', 'dejavu'), { recursive: true });
    writeFileSync(join(dir.path, 'fonts', 'truetype', 'dejavu', 'DejaVuSans.ttf'), '');
    const own = await checkOwnDesktop({ PATH: bin }, { osReleaseFile: osRelease(RELEASES.debian12!.text), fontDirs: [join(dir.path, 'fonts')], helperDirs: [join(dir.path, 'libexec')] });
    const parts = own.missing.map((part) => part.name);
    for (const name of ['Xvfb', 'openbox', 'xprop, xwininfo', 'xdotool', 'dbus-launch', 'at-spi-bus-launcher', 'fonts']) assert.ok(!parts.includes(name), `${name} reported missing`);
  });

  it('says what is missing and every family\'s packages for it on a distribution it does not know', async function () {
    if (process.platform !== 'linux') this.skip();
    const own = await checkOwnDesktop({ PATH: programs() }, { osReleaseFile: osRelease(RELEASES.tumbleweed!.text), asRoot: true });
    assert.equal(own.install, undefined);
    assert.match(own.detail, /GAI knows no package names for openSUSE Tumbleweed \(ID=opensuse-tumbleweed, ID_LIKE=opensuse suse\)/);
    assert.match(own.detail, /Debian\/Ubuntu: xvfb openbox x11-utils .*; Fedora: xorg-x11-server-Xvfb .*; Alpine: xvfb .*; Arch: xorg-server-xvfb /);
  });

  it('runs the install steps in order, passes their output on, and stops at the first that fails', async () => {
    const written: string[] = [];
    const node = process.execPath;
    const outcome = await installOwnDesktopPackages(
      [
        [node, '-e', 'console.log("step one ran")'],
        [node, '-e', 'process.exit(3)'],
        [node, '-e', 'console.log("never")'],
      ],
      process.env,
      (text) => written.push(text),
    );
    assert.equal(outcome.ok, false);
    assert.match(outcome.detail, /process\.exit\(3\) failed \(3\)$/);
    const text = written.join('');
    assert.match(text, /step one ran/);
    assert.doesNotMatch(text, /never/);
    const missing = await installOwnDesktopPackages([['gai-no-such-package-manager', 'install']], process.env, () => undefined);
    assert.match(missing.detail, /could not start gai-no-such-package-manager: .*ENOENT/);
  });
});
