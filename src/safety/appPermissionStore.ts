import { mkdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { FileLock } from '../common/fileLock';
import { parseJson, readText, writeAtomic } from '../common/atomicFile';
import { GaiError, errorMessage } from '../common/errors';

// Where the person's "always" and "never" answers to "Allow GAI to act in <app>?" are kept:
// a JSON file for the CLI, the extension's global state in VS Code (src/vscode). A store that
// cannot be read throws: GAI must not forget a "never" and act as if nothing had been decided.

export type StoredAppDecision = 'always' | 'never';

export interface AppPermissionStore {
  /** Where the decisions are kept, for messages ("~/.config/gai/app-permissions.json"). */
  readonly where: string;
  /** Throws a CONFIG GaiError when the stored decisions are unreadable or invalid. */
  get(appKey: string): Promise<StoredAppDecision | undefined>;
  set(appKey: string, decision: StoredAppDecision): Promise<void>;
  /** Every stored decision by app key. */
  all(): Promise<Record<string, StoredAppDecision>>;
}

export const APP_PERMISSIONS_VERSION = 1;
/** More apps than anyone decides about; bounds the file and what is read on every action. */
export const MAX_STORED_APPS = 2_000;
const MAX_KEY_LENGTH = 200;
/** Far above MAX_STORED_APPS entries; a bigger file is not ours. */
const MAX_FILE_BYTES = 1_000_000;

const StoredPermissionsSchema = Type.Object(
  {
    version: Type.Literal(APP_PERMISSIONS_VERSION),
    apps: Type.Record(
      Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH }),
      Type.Object(
        { decision: Type.Union([Type.Literal('always'), Type.Literal('never')]), decidedAt: Type.Optional(Type.String({ maxLength: 40 })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type StoredPermissions = Static<typeof StoredPermissionsSchema>;

// Not the tool-input validator: its limits (200 fields an object) are for model input.
const checker = TypeCompiler.Compile(StoredPermissionsSchema);

/** Checks stored permissions from any source (file, VS Code state); throws CONFIG naming `where`. */
export function validateStoredPermissions(value: unknown, where: string): StoredPermissions {
  if (!checker.Check(value)) {
    const problems = [...checker.Errors(value)].slice(0, 3).map((e) => `${e.path || '/'}: ${e.message}`);
    throw corrupt(where, `not valid (${problems.join('; ')})`);
  }
  const count = Object.keys(value.apps).length;
  if (count > MAX_STORED_APPS) throw corrupt(where, `${count} apps, more than the limit of ${MAX_STORED_APPS}`);
  return value;
}

export function emptyPermissions(): StoredPermissions {
  return { version: APP_PERMISSIONS_VERSION, apps: {} };
}

/** The decisions with one changed; refuses to grow past the limit. */
export function withDecision(current: StoredPermissions, appKey: string, decision: StoredAppDecision, now = new Date()): StoredPermissions {
  if (appKey.length > MAX_KEY_LENGTH) throw new GaiError('INVALID_INPUT', `app name: longer than ${MAX_KEY_LENGTH} characters`);
  if (!(appKey in current.apps) && Object.keys(current.apps).length >= MAX_STORED_APPS) {
    throw new GaiError('CONFIG', `cannot remember more than ${MAX_STORED_APPS} apps; remove some decisions first`);
  }
  return { ...current, apps: { ...current.apps, [appKey]: { decision, decidedAt: now.toISOString() } } };
}

function corrupt(where: string, problem: string): GaiError {
  return new GaiError(
    'CONFIG',
    `app permissions ${where}: ${problem}. Fix or delete it (your "always"/"never" answers are kept there); until then GAI acts in no application`,
  );
}

function decisionsOf(stored: StoredPermissions): Record<string, StoredAppDecision> {
  return Object.fromEntries(Object.entries(stored.apps).map(([key, entry]) => [key, entry.decision]));
}

/** The CLI's store: `<config dir>/gai/app-permissions.json`, locked, re-read before each change, written atomically. */
export class JsonFileAppPermissionStore implements AppPermissionStore {
  readonly where: string;

  constructor(readonly file: string) {
    this.where = `file ${file}`;
  }

  async get(appKey: string): Promise<StoredAppDecision | undefined> {
    return (await this.read()).apps[appKey]?.decision;
  }

  async all(): Promise<Record<string, StoredAppDecision>> {
    return decisionsOf(await this.read());
  }

  async set(appKey: string, decision: StoredAppDecision): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    // Another gai process may be answering for another app at the same moment: lock, re-read, merge.
    const lock = await FileLock.acquire(`${this.file}.lock`, { timeoutMs: 5_000 });
    try {
      const next = withDecision(await this.read(), appKey, decision);
      await writeAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
    } finally {
      await lock.release();
    }
  }

  /** Removes the decision kept for an app (it is asked about again); false: none was kept. */
  async forget(appKey: string): Promise<boolean> {
    // Nothing kept (or no folder yet): nothing to lock.
    if (!(appKey in (await this.read()).apps)) return false;
    const lock = await FileLock.acquire(`${this.file}.lock`, { timeoutMs: 5_000 });
    try {
      const current = await this.read();
      if (!(appKey in current.apps)) return false;
      const { [appKey]: _forgotten, ...apps } = current.apps;
      await writeAtomic(this.file, `${JSON.stringify({ ...current, apps }, null, 2)}\n`);
      return true;
    } finally {
      await lock.release();
    }
  }

  private async read(): Promise<StoredPermissions> {
    let text: string | undefined;
    try {
      const size = await stat(this.file).then((s) => s.size, (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? 0 : Promise.reject(error)));
      if (size > MAX_FILE_BYTES) throw new Error(`${size} bytes, more than ${MAX_FILE_BYTES}`);
      text = await readText(this.file);
    } catch (error) {
      throw corrupt(this.where, `cannot read it (${errorMessage(error)})`);
    }
    if (text === undefined) return emptyPermissions();
    const parsed = parseJson(text);
    if (!parsed.ok) throw corrupt(this.where, parsed.reason);
    return validateStoredPermissions(parsed.value, this.where);
  }
}

/** Decisions kept in memory only (tests; hosts with nowhere to persist). */
export class MemoryAppPermissionStore implements AppPermissionStore {
  readonly where = 'memory (not persisted)';
  private stored = emptyPermissions();

  get(appKey: string): Promise<StoredAppDecision | undefined> {
    return Promise.resolve(this.stored.apps[appKey]?.decision);
  }

  all(): Promise<Record<string, StoredAppDecision>> {
    return Promise.resolve(decisionsOf(this.stored));
  }

  set(appKey: string, decision: StoredAppDecision): Promise<void> {
    this.stored = withDecision(this.stored, appKey, decision);
    return Promise.resolve();
  }
}
