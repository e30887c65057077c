import { GaiError } from '../../common/errors';
import { BRAIN_VERSION, isoTime, LAUNCHER_KEY, nodeKey, timeOf, type BrainNode, type BrainPath, type PathAction } from './brainTypes';
import { buildFingerprint } from '../recognition/fingerprint';
import { recomputeMetadata } from './brainRecords';
import { normalizeTarget } from '../recognition/targetMatch';

// Older brain documents are brought to BRAIN_VERSION one step at a time on load; the result
// is then validated like any document. Version 0 is the seed's JSON storage:
//   { nodes: [{ programName, stateHash, description?, windowTitle?, ocrText?, timestamp? }],
//     paths: [{ id, fromNodeId: {programName, stateHash} | null, toNodeId, description?,
//               actions: [{ type: 'click', x?, y?, text? } | { type: 'type', text }
//                         | { type: 'key', key, modifiers? } | { type: 'wait', duration }
//                         | { type: 'launch' | 'spotlight', appName }],
//               metadata: { successRate, usageCount, createdAt?, lastUsed? } }] }
// without a `version` field (or with version 0).

export interface MigrationResult {
  document: unknown;
  fromVersion: number;
  warnings: string[];
}

interface MigrationContext {
  now: number;
  warnings: string[];
}

type Migration = (document: Record<string, unknown>, context: MigrationContext) => Record<string, unknown>;

/** MIGRATIONS[n] turns version n into n + 1. */
const MIGRATIONS: Migration[] = [migrateV0toV1, migrateV1toV2, migrateV2toV3];

/** The document's version: its `version` field, 0 for the seed's shape without one, undefined if neither. */
export function documentVersion(raw: unknown): number | undefined {
  if (!isObject(raw)) return undefined;
  if (typeof raw.version === 'number' && Number.isInteger(raw.version) && raw.version >= 0) return raw.version;
  if (raw.version === undefined && ('nodes' in raw || 'paths' in raw)) return 0;
  return undefined;
}

/**
 * Brings a parsed document to the current version. Throws BRAIN_VERSION for a newer version
 * (written by a newer GAI: never overwritten) and BRAIN_INVALID when no version is recognisable.
 */
export function migrateDocument(raw: unknown, context: { now: number }): MigrationResult {
  const fromVersion = documentVersion(raw);
  if (fromVersion === undefined || !isObject(raw)) throw new GaiError('BRAIN_INVALID', 'version: not a brain document (no version, nodes or paths)');
  if (fromVersion > BRAIN_VERSION) {
    throw new GaiError('BRAIN_VERSION', `version: ${fromVersion} was written by a newer GAI (this one reads up to ${BRAIN_VERSION})`);
  }
  const warnings: string[] = [];
  let document = raw;
  for (let version = fromVersion; version < BRAIN_VERSION; version++) {
    const migration = MIGRATIONS[version];
    if (!migration) throw new GaiError('BRAIN_VERSION', `version: no migration from ${version}`);
    document = migration(document, { now: context.now, warnings });
  }
  return { document, fromVersion, warnings };
}

function migrateV0toV1(old: Record<string, unknown>, context: MigrationContext): Record<string, unknown> {
  const now = isoTime(context.now);
  const nodes = new Map<string, BrainNode>();
  const addNode = (id: unknown, extra: Record<string, unknown> = {}): string | undefined => {
    if (!isObject(id) || typeof id.programName !== 'string' || typeof id.stateHash !== 'string' || !id.programName || !id.stateHash) return undefined;
    const key = nodeKey(id.programName, id.stateHash);
    if (nodes.has(key)) return key;
    const windowTitle = text(extra.windowTitle) ?? '';
    const seen = time(extra.timestamp) ?? now;
    nodes.set(key, {
      key,
      programName: id.programName,
      stateHash: id.stateHash.slice(0, 64),
      label: (text(extra.description) ?? (windowTitle || id.programName)).slice(0, 200),
      windowTitle: windowTitle.slice(0, 500),
      fingerprint: buildFingerprint({ programName: id.programName, windowTitle, lines: (text(extra.ocrText) ?? '').split('\n') }),
      firstSeen: seen,
      lastSeen: seen,
      visits: 0,
      updatedAt: now,
    });
    return key;
  };
  for (const node of list(old.nodes)) addNode(node, isObject(node) ? node : {});

  const paths: BrainPath[] = [];
  list(old.paths).forEach((raw, i) => {
    if (!isObject(raw)) return void context.warnings.push(`paths.${i}: not an object; dropped`);
    const id = (text(raw.id) ?? `v0-path-${i}`).replace(/[^A-Za-z0-9_.:-]/g, '-').slice(0, 80);
    const to = addNode(raw.toNodeId);
    const from = raw.fromNodeId === null || raw.fromNodeId === undefined ? LAUNCHER_KEY : addNode(raw.fromNodeId);
    if (!to || !from) return void context.warnings.push(`paths.${i} (${id}): fromNodeId/toNodeId is not a {programName, stateHash}; dropped`);
    const actions: PathAction[] = [];
    for (const [a, action] of list(raw.actions).entries()) {
      const converted = convertAction(action);
      if (!converted) return void context.warnings.push(`paths.${i}.actions.${a} (${id}): ${JSON.stringify(action)} has no version 1 form; path dropped`);
      actions.push(converted);
    }
    if (actions.length === 0) return void context.warnings.push(`paths.${i} (${id}): no actions; dropped`);
    const metadata = isObject(raw.metadata) ? raw.metadata : {};
    const usage = Math.max(0, Math.round(num(metadata.usageCount) ?? 0));
    const rate = Math.min(1, Math.max(0, num(metadata.successRate) ?? 1));
    const successes = Math.round(rate * usage);
    const createdAt = time(metadata.createdAt) ?? now;
    const path: BrainPath = {
      id,
      from,
      to,
      targets: [text(raw.description)].filter((t) => t !== undefined).map(normalizeTarget).filter(Boolean),
      actions,
      metadata: {
        successRate: rate,
        usageCount: usage,
        successes,
        failures: usage - successes,
        avgDurationMs: 0,
        createdAt,
        lastUsedAt: time(metadata.lastUsed) ?? createdAt,
        tally: usage > 0 ? { v0: { successes, failures: usage - successes, durationMs: 0 } } : {},
      },
      revision: 1,
      updatedAt: now,
    };
    recomputeMetadata(path.metadata);
    paths.push(path);
  });
  return { version: 1, nodes: [...nodes.values()], paths, forgotten: [], updatedAt: now };
}

/**
 * Version 2 lets a node carry a screen signature (optional): a version 1 document is a valid
 * version 2 one as it is; its nodes get a signature the next time OCR identifies them.
 */
function migrateV1toV2(old: Record<string, unknown>): Record<string, unknown> {
  return { ...old, version: 2 };
}

/** Version 3 adds routines (Record Steps): an older document has none. */
function migrateV2toV3(old: Record<string, unknown>): Record<string, unknown> {
  return { ...old, version: 3, routines: [] };
}

function convertAction(action: unknown): PathAction | undefined {
  if (!isObject(action)) return undefined;
  const x = num(action.x);
  const y = num(action.y);
  const point = x !== undefined && y !== undefined && x >= 0 && y >= 0 ? { x, y } : undefined;
  switch (action.type) {
    case 'click': {
      const label = text(action.text);
      if (!label && !point) return undefined;
      return { tool: 'click', input: label ? { text: label } : {}, ...(point ? { point } : {}) };
    }
    case 'type': {
      const typed = text(action.text);
      return typed ? { tool: 'type_text', input: { text: typed } } : undefined;
    }
    case 'key':
    case 'keypress': {
      const key = text(action.key);
      const modifiers = list(action.modifiers).filter((m): m is 'command' | 'ctrl' | 'alt' | 'shift' => ['command', 'ctrl', 'alt', 'shift'].includes(m as string));
      return key ? { tool: 'press_key', input: modifiers.length ? { key, modifiers } : { key } } : undefined;
    }
    case 'wait':
      // Fixed sleeps become waits for the screen to settle, bounded by the old duration (at least 1 s).
      return { tool: 'wait', input: { until: 'settled', timeoutMs: Math.min(60_000, Math.max(1_000, Math.round(num(action.duration) ?? 1_000))) } };
    case 'launch':
    case 'spotlight': {
      const appName = text(action.appName) ?? text(action.query);
      return appName ? { tool: 'launch_app', input: { appName } } : undefined;
    }
    default:
      return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  // The seed kept nodes in a map keyed by `programName::stateHash` too.
  return isObject(value) ? Object.values(value) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** ISO strings and epoch milliseconds, as ISO. */
function time(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return isoTime(value);
  if (typeof value === 'string' && timeOf(value) > 0) return isoTime(timeOf(value));
  return undefined;
}
