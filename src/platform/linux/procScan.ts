import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The running processes as /proc shows them: their ids, command lines and parents, read only.

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

/**
 * The process's parent, its parent's parent, and so on up to init (not included): the terminal
 * or editor a command was started from is among them. None off Linux or without /proc.
 */
export function ancestorPids(pid = process.pid, procRoot = '/proc'): number[] {
  if (process.platform !== 'linux' && procRoot === '/proc') return [];
  const found: number[] = [];
  let current = pid;
  while (found.length < 64) {
    const parent = parentOf(join(procRoot, String(current), 'stat'));
    if (parent === undefined || parent <= 1 || found.includes(parent)) break;
    found.push(parent);
    current = parent;
  }
  return found;
}

/** The ppid field of /proc/N/stat, read after the command name (which may hold spaces and parentheses). */
function parentOf(statFile: string): number | undefined {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function readArgs(file: string): string[] | undefined {
  return readProcFile(file)?.split('\0').filter((a) => a !== '');
}

/** A /proc file of a process (cmdline, environ, maps); undefined when it is gone or another user's. */
export function readProcFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The processes (not this one) whose environment holds `name=value`: e.g. what a private desktop's bus started. */
export function processesWithEnv(name: string, value: string, procRoot = '/proc'): number[] {
  const wanted = `${name}=${value}\0`;
  return runningProcesses(procRoot)
    .filter((p) => p.pid !== process.pid && (readProcFile(join(p.dir, 'environ')) ?? '').includes(wanted))
    .map((p) => p.pid);
}

/** Asks each to end (SIGTERM) and waits until they have (a zombie has), at most `timeoutMs`. */
export async function endProcesses(pids: readonly number[], timeoutMs = 3_000, procRoot = '/proc'): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const alive = (pid: number): boolean => {
    const stat = readProcFile(join(procRoot, String(pid), 'stat'));
    return stat !== undefined && !/^\d+ \(.*\) Z/s.test(stat);
  };
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
