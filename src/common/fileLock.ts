import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import { GaiError } from './errors';
import { sleep } from './timing';
import { isCode } from './atomicFile';

// A lock file created with O_EXCL: whoever creates it holds it. It says who (pid, host) and
// since when, so a lock left by a process that died is broken instead of blocking forever.

export interface LockOptions {
  /** A lock older than this is broken even if its process seems alive. Default 30 s (writes take ms). */
  staleMs?: number;
  /** How long to wait for the lock before BRAIN_LOCKED. Default 10 s. */
  timeoutMs?: number;
  /** Polling interval while waiting (a little jitter is added). Default 15 ms. */
  retryMs?: number;
  now?: () => number;
  /** Whether a process of this host is running; injectable for tests. */
  isAlive?: (pid: number) => boolean;
}

export interface LockInfo {
  pid: number;
  host: string;
  at: string;
  token: string;
}

/** A lock file that was broken on the way in, and why (reported as a warning). */
export interface BrokenLock {
  holder: string;
  reason: string;
}

export class FileLock {
  private constructor(
    readonly file: string,
    private readonly token: string,
    readonly broken: BrokenLock[],
  ) {}

  static async acquire(file: string, options: LockOptions = {}): Promise<FileLock> {
    const now = options.now ?? Date.now;
    const staleMs = options.staleMs ?? 30_000;
    const timeoutMs = options.timeoutMs ?? 10_000;
    const retryMs = options.retryMs ?? 15;
    const isAlive = options.isAlive ?? processAlive;
    const token = randomBytes(8).toString('hex');
    const broken: BrokenLock[] = [];
    const started = Date.now();
    for (;;) {
      const info: LockInfo = { pid: process.pid, host: os.hostname(), at: new Date(now()).toISOString(), token };
      if (await tryCreate(file, info)) return new FileLock(file, token, broken);
      const held = await readHolder(file);
      if (held !== undefined) {
        const reason = staleReason(held, { now: now(), staleMs, isAlive });
        const outcome = reason ? await breakLock(file, held.text) : 'kept';
        if (outcome === 'broken') broken.push({ holder: held.text.trim().slice(0, 200) || '(empty lock file)', reason: reason ?? '' });
        if (outcome === 'broken' || outcome === 'gone') continue;
      }
      if (Date.now() - started >= timeoutMs) {
        throw new GaiError('BRAIN_LOCKED', `${file} is held by ${held?.text.trim().slice(0, 200) || 'another process'} (waited ${timeoutMs} ms)`);
      }
      await sleep(retryMs + Math.random() * retryMs);
    }
  }

  /** Whether the lock file is still ours (nobody broke it as stale). */
  async isHeld(): Promise<boolean> {
    const held = await readHolder(this.file);
    return held?.info?.token === this.token;
  }

  /** Removes the lock file if it is still ours. */
  async release(): Promise<void> {
    if (await this.isHeld()) await fs.rm(this.file, { force: true });
  }
}

async function tryCreate(file: string, info: LockInfo): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o600);
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(info));
  } finally {
    await handle.close();
  }
  return true;
}

interface Holder {
  text: string;
  info?: LockInfo;
  /** Modification time of the lock file, ms. */
  mtimeMs: number;
}

async function readHolder(file: string): Promise<Holder | undefined> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    return { text, info: parseInfo(text), mtimeMs: stat.mtimeMs };
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

function parseInfo(text: string): LockInfo | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockInfo>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'string' && typeof value.token === 'string') {
      return value as LockInfo;
    }
  } catch {
    // an empty or partly written lock file: judged by its age
  }
  return undefined;
}

/** Why a lock is stale, or undefined when it must be waited for. */
function staleReason(held: Holder, context: { now: number; staleMs: number; isAlive: (pid: number) => boolean }): string | undefined {
  if (!held.info) {
    // Its creator writes the content right after creating it: only an old unreadable lock is stale.
    return context.now - held.mtimeMs > Math.min(context.staleMs, 2_000) ? 'unreadable and old' : undefined;
  }
  if (held.info.host === os.hostname() && !context.isAlive(held.info.pid)) return `process ${held.info.pid} is not running`;
  const age = context.now - Date.parse(held.info.at);
  if (!(age <= context.staleMs)) return `older than ${Math.round(context.staleMs / 1000)} s`;
  return undefined;
}

/**
 * Moves the stale lock away under a unique name (only one breaker can move a given file), then
 * checks that the moved file is the one judged stale: if a new holder's lock was moved
 * instead, it is put back when the name is still free.
 */
async function breakLock(file: string, staleText: string): Promise<'broken' | 'gone' | 'raced'> {
  const aside = `${file}.broken-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 'gone'; // someone else removed it: try again at once
    throw error;
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => '');
  if (moved !== staleText) {
    await fs.link(aside, file).catch(() => undefined);
    await fs.rm(aside, { force: true });
    return 'raced';
  }
  await fs.rm(aside, { force: true });
  return 'broken';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return isCode(error, 'EPERM');
  }
}
