import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
}

/** Resolves true once the child has exited, or false when it is still running after the timeout. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(hasExited(child));
    }, timeoutMs);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

export function exitText(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `exit code ${child.exitCode ?? 'unknown'}`;
}

/**
 * Lets Node exit while a long-lived helper runs: neither the child nor its pipes hold the event
 * loop. What waits on the helper keeps Node alive by its own timer.
 */
export function unrefChild(child: ChildProcess): void {
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
}

/**
 * Starts node on `args` detached in its own session, its output appended to `logPath` (0600):
 * a background process that outlives this one. `exitCode()` is undefined while it runs.
 */
export function spawnDetachedNode(args: string[], logPath: string, env: NodeJS.ProcessEnv): { exitCode(): number | null | undefined } {
  const log = openSync(logPath, 'a', 0o600);
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env });
  closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  return { exitCode: () => exited };
}
