// What GAI's own desktop (Xvfb + openbox, ownDesktop.ts) needs from the system, and each part's
// package on the four distribution families `gai doctor --fix` installs on: Debian/Ubuntu (apt),
// Fedora (dnf), Alpine (apk) and Arch (pacman). The family comes from os-release's ID and ID_LIKE.
// Names checked against each distribution's packaging (Fedora split x11-utils into xprop and
// xwininfo; Alpine and Fedora ship the Atspi typelib in at-spi2-core; Arch's dbus has dbus-launch).
// Tesseract is not here: OCR runs in-process (tesseract.js, wasm).
import { readFileSync } from 'node:fs';

export type DistroFamily = 'debian' | 'fedora' | 'alpine' | 'arch';

export const DISTRO_FAMILIES: readonly DistroFamily[] = ['debian', 'fedora', 'alpine', 'arch'];

export const FAMILY_NAMES: Readonly<Record<DistroFamily, string>> = {
  debian: 'Debian/Ubuntu',
  fedora: 'Fedora',
  alpine: 'Alpine',
  arch: 'Arch',
};

/** How a part is found on this machine (ownDesktopReadiness.ts). */
export type PartProbe =
  | { kind: 'commands'; names: readonly string[] }
  /** A helper program outside PATH (the accessibility bus launcher lives in libexec). */
  | { kind: 'helper'; name: string }
  | { kind: 'python' }
  /** Imported by the desktop bridge's python3 helper, under `python3 -E`. */
  | { kind: 'pythonModule'; module: 'gi' | 'Atspi' | 'Xlib' }
  | { kind: 'fonts' };

export interface OwnDesktopPart {
  /** What it is, as `gai doctor` names it when missing. */
  name: string;
  /** What GAI does with it. */
  why: string;
  probe: PartProbe;
  packages: Readonly<Record<DistroFamily, readonly string[]>>;
}

const same = (...names: string[]): Record<DistroFamily, readonly string[]> => ({ debian: names, fedora: names, alpine: names, arch: names });

export const OWN_DESKTOP_PARTS: readonly OwnDesktopPart[] = [
  {
    name: 'Xvfb',
    why: 'the own desktop\'s X server',
    probe: { kind: 'commands', names: ['Xvfb'] },
    packages: { debian: ['xvfb'], fedora: ['xorg-x11-server-Xvfb'], alpine: ['xvfb'], arch: ['xorg-server-xvfb'] },
  },
  { name: 'openbox', why: 'its window manager', probe: { kind: 'commands', names: ['openbox'] }, packages: same('openbox') },
  {
    name: 'xprop, xwininfo',
    why: 'window manager readiness; the active window when the bridge cannot run',
    probe: { kind: 'commands', names: ['xprop', 'xwininfo'] },
    packages: { debian: ['x11-utils'], fedora: ['xprop', 'xwininfo'], alpine: ['xprop', 'xwininfo'], arch: ['xorg-xprop', 'xorg-xwininfo'] },
  },
  { name: 'xdotool', why: 'input on the own desktop', probe: { kind: 'commands', names: ['xdotool'] }, packages: same('xdotool') },
  {
    name: 'dbus-launch',
    why: 'the D-Bus session GLib starts for each X display (apps\' accessibility bus comes through it)',
    probe: { kind: 'commands', names: ['dbus-launch'] },
    packages: { debian: ['dbus-x11'], fedora: ['dbus-x11'], alpine: ['dbus-x11'], arch: ['dbus'] },
  },
  { name: 'at-spi-bus-launcher', why: 'the accessibility bus (AT-SPI)', probe: { kind: 'helper', name: 'at-spi-bus-launcher' }, packages: same('at-spi2-core') },
  {
    name: 'python3',
    why: 'the desktop bridge\'s helper (windows and the accessibility tree)',
    probe: { kind: 'python' },
    packages: { debian: ['python3'], fedora: ['python3'], alpine: ['python3'], arch: ['python'] },
  },
  {
    name: 'PyGObject (python3 gi)',
    why: 'the helper reads the accessibility tree through it',
    probe: { kind: 'pythonModule', module: 'gi' },
    packages: { debian: ['python3-gi'], fedora: ['python3-gobject'], alpine: ['py3-gobject3'], arch: ['python-gobject'] },
  },
  {
    name: 'Atspi typelib',
    why: 'the AT-SPI client library for gi',
    probe: { kind: 'pythonModule', module: 'Atspi' },
    packages: { debian: ['gir1.2-atspi-2.0'], fedora: ['at-spi2-core'], alpine: ['at-spi2-core'], arch: ['at-spi2-core'] },
  },
  {
    name: 'python-xlib',
    why: 'the helper\'s X connection (windows, the stop hotkey)',
    probe: { kind: 'pythonModule', module: 'Xlib' },
    packages: { debian: ['python3-xlib'], fedora: ['python3-xlib'], alpine: ['py3-xlib'], arch: ['python-xlib'] },
  },
  {
    name: 'fonts',
    why: 'apps on the own desktop draw text (and OCR reads it) only with a font installed',
    probe: { kind: 'fonts' },
    packages: { debian: ['fonts-dejavu-core'], fedora: ['dejavu-sans-fonts'], alpine: ['font-dejavu'], arch: ['ttf-dejavu'] },
  },
];

/** The fields of os-release that say which distribution this is. */
export interface OsRelease {
  id: string;
  idLike: string[];
  prettyName?: string;
}

/** os-release(5): KEY=value lines, values optionally quoted with shell-style escapes. */
export function parseOsRelease(text: string): OsRelease {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)=(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\(["\\`$])/g, '$1');
    }
    fields.set(match[1]!, value);
  }
  const words = (value: string | undefined): string[] => (value ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return { id: words(fields.get('ID'))[0] ?? 'linux', idLike: words(fields.get('ID_LIKE')), prettyName: fields.get('PRETTY_NAME') };
}

/** /etc/os-release, else /usr/lib/os-release (as the spec says); undefined when neither reads. */
export function readOsRelease(file?: string): OsRelease | undefined {
  for (const path of file ? [file] : ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return parseOsRelease(readFileSync(path, 'utf8'));
    } catch {
      // the next one
    }
  }
  return undefined;
}

const FAMILY_IDS: ReadonlyArray<[DistroFamily, readonly string[]]> = [
  ['debian', ['debian', 'ubuntu']],
  // RHEL and its rebuilds say ID_LIKE="rhel centos fedora"; openbox and xdotool come from EPEL there.
  ['fedora', ['fedora', 'rhel', 'centos']],
  ['alpine', ['alpine']],
  ['arch', ['arch', 'archlinux']],
];

/** The family by ID first, then by ID_LIKE in its order (closest first, as the spec says). */
export function distroFamily(release: OsRelease): DistroFamily | undefined {
  for (const id of [release.id, ...release.idLike]) {
    const family = FAMILY_IDS.find(([, ids]) => ids.includes(id))?.[0];
    if (family) return family;
  }
  return undefined;
}

/** The packages of these parts on a family, each once, in the parts' order. */
export function packagesFor(family: DistroFamily, parts: readonly OwnDesktopPart[]): string[] {
  return [...new Set(parts.flatMap((part) => part.packages[family]))];
}

/** The commands that install `packages`, as argv lists run one after another (as root). */
export function installSteps(family: DistroFamily, packages: readonly string[]): string[][] {
  switch (family) {
    case 'debian':
      return [
        ['apt-get', 'update'],
        ['apt-get', 'install', '-y', '--no-install-recommends', ...packages],
      ];
    case 'fedora':
      return [['dnf', 'install', '-y', ...packages]];
    case 'alpine':
      return [['apk', 'add', '--no-cache', ...packages]];
    case 'arch':
      // -Syu: a fresh container has no sync database, and Arch does not support -Sy alone.
      return [['pacman', '-Syu', '--needed', '--noconfirm', ...packages]];
  }
}

/** The steps as one shell line, each step with `sudo` when this is not root. */
export function installLine(steps: readonly string[][], asRoot: boolean): string {
  return steps.map((step) => (asRoot ? step : ['sudo', ...step]).join(' ')).join(' && ');
}
