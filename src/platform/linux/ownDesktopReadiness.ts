// Whether this machine has what GAI's own desktop needs (ownDesktopPackages.ts), found the way the
// own desktop and the desktop bridge find them: programs on PATH, the accessibility bus launcher
// in libexec, python3 (Debian's /usr/bin/python3 first, run with -E) and its modules, a scalable
// font. `gai doctor` reports it and names the install line; `gai doctor --fix` runs it as root.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  distroFamily,
  FAMILY_NAMES,
  installLine,
  installSteps,
  OWN_DESKTOP_PARTS,
  packagesFor,
  readOsRelease,
  type DistroFamily,
  type OsRelease,
  type OwnDesktopPart,
} from './ownDesktopPackages';

export interface OwnDesktopReadiness {
  ok: boolean;
  /** One line: what was found, or what is missing. */
  detail: string;
  missing: OwnDesktopPart[];
  release?: OsRelease;
  family?: DistroFamily;
  /** How to install the missing parts here; absent when nothing is missing or the family is unknown. */
  install?: { steps: string[][]; line: string; asRoot: boolean };
}

export interface ReadinessOptions {
  /** Default /etc/os-release (else /usr/lib/os-release). */
  osReleaseFile?: string;
  asRoot?: boolean;
  /** Where fonts are looked for; default the system's and the user's font folders. */
  fontDirs?: string[];
  /** Where the accessibility bus launcher is looked for (distributions put libexec in different places). */
  helperDirs?: string[];
}

const HELPER_DIRS = ['/usr/libexec', '/usr/lib/at-spi2-core', '/usr/lib', '/usr/lib64', '/usr/libexec/at-spi2', '/usr/lib/at-spi2'];
const SCALABLE_FONT = /\.(ttf|otf|ttc)$/i;
const FONT_DEPTH = 4;
const PYTHON_TIMEOUT_MS = 15_000;
/** The interpreter the desktop bridge runs: Debian's own first (python3-gi is installed for it), else python3 on PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

// Each import on its own: a missing typelib must not hide that gi itself is there.
const PYTHON_PROBE = `
import json
found = {'gi': False, 'Atspi': False, 'Xlib': False}
try:
    import gi
    found['gi'] = True
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
    found['Atspi'] = True
except Exception:
    pass
try:
    import Xlib.display
    found['Xlib'] = True
except Exception:
    pass
print(json.dumps(found))
`;

export async function checkOwnDesktop(env: NodeJS.ProcessEnv, options: ReadinessOptions = {}): Promise<OwnDesktopReadiness> {
  const asRoot = options.asRoot ?? process.getuid?.() === 0;
  const python = PYTHON.startsWith('/') || onPath(PYTHON, env);
  const modules = python ? await pythonModules(env) : { gi: false, Atspi: false, Xlib: false };
  const fontDirs = options.fontDirs ?? defaultFontDirs(env);
  const helperDirs = options.helperDirs ?? HELPER_DIRS;
  const present = (part: OwnDesktopPart): boolean => {
    const probe = part.probe;
    switch (probe.kind) {
      case 'commands':
        return probe.names.every((name) => onPath(name, env));
      case 'helper':
        return helperDirs.some((dir) => isExecutable(join(dir, probe.name)));
      case 'python':
        return python;
      case 'pythonModule':
        return modules[probe.module];
      case 'fonts':
        return fontDirs.some((dir) => hasScalableFont(dir, FONT_DEPTH));
    }
  };
  const missing = OWN_DESKTOP_PARTS.filter((part) => !present(part));
  const release = readOsRelease(options.osReleaseFile);
  const family = release ? distroFamily(release) : undefined;
  if (missing.length === 0) {
    return { ok: true, missing, release, family, detail: `${OWN_DESKTOP_PARTS.map((p) => p.name).join(', ')} found: GAI's own desktop (--desktop own) can run here, with no display of yours` };
  }
  const names = missing.map((part) => part.name).join(', ');
  if (!family) {
    const on = release ? `${release.prettyName ?? release.id} (ID=${release.id}${release.idLike.length ? `, ID_LIKE=${release.idLike.join(' ')}` : ''})` : 'this system (no os-release)';
    const known = (Object.keys(FAMILY_NAMES) as DistroFamily[]).map((f) => `${FAMILY_NAMES[f]}: ${packagesFor(f, missing).join(' ')}`).join('; ');
    return { ok: false, missing, release, family, detail: `missing ${names}; GAI knows no package names for ${on}. Their packages elsewhere: ${known}` };
  }
  const steps = installSteps(family, packagesFor(family, missing));
  const line = installLine(steps, asRoot);
  return { ok: false, missing, release, family, install: { steps, line, asRoot }, detail: `missing ${names}; on ${FAMILY_NAMES[family]}: ${line}` };
}

/**
 * Runs the install steps one after another, their output passed to `write`; stops at the first
 * that fails. Only as root: the caller prints the line for anyone else.
 */
export async function installOwnDesktopPackages(steps: readonly string[][], env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<{ ok: boolean; detail: string }> {
  for (const step of steps) {
    write(`$ ${step.join(' ')}\n`);
    const [program, ...args] = step;
    if (!program) continue;
    const outcome = await runStep(program, args, env, write);
    if (outcome !== 0) return { ok: false, detail: `${step.join(' ')} failed (${outcome})` };
  }
  return { ok: true, detail: 'installed' };
}

function runStep(program: string, args: string[], env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<number | string> {
  return new Promise((done) => {
    // No questions from apt (tzdata and the like): nobody answers them here.
    const child = spawn(program, args, { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => write(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => write(chunk.toString()));
    child.on('error', (error) => done(`could not start ${program}: ${error.message}`));
    child.on('close', (code, signal) => done(code ?? `signal ${signal ?? 'unknown'}`));
  });
}

function pythonModules(env: NodeJS.ProcessEnv): Promise<Record<'gi' | 'Atspi' | 'Xlib', boolean>> {
  return new Promise((done) => {
    // -E as the bridge runs it: a PYTHONPATH meant for another interpreter must not count.
    execFile(PYTHON, ['-E', '-c', PYTHON_PROBE], { env, timeout: PYTHON_TIMEOUT_MS }, (error, stdout) => {
      try {
        if (error) throw error;
        const found = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, boolean>;
        done({ gi: found.gi === true, Atspi: found.Atspi === true, Xlib: found.Xlib === true });
      } catch {
        done({ gi: false, Atspi: false, Xlib: false });
      }
    });
  });
}

function defaultFontDirs(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  return ['/usr/share/fonts', '/usr/local/share/fonts', join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'fonts'), join(home, '.fonts')];
}

function hasScalableFont(dir: string, depth: number): boolean {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  if (entries.some((entry) => !entry.isDirectory() && SCALABLE_FONT.test(entry.name))) return true;
  return depth > 0 && entries.some((entry) => entry.isDirectory() && hasScalableFont(join(dir, entry.name), depth - 1));
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
