// The brain view's texts (pure, no DOM, unit-tested): the stats line, the notice about what the
// picture leaves out, and the one-line facts under each screen and path.
import type { BrainEdgeView, BrainGraphView, BrainNodeView, BrainStatsView } from '../../shared/brainProtocol';

export const EMPTY_TEXT = 'No paths learned yet — use GAI: Navigate To...';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** `5 min ago`, `3 h ago`, `2 days ago`, else the date; empty for an empty or bad time. */
export function ago(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const elapsed = now - at;
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h ago`;
  if (elapsed < 30 * DAY) return `${Math.floor(elapsed / DAY)} day${elapsed < 2 * DAY ? '' : 's'} ago`;
  return iso.slice(0, 10);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

export function statsLine(stats: BrainStatsView): string {
  const parts = [plural(stats.totalNodes, 'screen'), plural(stats.totalPaths, 'path'), plural(stats.totalRuns, 'run')];
  if (stats.totalRuns > 0) parts.push(`${percent(stats.averageSuccessRate)} success`);
  return parts.join(' · ');
}

/** The Screens list's count: the header's screens (never the launcher), "12 of 300" when some are left out. */
export function screensDescription(graph: BrainGraphView): string {
  const shown = graph.nodes.filter((node) => !node.isLauncher).length;
  return graph.stats.hiddenNodes > 0 ? `${shown.toLocaleString('en-US')} of ${graph.stats.totalNodes.toLocaleString('en-US')}` : shown.toLocaleString('en-US');
}

/** What the view says above the picture: the empty state, what was left out, or nothing. */
export function noticeText(graph: BrainGraphView): { text: string; kind: 'empty' | 'truncated' } | undefined {
  if (graph.stats.totalPaths === 0) return { text: EMPTY_TEXT, kind: 'empty' };
  const { hiddenNodes, hiddenPaths } = graph.stats;
  if (hiddenNodes === 0 && hiddenPaths === 0) return undefined;
  const left = [hiddenNodes > 0 ? plural(hiddenNodes, 'screen') : '', hiddenPaths > 0 ? plural(hiddenPaths, 'path') : ''].filter(Boolean);
  return { text: `The picture shows the most used part of the brain: ${left.join(' and ')} left out.`, kind: 'truncated' };
}

/** The node box's second line. */
export function nodeBoxMeta(node: BrainNodeView): string {
  if (node.isLauncher) return 'starts apps';
  const program = node.programName.length > 14 ? `${node.programName.slice(0, 13)}…` : node.programName;
  return `${program} · ×${node.visits}`;
}

export function nodeMeta(node: BrainNodeView, now: number): string {
  if (node.isLauncher) return 'Reachable from every screen: paths that start by launching an app';
  const seen = ago(node.lastSeen, now);
  return [node.programName, plural(node.visits, 'visit'), plural(node.pathCount, 'path'), seen ? `seen ${seen}` : ''].filter(Boolean).join(' · ');
}

export function pathMeta(edge: BrainEdgeView, now: number): string {
  const parts = [edge.label];
  if (edge.successes > 0) parts.push(`avg ${duration(edge.avgDurationMs)}`);
  if (edge.failures > 0) parts.push(plural(edge.failures, 'failure'));
  const used = ago(edge.lastUsedAt, now);
  if (used) parts.push(`used ${used}`);
  return parts.join(' · ');
}

/** The hover text of a node box. */
export function nodeTooltip(node: BrainNodeView): string {
  if (node.isLauncher) return `${node.label}\nReachable from every screen`;
  const lines = [node.label || node.shortLabel, `Program: ${node.programName}`];
  if (node.windowTitle) lines.push(`Window: ${node.windowTitle}`);
  lines.push(`Visits: ${node.visits}`);
  if (node.isCurrent) lines.push('The current screen');
  return lines.join('\n');
}

/** The hover text of an edge. */
export function edgeTooltip(edge: BrainEdgeView, from: string, to: string): string {
  const lines = [`${from} → ${to}`, edge.label];
  if (edge.targets.length > 0) lines.push(`For: ${edge.targets.join(', ')}`);
  lines.push(...edge.actions.map((action, i) => `${i + 1}. ${action}`));
  if (edge.lastFailure) lines.push(`Last failure: ${edge.lastFailure}`);
  return lines.join('\n');
}
