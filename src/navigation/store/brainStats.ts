import { getPathsFrom } from '../routes/brainGraph';
import type { BrainDocument, BrainNode, BrainPath } from './brainTypes';

// What get_current_node reports (seed 000 §4.2), and the graph's numbers for `gai brain show`
// and the Show Brain view.

export interface PathSummary {
  id: string;
  from: string;
  to: string;
  toLabel: string;
  actions: number;
  successRate: number;
  usageCount: number;
}

export interface GraphStats {
  totalNodes: number;
  totalPaths: number;
  /** Mean success rate of the paths that have run at least once; 0 when none has. */
  averageSuccessRate: number;
  totalRuns: number;
  /** The most used paths, most used first. */
  mostUsedPaths: PathSummary[];
}

export interface CurrentNodeReport {
  currentNode: { programName: string; stateHash: string; key: string; label: string };
  availablePaths: PathSummary[];
  graphStats: GraphStats;
}

type Graph = Pick<BrainDocument, 'nodes' | 'paths'>;

export function graphStats(graph: Graph, options: { top?: number } = {}): GraphStats {
  const used = graph.paths.filter((p) => p.metadata.usageCount > 0);
  const labels = labelsOf(graph);
  return {
    totalNodes: graph.nodes.length,
    totalPaths: graph.paths.length,
    averageSuccessRate: used.length === 0 ? 0 : round(used.reduce((sum, p) => sum + p.metadata.successRate, 0) / used.length),
    totalRuns: graph.paths.reduce((sum, p) => sum + p.metadata.usageCount, 0),
    mostUsedPaths: [...used]
      .sort((a, b) => b.metadata.usageCount - a.metadata.usageCount || b.metadata.successRate - a.metadata.successRate || (a.id < b.id ? -1 : 1))
      .slice(0, options.top ?? 5)
      .map((p) => summarizePath(p, labels)),
  };
}

/** The seed's get_current_node output for a node (identified by the caller), with labels added. */
export function describeCurrentNode(graph: Graph, node: BrainNode): CurrentNodeReport {
  const labels = labelsOf(graph);
  return {
    currentNode: { programName: node.programName, stateHash: node.stateHash, key: node.key, label: node.label },
    availablePaths: getPathsFrom(graph, node.key).map((p) => summarizePath(p, labels)),
    graphStats: graphStats(graph),
  };
}

export function summarizePath(path: BrainPath, labels: ReadonlyMap<string, string> = new Map()): PathSummary {
  return {
    id: path.id,
    from: path.from,
    to: path.to,
    toLabel: labels.get(path.to) ?? path.to,
    actions: path.actions.length,
    successRate: round(path.metadata.successRate),
    usageCount: path.metadata.usageCount,
  };
}

function labelsOf(graph: Graph): Map<string, string> {
  return new Map(graph.nodes.map((n) => [n.key, n.label]));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
