import { LAUNCHER_KEY, timeOf, type BrainDocument, type BrainNode, type BrainPath } from './brainTypes';

// Memory and file size stay bounded: past a limit the oldest unused items go first, and a
// path used within the last `keepRecentDays` only when nothing older is left.

export interface BrainLimits {
  maxNodes: number;
  maxPaths: number;
  /** Base64 characters of one node's thumbnail; larger ones are dropped. */
  maxThumbnailBytes: number;
  /** All thumbnails together; the least recently seen nodes lose theirs first. */
  maxTotalThumbnailBytes: number;
  maxTombstones: number;
  keepRecentDays: number;
  /** The serialized document; past it thumbnails go, then a tenth of the oldest items at a time. */
  maxFileBytes: number;
}

export const DEFAULT_BRAIN_LIMITS: BrainLimits = {
  maxNodes: 2_000,
  maxPaths: 5_000,
  maxThumbnailBytes: 16 * 1024,
  maxTotalThumbnailBytes: 4 * 1024 * 1024,
  maxTombstones: 2_000,
  keepRecentDays: 30,
  maxFileBytes: 24 * 1024 * 1024,
};

export interface PruneReport {
  nodes: string[];
  paths: string[];
  thumbnails: string[];
  tombstones: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Prunes the document in place to the limits; returns what was removed. */
export function pruneDocument(document: BrainDocument, limits: BrainLimits, now: number): PruneReport {
  const report: PruneReport = { nodes: [], paths: [], thumbnails: [], tombstones: 0 };
  const recentSince = now - limits.keepRecentDays * DAY_MS;
  prunePaths(document, document.paths.length - limits.maxPaths, recentSince, report);
  pruneNodes(document, limits.maxNodes, recentSince, report);
  pruneThumbnails(document, limits, report);
  if (document.forgotten.length > limits.maxTombstones) {
    const sorted = [...document.forgotten].sort((a, b) => timeOf(b.at) - timeOf(a.at));
    report.tombstones = document.forgotten.length - limits.maxTombstones;
    document.forgotten = sorted.slice(0, limits.maxTombstones);
  }
  return report;
}

export function isPruneEmpty(report: PruneReport): boolean {
  return report.nodes.length + report.paths.length + report.thumbnails.length + report.tombstones === 0;
}

/** Shrinks the document until `sizeOf` is within maxFileBytes (rarely needed: the counts bound it first). */
export function shrinkToSize(document: BrainDocument, limits: BrainLimits, now: number, sizeOf: (document: BrainDocument) => number): PruneReport {
  const report: PruneReport = { nodes: [], paths: [], thumbnails: [], tombstones: 0 };
  if (sizeOf(document) <= limits.maxFileBytes) return report;
  for (const node of document.nodes) {
    if (!node.thumbnail) continue;
    delete node.thumbnail;
    report.thumbnails.push(node.key);
  }
  while (sizeOf(document) > limits.maxFileBytes && document.nodes.length + document.paths.length > 0) {
    const tighter = { ...limits, maxPaths: Math.floor(document.paths.length * 0.9), maxNodes: Math.floor(document.nodes.length * 0.9) };
    const step = pruneDocument(document, tighter, now);
    report.nodes.push(...step.nodes);
    report.paths.push(...step.paths);
  }
  return report;
}

function prunePaths(document: BrainDocument, excess: number, recentSince: number, report: PruneReport): void {
  if (excess <= 0) return;
  // Not recently used first, then least recently used, then the least successful.
  const order = [...document.paths].sort(
    (a, b) =>
      Number(usedSince(a, recentSince)) - Number(usedSince(b, recentSince)) ||
      timeOf(a.metadata.lastUsedAt) - timeOf(b.metadata.lastUsedAt) ||
      a.metadata.successRate - b.metadata.successRate ||
      (a.id < b.id ? -1 : 1),
  );
  const doomed = new Set(order.slice(0, excess).map((p) => p.id));
  document.paths = document.paths.filter((p) => !doomed.has(p.id));
  report.paths.push(...doomed);
}

function pruneNodes(document: BrainDocument, maxNodes: number, recentSince: number, report: PruneReport): void {
  const excess = document.nodes.length - maxNodes;
  if (excess <= 0) return;
  const referencedBy = new Map<string, BrainPath[]>();
  for (const path of document.paths) {
    for (const key of [path.from, path.to]) referencedBy.set(key, [...(referencedBy.get(key) ?? []), path]);
  }
  // Nodes no path needs go first, then nodes whose paths are all old; oldest seen first.
  const needed = (node: BrainNode): number => {
    const paths = referencedBy.get(node.key) ?? [];
    if (paths.length === 0) return 0;
    return paths.some((p) => usedSince(p, recentSince)) ? 2 : 1;
  };
  const order = [...document.nodes].sort(
    (a, b) => needed(a) - needed(b) || timeOf(a.lastSeen) - timeOf(b.lastSeen) || a.visits - b.visits || (a.key < b.key ? -1 : 1),
  );
  const doomed = new Set(order.slice(0, excess).map((n) => n.key));
  document.nodes = document.nodes.filter((n) => !doomed.has(n.key));
  report.nodes.push(...doomed);
  const dangling = document.paths.filter((p) => (p.from !== LAUNCHER_KEY && doomed.has(p.from)) || doomed.has(p.to)).map((p) => p.id);
  if (dangling.length === 0) return;
  const gone = new Set(dangling);
  document.paths = document.paths.filter((p) => !gone.has(p.id));
  report.paths.push(...dangling);
}

function pruneThumbnails(document: BrainDocument, limits: BrainLimits, report: PruneReport): void {
  for (const node of document.nodes) {
    if (node.thumbnail && node.thumbnail.data.length > limits.maxThumbnailBytes) {
      delete node.thumbnail;
      report.thumbnails.push(node.key);
    }
  }
  let total = document.nodes.reduce((sum, n) => sum + (n.thumbnail?.data.length ?? 0), 0);
  if (total <= limits.maxTotalThumbnailBytes) return;
  const oldestFirst = document.nodes.filter((n) => n.thumbnail).sort((a, b) => timeOf(a.lastSeen) - timeOf(b.lastSeen));
  for (const node of oldestFirst) {
    if (total <= limits.maxTotalThumbnailBytes) break;
    total -= node.thumbnail?.data.length ?? 0;
    delete node.thumbnail;
    report.thumbnails.push(node.key);
  }
}

function usedSince(path: BrainPath, since: number): boolean {
  return timeOf(path.metadata.lastUsedAt) >= since;
}
