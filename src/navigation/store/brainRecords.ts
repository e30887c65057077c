import { randomBytes } from 'node:crypto';
import { GaiError } from '../../common/errors';
import { BRAIN_VERSION, isoTime, LAUNCHER_KEY, timeOf, type BrainDocument, type BrainNode, type BrainPath, type PathAction, type PathMetadata, type Tally } from './brainTypes';
import { normalizeTarget } from '../recognition/targetMatch';

// Changes to a brain document, in place on the draft a BrainStore.update mutator receives.
// Counts live in per-writer tallies so that merging two copies never counts a run twice.

export interface RecordContext {
  now: number;
  /** Who counts the runs: one id per machine (see BrainStore); merges take each writer's maximum. */
  writerId: string;
}

const MAX_TARGETS = 50;

export function emptyDocument(now: number): BrainDocument {
  return { version: BRAIN_VERSION, nodes: [], paths: [], routines: [], forgotten: [], updatedAt: isoTime(now) };
}

export function findNode(document: BrainDocument, key: string): BrainNode | undefined {
  return document.nodes.find((n) => n.key === key);
}

export function findPath(document: BrainDocument, id: string): BrainPath | undefined {
  return document.paths.find((p) => p.id === id);
}

/** Adds a node, or refreshes the stored one with the same key (last seen, title); returns the stored node. */
export function upsertNode(document: BrainDocument, node: BrainNode): BrainNode {
  const known = findNode(document, node.key);
  if (!known) {
    const added = structuredClone(node);
    document.nodes.push(added);
    dropTombstone(document, 'node', node.key);
    return added;
  }
  if (timeOf(node.lastSeen) > timeOf(known.lastSeen)) {
    known.lastSeen = node.lastSeen;
    known.windowTitle = node.windowTitle;
  }
  if (node.thumbnail && !known.thumbnail) known.thumbnail = node.thumbnail;
  return known;
}

/** Counts a visit of a node (after identifying it on screen). */
export function markVisited(document: BrainDocument, key: string, now: number): BrainNode {
  const node = requireNode(document, key);
  node.visits += 1;
  node.lastSeen = isoTime(now);
  return node;
}

export function renameNode(document: BrainDocument, key: string, label: string, now: number): BrainNode {
  const node = requireNode(document, key);
  node.label = label.trim().slice(0, 200);
  node.updatedAt = isoTime(now);
  return node;
}

export interface NewPath {
  from: string;
  to: string;
  actions: PathAction[];
  /** The target description it was learned for. */
  target?: string;
  /** The learning run's duration, counted as its first success. */
  durationMs?: number;
  id?: string;
}

/** A new path; a path that starts by launching an app is stored from the launcher node. */
export function createPath(init: NewPath, context: RecordContext): BrainPath {
  if (init.actions.length === 0) throw new GaiError('INVALID_INPUT', 'actions: a path needs at least one action');
  const now = isoTime(context.now);
  const path: BrainPath = {
    id: init.id ?? newPathId(),
    from: init.actions[0]?.tool === 'launch_app' ? LAUNCHER_KEY : init.from,
    to: init.to,
    targets: init.target === undefined ? [] : [normalizeTarget(init.target)].filter(Boolean),
    actions: structuredClone(init.actions),
    metadata: { successRate: 1, usageCount: 0, successes: 0, failures: 0, avgDurationMs: 0, createdAt: now, lastUsedAt: now, tally: {} },
    revision: 1,
    updatedAt: now,
  };
  if (init.durationMs !== undefined) countRun(path, { success: true, durationMs: init.durationMs }, context);
  return path;
}

/**
 * Adds a learned path. When one with the same ends and the same actions is known, that one
 * serves the new target too and is returned instead (relearning does not duplicate paths).
 */
export function addPath(document: BrainDocument, path: BrainPath): BrainPath {
  const same = document.paths.find((p) => p.from === path.from && p.to === path.to && sameActions(p.actions, path.actions));
  if (!same) {
    const added = structuredClone(path);
    document.paths.push(added);
    dropTombstone(document, 'path', path.id);
    return added;
  }
  // Learning the same steps here is the person approving them: the path is trusted now.
  if (!path.trust) delete same.trust;
  for (const target of path.targets) addTarget(same, target);
  for (const [writer, tally] of Object.entries(path.metadata.tally)) addTally(same.metadata, writer, tally);
  recomputeMetadata(same.metadata);
  same.revision += 1;
  same.updatedAt = path.updatedAt;
  return same;
}

export interface PathRun {
  success: boolean;
  durationMs: number;
  /** On failure: the 0-based step that failed and why. */
  failedStep?: number;
  reason?: string;
}

/** Counts a replay of a path and returns it. */
export function recordRun(document: BrainDocument, pathId: string, run: PathRun, context: RecordContext): BrainPath {
  const path = requirePath(document, pathId);
  countRun(path, run, context);
  return path;
}

/** Replaces a path's actions after relearning it (keeps its id, targets and counts). */
export function replaceActions(document: BrainDocument, pathId: string, actions: PathAction[], context: Pick<RecordContext, 'now'>, to?: string): BrainPath {
  const path = requirePath(document, pathId);
  if (actions.length === 0) throw new GaiError('INVALID_INPUT', 'actions: a path needs at least one action');
  path.actions = structuredClone(actions);
  if (to !== undefined) path.to = to;
  touch(path, context.now);
  return path;
}

/** Remembers that a path served a target description (normalised, bounded, most recent last). */
export function addTarget(path: BrainPath, target: string): void {
  const normalized = normalizeTarget(target);
  if (!normalized || path.targets.includes(normalized)) return;
  path.targets.push(normalized.slice(0, 200));
  if (path.targets.length > MAX_TARGETS) path.targets.splice(0, path.targets.length - MAX_TARGETS);
}

/** Removes a node and every path from or to it; returns the removed path ids. */
export function forgetNode(document: BrainDocument, key: string, now: number): string[] {
  requireNode(document, key);
  const at = isoTime(now);
  document.nodes = document.nodes.filter((n) => n.key !== key);
  const removed = document.paths.filter((p) => p.from === key || p.to === key).map((p) => p.id);
  document.paths = document.paths.filter((p) => p.from !== key && p.to !== key);
  document.forgotten.push({ kind: 'node', id: key, at }, ...removed.map((id) => ({ kind: 'path' as const, id, at })));
  return removed;
}

export function forgetPath(document: BrainDocument, id: string, now: number): void {
  requirePath(document, id);
  document.paths = document.paths.filter((p) => p.id !== id);
  document.forgotten.push({ kind: 'path', id, at: isoTime(now) });
}

/** successes, failures, usageCount, successRate and avgDurationMs from the tallies. */
export function recomputeMetadata(metadata: PathMetadata): void {
  let successes = 0;
  let failures = 0;
  let durationMs = 0;
  for (const tally of Object.values(metadata.tally)) {
    successes += tally.successes;
    failures += tally.failures;
    durationMs += tally.durationMs;
  }
  metadata.successes = successes;
  metadata.failures = failures;
  metadata.usageCount = successes + failures;
  metadata.successRate = successes + failures === 0 ? 1 : successes / (successes + failures);
  metadata.avgDurationMs = successes === 0 ? 0 : Math.round(durationMs / successes);
}

export function newPathId(): string {
  return `p-${randomBytes(6).toString('hex')}`;
}

function countRun(path: BrainPath, run: PathRun, context: RecordContext): void {
  const at = isoTime(context.now);
  addTally(path.metadata, context.writerId, {
    successes: run.success ? 1 : 0,
    failures: run.success ? 0 : 1,
    durationMs: run.success ? Math.max(0, run.durationMs) : 0,
  });
  recomputeMetadata(path.metadata);
  path.metadata.lastUsedAt = at;
  if (!run.success) path.metadata.lastFailure = { at, step: Math.max(0, run.failedStep ?? 0), reason: (run.reason ?? 'failed').slice(0, 500) };
  touch(path, context.now);
}

function addTally(metadata: PathMetadata, writer: string, add: Tally): void {
  const known = metadata.tally[writer] ?? { successes: 0, failures: 0, durationMs: 0 };
  metadata.tally[writer] = {
    successes: known.successes + add.successes,
    failures: known.failures + add.failures,
    durationMs: known.durationMs + add.durationMs,
  };
}

function touch(path: BrainPath, now: number): void {
  path.revision += 1;
  path.updatedAt = isoTime(now);
}

function sameActions(a: PathAction[], b: PathAction[]): boolean {
  const strip = (actions: PathAction[]): string => JSON.stringify(actions.map((action) => ({ tool: action.tool, input: action.input })));
  return strip(a) === strip(b);
}

function dropTombstone(document: BrainDocument, kind: 'node' | 'path', id: string): void {
  document.forgotten = document.forgotten.filter((t) => !(t.kind === kind && t.id === id));
}

function requireNode(document: BrainDocument, key: string): BrainNode {
  const node = findNode(document, key);
  if (!node) throw new GaiError('BRAIN_NOT_FOUND', `No node "${key}" in the brain`);
  return node;
}

function requirePath(document: BrainDocument, id: string): BrainPath {
  const path = findPath(document, id);
  if (!path) throw new GaiError('BRAIN_NOT_FOUND', `No path "${id}" in the brain`);
  return path;
}
