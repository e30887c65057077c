import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The running processes as /proc shows them: their ids and command lines, read only.

export interface RunningProcess {
  pid: number;
  /** The command line, argv[0] first; empty for a kernel thread. */
  args: string[];
  /** Its /proc folder, to read more of it (environ). */
  dir: string;
}

/** Every process /proc lists whose command line can be read (none off Linux or without /proc). */
export function runningProcesses(procRoot = '/proc'): RunningProcess[] {
  if (process.platform !== 'linux' && procRoot === '/proc') return [];
  let entries: string[];
  try {
    entries = readdirSync(procRoot).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: RunningProcess[] = [];
  for (const entry of entries) {
    const dir = join(procRoot, entry);
    const args = readArgs(join(dir, 'cmdline'));
    if (args) found.push({ pid: Number(entry), args, dir });
  }
  return found.sort((a, b) => a.pid - b.pid);
}

function readArgs(file: string): string[] | undefined {
  try {
    return readFileSync(file, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return undefined; // gone, or another user's
  }
}
