import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { sleep } from './timing';

// Files that are never half-written: a new version goes to a temporary file in the same
// directory, is flushed to disk, and replaces the old one by rename (atomic on one file
// system), after the old one has become the backup.

/** The text of a file, or undefined when it does not exist. */
export async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: string };

export function parseJson(text: string): ParsedJson {
  if (text.trim() === '') return { ok: false, reason: 'the file is empty' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
}

export interface AtomicWriteOptions {
  /** Where the current file is kept before it is replaced (previous version). */
  backup?: string;
  /** Runs just before the rename that commits; throw to abandon the write (e.g. the lock was lost). */
  beforeCommit?: () => Promise<void>;
}

/** Writes `text` to `file` atomically and durably; on failure the old file is untouched. */
export async function writeAtomic(file: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempName(file);
  try {
    await writeDurably(temp, text);
    if (options.backup) await keepBackup(file, options.backup);
    await options.beforeCommit?.();
    await renameRetrying(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(path.dirname(file));
}

/** Renames a file out of the way as `<file>.<suffix>`; returns the new name, or undefined if there was no file. */
export async function moveAside(file: string, suffix: string): Promise<string | undefined> {
  const target = `${file}.${suffix}`;
  try {
    await fs.rename(file, target);
    return target;
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** Copies a file durably (a temporary copy renamed into place). */
export async function copyDurably(from: string, to: string): Promise<void> {
  const text = await fs.readFile(from);
  const temp = tempName(to);
  try {
    await writeDurably(temp, text);
    await fs.rename(temp, to);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes temporary files of `file` left by writers that died before renaming them. Only
 * safe while holding the lock: every writer writes under it.
 */
export async function removeTempFiles(file: string): Promise<number> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.tmp-`;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => name.startsWith(prefix));
  await Promise.all(stale.map((name) => fs.rm(path.join(dir, name), { force: true })));
  return stale.length;
}

/** A file-name-safe time for suffixes: 2025-01-02T03-04-05-678Z. */
export function fileTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Windows refuses to replace a file another process has open for a moment: retry briefly. */
async function renameRetrying(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.rename(from, to);
    } catch (error) {
      if (attempt >= 10 || !['EPERM', 'EACCES', 'EBUSY'].some((code) => isCode(error, code))) throw error;
      await sleep(10 * (attempt + 1));
    }
  }
}

function tempName(file: string): string {
  return `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

async function writeDurably(file: string, data: string | Buffer): Promise<void> {
  const handle = await fs.open(file, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The current file becomes the backup without copying: a second name for it (hard link)
 * renamed over the old backup. The current file is only ever replaced, never changed in
 * place, so the backup keeps its content. Where links are not supported, a copy.
 */
async function keepBackup(file: string, backup: string): Promise<void> {
  const temp = tempName(file);
  try {
    await fs.link(file, temp);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return; // nothing to back up yet
    await copyDurably(file, backup);
    return;
  }
  try {
    await fs.rename(temp, backup);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable; directories cannot be opened on Windows: best effort.
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // ignored: the data is already flushed, only the directory entry may be lost on power loss
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
