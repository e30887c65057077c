import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

// Where the CLI keeps the navigation brain: `--brain-dir DIR`, else $GAI_BRAIN_DIR, else the
// config file's `brain.dir`, else the user data folder of the platform.

export interface BrainDirSources {
  /** `--brain-dir`. */
  flag?: string;
  env: Record<string, string | undefined>;
  /** `brain.dir` from the config file. */
  configured?: string;
  /** Injectable for tests; default: this process's. */
  platform?: NodeJS.Platform;
  home?: string;
  cwd?: string;
}

/** The brain directory (absolute); relative choices are taken from the current directory. */
export function resolveBrainDir(sources: BrainDirSources): string {
  const platform = sources.platform ?? process.platform;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const chosen = [sources.flag, sources.env.GAI_BRAIN_DIR, sources.configured].find((d): d is string => d !== undefined && d.trim() !== '');
  if (chosen !== undefined) return paths.resolve(sources.cwd ?? process.cwd(), chosen);
  return userDataDir(sources.env, platform, sources.home ?? homedir());
}

/** `$XDG_DATA_HOME/gai` or `~/.local/share/gai`; `~/Library/Application Support/gai`; `%APPDATA%\gai`. */
export function userDataDir(env: Record<string, string | undefined>, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'gai');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'gai');
  // The XDG spec says to ignore a relative XDG_DATA_HOME.
  const xdg = env.XDG_DATA_HOME;
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.local', 'share'), 'gai');
}

/** Creates the directory (and missing parents) private to the user; an existing one is left as it is. */
export async function ensureBrainDir(dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
