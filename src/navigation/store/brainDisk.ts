import { errorMessage, isGaiError } from '../../common/errors';
import { BRAIN_VERSION, type BrainDocument } from './brainTypes';
import { copyDurably, fileTime, moveAside, parseJson, readText, writeAtomic } from '../../common/atomicFile';
import { migrateDocument } from './brainMigrations';
import { emptyDocument } from './brainRecords';
import { validateDocument } from './brainValidation';

// Reading brain.json and deciding what to do when it is missing, corrupt or old: restore the
// backup, keep the bad file aside, migrate and keep the original. Nothing is emptied silently.

export interface BrainFiles {
  file: string;
  backup: string;
}

/** What reading found, and the repairs to make under the lock before anything else is written. */
export interface DiskState {
  document: BrainDocument;
  warnings: string[];
  /** The text of brain.json as read, when it was valid and current (to skip unchanged writes). */
  text?: string;
  repair?: {
    /** Files to move aside as `<file>.corrupt-<time>`. */
    moveAside: string[];
    /** Copy brain.json to `brain.json.v<n>` before the migrated version replaces it. */
    keepOriginalAs?: string;
    /** Write `document` as brain.json (restored or migrated). */
    write: boolean;
  };
}

type Loaded = { ok: true; document: BrainDocument; fromVersion: number; migrationWarnings: string[] } | { ok: false; reason: string };

/** Reads brain.json (falling back to the backup) without changing any file. Throws BRAIN_VERSION for newer files. */
export async function readDisk(files: BrainFiles, now: number): Promise<DiskState> {
  const mainText = await readText(files.file);
  const main = mainText === undefined ? undefined : load(mainText, now);
  if (main?.ok) {
    if (main.fromVersion === BRAIN_VERSION) return { document: main.document, warnings: [], text: mainText };
    return {
      document: main.document,
      warnings: [`brain.json migrated from version ${main.fromVersion} to ${BRAIN_VERSION}; the original is kept as brain.json.v${main.fromVersion}`, ...main.migrationWarnings],
      repair: { moveAside: [], keepOriginalAs: `${files.file}.v${main.fromVersion}`, write: true },
    };
  }
  const backupText = await readText(files.backup);
  const backup = backupText === undefined ? undefined : load(backupText, now);
  const problem = main === undefined ? 'brain.json is missing' : `brain.json is unreadable (${main.reason})`;
  if (backup?.ok) {
    const kept = main === undefined ? '' : `; the unreadable file is kept as brain.json.corrupt-<time>`;
    return {
      document: backup.document,
      warnings: [`${problem}: restored from brain.json.bak of ${backup.document.updatedAt}${kept}`, ...backup.migrationWarnings],
      repair: { moveAside: main === undefined ? [] : [files.file], write: true },
    };
  }
  if (main === undefined && backup === undefined) return { document: emptyDocument(now), warnings: [] };
  const bad = [main === undefined ? undefined : files.file, backup === undefined ? undefined : files.backup].filter((f) => f !== undefined);
  const backupProblem = backup === undefined ? 'there is no backup' : `brain.json.bak is unreadable too (${backup.ok ? '' : backup.reason})`;
  return {
    document: emptyDocument(now),
    warnings: [`${problem} and ${backupProblem}: starting with an empty brain; kept aside as ${bad.map((f) => `${baseName(f)}.corrupt-<time>`).join(' and ')}`],
    repair: { moveAside: bad, write: false },
  };
}

/** Makes the repairs readDisk asked for; call while holding the lock. Returns the names used. */
export async function applyRepairs(files: BrainFiles, state: DiskState, now: number): Promise<string[]> {
  const repair = state.repair;
  if (!repair) return [];
  const moved: string[] = [];
  for (const file of repair.moveAside) {
    const target = await moveAside(file, `corrupt-${fileTime(now)}`);
    if (target) moved.push(target);
  }
  if (repair.keepOriginalAs && (await readText(repair.keepOriginalAs)) === undefined) await copyDurably(files.file, repair.keepOriginalAs);
  return moved;
}

export function serializeDocument(document: BrainDocument): string {
  return `${JSON.stringify(document, null, 1)}\n`;
}

export async function writeDocument(files: BrainFiles, document: BrainDocument, beforeCommit?: () => Promise<void>): Promise<string> {
  const text = serializeDocument(document);
  await writeAtomic(files.file, text, { backup: files.backup, ...(beforeCommit ? { beforeCommit } : {}) });
  return text;
}

function load(text: string, now: number): Loaded {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  let migrated;
  try {
    migrated = migrateDocument(parsed.value, { now });
  } catch (error) {
    if (isGaiError(error, 'BRAIN_VERSION')) throw error; // a newer GAI's file: never replaced
    return { ok: false, reason: errorMessage(error) };
  }
  const checked = validateDocument(migrated.document);
  if (!checked.ok) return { ok: false, reason: checked.errors.slice(0, 3).join('; ') };
  return { ok: true, document: checked.document, fromVersion: migrated.fromVersion, migrationWarnings: migrated.warnings };
}

function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}
