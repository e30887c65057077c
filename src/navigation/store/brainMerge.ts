import { BRAIN_VERSION, LAUNCHER_KEY, timeOf, type BrainDocument, type BrainNode, type BrainPath, type PathMetadata, type Tombstone } from './brainTypes';
import { recomputeMetadata } from './brainRecords';
import type { Routine } from './routineTypes';

// Merging two copies of a brain (the file on disk and what a process holds, or an import):
// the union by node key and path id, nothing counted twice, explicit forgets respected.

const MAX_TARGETS = 50;

/**
 * `base` wins ties (pass the committed file as `base`). Nodes: first seen earliest, last seen
 * latest, visits the larger, label and thumbnail from the newer `updatedAt`. Paths: actions and
 * ends from the higher revision, targets united, counts per writer the larger of the two (a
 * writer's counts only grow), times the earliest creation and the latest use. An item older
 * than a tombstone for it is dropped; a tombstone older than a surviving item is dropped.
 * The result shares unchanged objects with the inputs: clone it before changing it in place.
 */
export function mergeDocuments(base: BrainDocument, other: BrainDocument): BrainDocument {
  const tombstones = mergeTombstones(base.forgotten, other.forgotten);
  const nodes = mergeById(base.nodes, other.nodes, (n) => n.key, mergeNode).filter((n) => !buried(tombstones, 'node', n.key, nodeTime(n)));
  const keys = new Set(nodes.map((n) => n.key));
  const paths = mergeById(base.paths, other.paths, (p) => p.id, mergePath).filter(
    (p) => !buried(tombstones, 'path', p.id, timeOf(p.updatedAt)) && (p.from === LAUNCHER_KEY || keys.has(p.from)) && keys.has(p.to),
  );
  const routines = mergeById(base.routines, other.routines, (r) => r.id, mergeRoutine).filter((r) => !buried(tombstones, 'routine', r.id, timeOf(r.updatedAt)));
  const alive = new Set([...nodes.map((n) => `node:${n.key}`), ...paths.map((p) => `path:${p.id}`), ...routines.map((r) => `routine:${r.id}`)]);
  return {
    version: BRAIN_VERSION,
    nodes,
    paths,
    routines,
    forgotten: [...tombstones.values()].filter((t) => !alive.has(`${t.kind}:${t.id}`)),
    updatedAt: latest(base.updatedAt, other.updatedAt),
  };
}

function mergeById<T>(base: readonly T[], other: readonly T[], id: (item: T) => string, merge: (a: T, b: T) => T): T[] {
  const merged = new Map<string, T>();
  for (const item of base) merged.set(id(item), item);
  for (const item of other) {
    const known = merged.get(id(item));
    merged.set(id(item), known === undefined || known === item ? item : merge(known, item));
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

function mergeNode(base: BrainNode, other: BrainNode): BrainNode {
  const newer = timeOf(other.updatedAt) > timeOf(base.updatedAt) ? other : base;
  const lastSeen = timeOf(other.lastSeen) > timeOf(base.lastSeen) ? other : base;
  const merged: BrainNode = {
    ...base,
    label: newer.label,
    updatedAt: newer.updatedAt,
    windowTitle: lastSeen.windowTitle,
    firstSeen: earliest(base.firstSeen, other.firstSeen),
    lastSeen: lastSeen.lastSeen,
    visits: Math.max(base.visits, other.visits),
  };
  const thumbnail = newer.thumbnail ?? base.thumbnail ?? other.thumbnail;
  if (thumbnail) merged.thumbnail = thumbnail;
  else delete merged.thumbnail;
  // The screen as last seen: its signature is the one that matches it now.
  const signature = lastSeen.signature ?? base.signature ?? other.signature;
  if (signature) merged.signature = signature;
  else delete merged.signature;
  return merged;
}

function mergePath(base: BrainPath, other: BrainPath): BrainPath {
  const winner =
    other.revision > base.revision || (other.revision === base.revision && timeOf(other.updatedAt) > timeOf(base.updatedAt)) ? other : base;
  const loser = winner === base ? other : base;
  const targets = [...new Set([...loser.targets, ...winner.targets])];
  const metadata: PathMetadata = {
    ...base.metadata,
    createdAt: earliest(base.metadata.createdAt, other.metadata.createdAt),
    lastUsedAt: latest(base.metadata.lastUsedAt, other.metadata.lastUsedAt),
    tally: mergeTallies(base.metadata, other.metadata),
  };
  const failure = [base.metadata.lastFailure, other.metadata.lastFailure]
    .filter((f) => f !== undefined)
    .sort((a, b) => timeOf(b.at) - timeOf(a.at))[0];
  if (failure) metadata.lastFailure = { ...failure };
  else delete metadata.lastFailure;
  recomputeMetadata(metadata);
  return {
    id: base.id,
    from: winner.from,
    to: winner.to,
    targets: targets.slice(-MAX_TARGETS),
    actions: winner.actions,
    metadata,
    // Trust goes with the actions: imported steps stay untrusted whatever the other copy was.
    ...(winner.trust ? { trust: { ...winner.trust } } : {}),
    revision: Math.max(base.revision, other.revision),
    updatedAt: latest(base.updatedAt, other.updatedAt),
  };
}

/** The higher revision's routine (its steps, name, parameters), with the larger run counts of the two. */
function mergeRoutine(base: Routine, other: Routine): Routine {
  const newer = other.revision > base.revision || (other.revision === base.revision && timeOf(other.updatedAt) > timeOf(base.updatedAt)) ? other : base;
  const older = newer === base ? other : base;
  const runs = newer.runs.successes + newer.runs.failures >= older.runs.successes + older.runs.failures ? newer.runs : older.runs;
  return { ...newer, runs, createdAt: earliest(base.createdAt, other.createdAt) };
}

function mergeTallies(a: PathMetadata, b: PathMetadata): PathMetadata['tally'] {
  const merged: PathMetadata['tally'] = {};
  for (const writer of new Set([...Object.keys(a.tally), ...Object.keys(b.tally)])) {
    const x = a.tally[writer] ?? { successes: 0, failures: 0, durationMs: 0 };
    const y = b.tally[writer] ?? { successes: 0, failures: 0, durationMs: 0 };
    merged[writer] = {
      successes: Math.max(x.successes, y.successes),
      failures: Math.max(x.failures, y.failures),
      durationMs: Math.max(x.durationMs, y.durationMs),
    };
  }
  return merged;
}

function mergeTombstones(a: readonly Tombstone[], b: readonly Tombstone[]): Map<string, Tombstone> {
  const merged = new Map<string, Tombstone>();
  for (const tombstone of [...a, ...b]) {
    const id = `${tombstone.kind}:${tombstone.id}`;
    const known = merged.get(id);
    if (!known || timeOf(tombstone.at) > timeOf(known.at)) merged.set(id, { ...tombstone });
  }
  return merged;
}

function buried(tombstones: Map<string, Tombstone>, kind: Tombstone['kind'], id: string, itemTime: number): boolean {
  const tombstone = tombstones.get(`${kind}:${id}`);
  return tombstone !== undefined && timeOf(tombstone.at) >= itemTime;
}

/** A node's newest change: renamed, or seen again after it was forgotten. */
function nodeTime(node: BrainNode): number {
  return Math.max(timeOf(node.updatedAt), timeOf(node.lastSeen));
}

function earliest(a: string, b: string): string {
  return timeOf(b) < timeOf(a) ? b : a;
}

function latest(a: string, b: string): string {
  return timeOf(b) > timeOf(a) ? b : a;
}
