import { graphStats, type GraphStats } from '../navigation/store/brainStats';
import { LAUNCHER_KEY, type BrainDocument, type BrainNode, type BrainPath } from '../navigation/store/brainTypes';
import type { ImportSummary } from '../navigation/store/brainStore';
import { describeAction } from '../navigation/routes/pathActions';

// What `gai brain show` prints: the graph for people, or as JSON for scripts.

/** A node as `show --json` lists it: the thumbnail without its image data (export has it all). */
export type ShownNode = Omit<BrainNode, 'thumbnail'> & { thumbnail?: { mediaType: string; width: number; height: number } };

export interface ShownPath extends BrainPath {
  fromLabel: string;
  toLabel: string;
  /** The actions in words (describeAction). */
  steps: string[];
}

export interface BrainView {
  nodes: ShownNode[];
  paths: ShownPath[];
  stats: GraphStats;
}

export function brainView(document: BrainDocument): BrainView {
  const name = labeler(document);
  return {
    nodes: document.nodes.map(({ thumbnail, ...node }) =>
      thumbnail ? { ...node, thumbnail: { mediaType: thumbnail.mediaType, width: thumbnail.width, height: thumbnail.height } } : node,
    ),
    paths: document.paths.map((p) => ({ ...p, fromLabel: name(p.from), toLabel: name(p.to), steps: p.actions.map(describeAction) })),
    stats: graphStats(document),
  };
}

export function formatBrain(document: BrainDocument, file: string): string {
  if (document.nodes.length === 0 && document.paths.length === 0) return `The brain is empty: no screens or paths learned yet (${file}).\n`;
  const name = labeler(document);
  const lines = [`Brain ${file}`, '', `Nodes (${document.nodes.length})`];
  const width = Math.min(40, Math.max(...document.nodes.map((n) => name(n.key).length)));
  for (const node of document.nodes) {
    const picture = node.thumbnail ? `, thumbnail ${node.thumbnail.width}x${node.thumbnail.height}` : '';
    lines.push(`  ${name(node.key).padEnd(width)}  ${node.key}  visits ${node.visits}, last seen ${shortTime(node.lastSeen)}${picture}`);
  }
  lines.push('', `Paths (${document.paths.length})`);
  for (const path of document.paths) lines.push(...formatPath(path, name));
  const stats = graphStats(document);
  lines.push('', 'Stats', `  ${plural(stats.totalNodes, 'node')}, ${plural(stats.totalPaths, 'path')}, ${plural(stats.totalRuns, 'run')}, average success rate ${percent(stats.averageSuccessRate)}`);
  for (const used of stats.mostUsedPaths) {
    lines.push(`  most used: ${used.id} ${name(used.from)} → ${used.toLabel || used.to} (${plural(used.usageCount, 'run')}, ${percent(used.successRate)})`);
  }
  return lines.join('\n') + '\n';
}

export function formatImportSummary(summary: ImportSummary, mode: 'merge' | 'replace'): string {
  const how = mode === 'merge' ? 'Merged' : 'Replaced the brain with';
  return `${how} the import: ${plural(summary.nodesAdded, 'node')} and ${plural(summary.pathsAdded, 'path')} added; the brain now has ${plural(summary.nodes, 'node')} and ${plural(summary.paths, 'path')}.\n`;
}

function formatPath(path: BrainPath, name: (key: string) => string): string[] {
  const m = path.metadata;
  const runs = m.usageCount === 0 ? 'not replayed yet' : `success ${percent(m.successRate)} of ${plural(m.usageCount, 'run')} (${m.successes} ok, ${m.failures} failed)`;
  const lines = [
    `  ${path.id}: ${name(path.from)} → ${name(path.to)}`,
    ...path.actions.map((action, i) => `    ${i + 1}. ${describeAction(action)}`),
    `    ${runs}${m.successes > 0 ? `, avg ${Math.round(m.avgDurationMs)} ms` : ''}, last used ${shortTime(m.lastUsedAt)}`,
  ];
  if (path.targets.length > 0) lines.push(`    targets: ${path.targets.map((t) => JSON.stringify(t)).join(', ')}`);
  if (m.lastFailure) lines.push(`    last failure: ${shortTime(m.lastFailure.at)} at step ${m.lastFailure.step + 1}: ${m.lastFailure.reason}`);
  return lines;
}

/** A node's label, its key when it has none, or "app launcher" for the launcher pseudo-node. */
function labeler(document: BrainDocument): (key: string) => string {
  const labels = new Map(document.nodes.map((n) => [n.key, n.label.trim()]));
  return (key) => (key === LAUNCHER_KEY ? 'app launcher' : labels.get(key) || key);
}

function shortTime(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
