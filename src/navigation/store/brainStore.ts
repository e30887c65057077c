import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorMessage, GaiError, isGaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import { applyRepairs, readDisk, serializeDocument, writeDocument, type BrainFiles, type DiskState } from './brainDisk';
import { removeTempFiles } from '../../common/atomicFile';
import { DEFAULT_BRAIN_LIMITS, isPruneEmpty, pruneDocument, shrinkToSize, type BrainLimits, type PruneReport } from './brainLimits';
import { FileLock, type LockOptions } from '../../common/fileLock';
import { mergeDocuments } from './brainMerge';
import { migrateDocument } from './brainMigrations';
import { emptyDocument, forgetNode, forgetPath, renameNode, type RecordContext } from './brainRecords';
import { isoTime, type BrainDocument, type BrainNode, type BrainPath } from './brainTypes';
import { confirmPath, markImported } from '../routes/pathTrust';
import { assertDocument } from './brainValidation';

// The brain on disk: one versioned JSON document in a directory, shared safely by several
// processes (two VS Code windows, the CLI beside the extension). Every change is
// lock → reload → merge what this process holds → mutate → prune → validate → atomic write.

export const BRAIN_FILE_NAME = 'brain.json';

export interface BrainStoreOptions {
  logger?: Logger;
  limits?: Partial<BrainLimits>;
  now?: () => number;
  /** Whose counts this process adds (see brainRecords). Default: one id per machine. */
  writerId?: string;
  /** Lock timing; its clock is the real one unless given here (lock age is real time). */
  lock?: LockOptions;
}

export interface BrainUpdate<T> {
  document: BrainDocument;
  result: T;
  warnings: string[];
  pruned: PruneReport;
  /** False when the change left the document as it was on disk. */
  written: boolean;
}

export type BrainMutator<T> = (draft: BrainDocument, context: RecordContext) => T;

export interface ImportSummary {
  nodesAdded: number;
  pathsAdded: number;
  nodes: number;
  paths: number;
}

export class BrainStore {
  readonly file: string;
  readonly backupFile: string;
  readonly lockFile: string;
  readonly writerId: string;
  private current?: BrainDocument;
  private readonly limits: BrainLimits;
  private readonly now: () => number;
  /** Updates of one store run one after another instead of polling for their own lock. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly options: BrainStoreOptions,
  ) {
    this.file = path.join(dir, BRAIN_FILE_NAME);
    this.backupFile = `${this.file}.bak`;
    this.lockFile = `${this.file}.lock`;
    this.writerId = options.writerId ?? defaultWriterId();
    this.limits = { ...DEFAULT_BRAIN_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  /** Base64 characters one node's thumbnail may have: a larger one would be pruned on save. */
  get maxThumbnailBytes(): number {
    return this.limits.maxThumbnailBytes;
  }

  /**
   * Loads `<dir>/brain.json` (creating the directory). A missing, corrupt or old file is
   * restored from the backup or migrated under the lock, with warnings; a file from a newer
   * GAI throws BRAIN_VERSION and is left alone.
   */
  static async open(dir: string, options: BrainStoreOptions = {}): Promise<{ store: BrainStore; document: BrainDocument; warnings: string[] }> {
    await fs.mkdir(dir, { recursive: true });
    const store = new BrainStore(dir, options);
    const { document, warnings } = await store.reload();
    return { store, document, warnings };
  }

  /** The document as last loaded or written. Read-only: change it through update(). */
  get document(): BrainDocument {
    this.current ??= emptyDocument(this.now());
    return this.current;
  }

  /** Reads the file again (what other processes committed), repairing it under the lock if needed. */
  async reload(): Promise<{ document: BrainDocument; warnings: string[] }> {
    let state = await readDisk(this.files, this.now());
    const warnings: string[] = [];
    if (state.repair) {
      await this.withLock(warnings, async (lock) => {
        state = await readDisk(this.files, this.now()); // it may have been repaired meanwhile
        await this.repair(state, lock);
      });
    }
    warnings.push(...state.warnings);
    this.current = this.current === undefined ? state.document : mergeDocuments(state.document, this.current);
    this.report(warnings);
    return { document: this.current, warnings };
  }

  /**
   * Applies `mutator` to a draft of the newest committed document merged with this process's
   * copy, under the lock, then writes it. The mutator must find things by key and id (the
   * draft is a new object) and be synchronous (the lock is held meanwhile). If it throws, or
   * the result is invalid (BRAIN_INVALID), nothing is written.
   */
  async update<T>(mutator: BrainMutator<T>): Promise<BrainUpdate<T>> {
    const warnings: string[] = [];
    const outcome = await this.withLock(warnings, async (lock) => {
      await removeTempFiles(this.file);
      await removeTempFiles(this.backupFile);
      const disk = await readDisk(this.files, this.now());
      warnings.push(...disk.warnings);
      await this.repair(disk, lock, false);
      const now = this.now();
      const draft = structuredClone(this.current === undefined ? disk.document : mergeDocuments(disk.document, this.current));
      const result = mutator(draft, { now, writerId: this.writerId });
      const pruned = pruneDocument(draft, this.limits, now);
      const document = canonical(assertDocument(draft, 'brain document after the change'));
      const asBefore = serializeDocument({ ...document, updatedAt: disk.document.updatedAt });
      if (disk.text !== undefined && !disk.repair && asBefore === disk.text) return { document: disk.document, result, pruned, written: false };
      if (asBefore.length > this.limits.maxFileBytes) {
        const shrunk = shrinkToSize(document, this.limits, now, (d) => serializeDocument(d).length);
        pruned.nodes.push(...shrunk.nodes);
        pruned.paths.push(...shrunk.paths);
        pruned.thumbnails.push(...shrunk.thumbnails);
      }
      if (!isPruneEmpty(pruned)) warnings.push(`brain limits: pruned ${pruned.nodes.length} node(s), ${pruned.paths.length} path(s), ${pruned.thumbnails.length} thumbnail(s)`);
      document.updatedAt = isoTime(now);
      await writeDocument(this.files, document, () => this.checkHeld(lock));
      return { document, result, pruned, written: true };
    });
    this.current = outcome.document;
    this.report(warnings);
    return { ...outcome, warnings };
  }

  /** A copy of the whole document, e.g. for `gai brain export`. */
  export(): BrainDocument {
    return structuredClone(this.document);
  }

  /**
   * Imports a document (any version this GAI can migrate). It is validated first: when invalid,
   * BRAIN_INVALID names the fields and nothing is written. `merge` unites it with the brain
   * (what was forgotten here stays forgotten); `replace` makes it the brain.
   */
  async import(value: unknown, options: { mode: 'merge' | 'replace' }): Promise<BrainUpdate<ImportSummary>> {
    let migrated;
    try {
      migrated = migrateDocument(structuredClone(value), { now: this.now() });
    } catch (error) {
      throw new GaiError(isGaiError(error) ? error.code : 'BRAIN_INVALID', `Invalid brain document to import: ${errorMessage(error)}`, { cause: error });
    }
    const incoming = assertDocument(migrated.document, 'brain document to import');
    markImported(incoming, this.now());
    const update = await this.update((draft, context) => {
      const before = { nodes: new Set(draft.nodes.map((n) => n.key)), paths: new Set(draft.paths.map((p) => p.id)) };
      const next = options.mode === 'merge' ? mergeDocuments(draft, incoming) : replaceWith(draft, incoming, context.now);
      Object.assign(draft, next);
      return {
        nodesAdded: draft.nodes.filter((n) => !before.nodes.has(n.key)).length,
        pathsAdded: draft.paths.filter((p) => !before.paths.has(p.id)).length,
        nodes: draft.nodes.length,
        paths: draft.paths.length,
      };
    });
    return { ...update, warnings: [...migrated.warnings, ...update.warnings] };
  }

  /** Forgets a node and every path from or to it; returns the removed path ids. */
  async forgetNode(key: string): Promise<string[]> {
    return (await this.update((draft, context) => forgetNode(draft, key, context.now))).result;
  }

  /** The person confirmed an imported path step by step: it replays without asking. */
  async confirmPath(id: string): Promise<BrainPath> {
    return (await this.update((draft, context) => confirmPath(draft, id, context.now))).result;
  }

  async forgetPath(id: string): Promise<void> {
    await this.update((draft, context) => forgetPath(draft, id, context.now));
  }

  async renameNode(key: string, label: string): Promise<BrainNode> {
    return (await this.update((draft, context) => renameNode(draft, key, label, context.now))).result;
  }

  private get files(): BrainFiles {
    return { file: this.file, backup: this.backupFile };
  }

  private withLock<T>(warnings: string[], body: (lock: FileLock) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const lock = await FileLock.acquire(this.lockFile, this.options.lock);
      for (const broken of lock.broken) warnings.push(`broke a stale brain lock (${broken.reason}): ${broken.holder}`);
      try {
        return await body(lock);
      } finally {
        await lock.release();
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Moves bad files aside and, unless the caller writes next anyway, writes the restored document. */
  private async repair(state: DiskState, lock: FileLock, writeNow = true): Promise<void> {
    if (!state.repair) return;
    const moved = await applyRepairs(this.files, state, this.now());
    if (moved.length > 0) state.warnings.push(`kept aside: ${moved.map((f) => path.basename(f)).join(', ')}`);
    if (writeNow && state.repair.write) await writeDocument(this.files, canonical(state.document), () => this.checkHeld(lock));
  }

  private async checkHeld(lock: FileLock): Promise<void> {
    if (!(await lock.isHeld())) throw new GaiError('BRAIN_LOCKED', `${this.lockFile} was taken over while writing; nothing was written`);
  }

  private report(warnings: readonly string[]): void {
    for (const warning of warnings) this.options.logger?.warn(`brain: ${warning}`);
  }
}

/** The replacement, with tombstones for what it drops so that other processes' copies do not bring it back. */
function replaceWith(current: BrainDocument, incoming: BrainDocument, now: number): BrainDocument {
  const at = isoTime(now);
  const keys = new Set(incoming.nodes.map((n) => n.key));
  const ids = new Set(incoming.paths.map((p) => p.id));
  const dropped = [
    ...current.nodes.filter((n) => !keys.has(n.key)).map((n) => ({ kind: 'node' as const, id: n.key, at })),
    ...current.paths.filter((p) => !ids.has(p.id)).map((p) => ({ kind: 'path' as const, id: p.id, at })),
  ];
  const kept = [...current.forgotten, ...incoming.forgotten].filter((t) => !(t.kind === 'node' ? keys.has(t.id) : ids.has(t.id)));
  const revisions = new Map(current.paths.map((p) => [p.id, p.revision]));
  const replacement = structuredClone(incoming);
  // Newer than every copy of the old brain other processes may hold, so merges keep the replacement.
  for (const node of replacement.nodes) node.updatedAt = at;
  for (const p of replacement.paths) {
    p.revision = Math.max(p.revision, revisions.get(p.id) ?? 0) + 1;
    p.updatedAt = at;
  }
  return { ...replacement, forgotten: [...kept, ...dropped] };
}

function canonical(document: BrainDocument): BrainDocument {
  document.nodes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  document.paths.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return document;
}

/** One writer id a machine: processes of one machine take turns under the lock. */
function defaultWriterId(): string {
  return `host-${createHash('sha1').update(os.hostname()).digest('hex').slice(0, 8)}`;
}
