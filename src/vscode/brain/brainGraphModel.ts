// The brain document as the Show Brain view draws it (no vscode import, unit-tested): which
// screens and paths are drawn (bounded, the most used first), their layout (brainGraphLayout),
// and the texts the view shows. The launcher pseudo-node is drawn when a path touches it.
import { graphStats } from '../../navigation/store/brainStats';
import { LAUNCHER_KEY, type BrainDocument, type BrainNode, type BrainPath, type Thumbnail } from '../../navigation/store/brainTypes';
import { describeAction } from '../../navigation/routes/pathActions';
import type { BrainEdgeView, BrainGraphView, BrainNodeView, EdgeQuality } from '../../shared/brainProtocol';
import { layoutGraph } from './brainGraphLayout';

/** More would make an unreadable picture and a large message; the rest is counted as hidden. */
export const MAX_DRAWN_NODES = 200;
export const MAX_DRAWN_PATHS = 400;
const MAX_ACTION_LINES = 30;
const MAX_TARGETS = 10;
const SHORT_LABEL = 24;

export const LAUNCHER_LABEL = 'App launcher';

export interface BrainGraphOptions {
  /** The screen GAI identified last; always drawn, highlighted. */
  currentNodeKey?: string;
  maxNodes?: number;
  maxPaths?: number;
}

/** What the model knows of one node key before layout. */
interface NodeInfo {
  key: string;
  node?: BrainNode;
  isLauncher: boolean;
  pathCount: number;
  /** Runs of the paths that start or end here. */
  usage: number;
}

type Graph = Pick<BrainDocument, 'nodes' | 'paths'>;

export function buildBrainGraph(graph: Graph, options: BrainGraphOptions = {}): BrainGraphView {
  const maxNodes = Math.max(1, options.maxNodes ?? MAX_DRAWN_NODES);
  const maxPaths = Math.max(0, options.maxPaths ?? MAX_DRAWN_PATHS);
  const infos = nodeInfos(graph);
  const current = options.currentNodeKey !== undefined && infos.has(options.currentNodeKey) ? options.currentNodeKey : undefined;

  const ranked = [...infos.values()].sort((a, b) => compareRank(a, b, current));
  const drawn = ranked.slice(0, maxNodes);
  const drawnKeys = new Set(drawn.map((info) => info.key));
  const candidates = graph.paths.filter((p) => drawnKeys.has(p.from) && drawnKeys.has(p.to)).sort(compareUsage);
  const paths = candidates.slice(0, maxPaths);

  // Roots: the launcher (every screen reaches it), then the most visited screens.
  const roots = [...drawn].sort((a, b) => Number(b.isLauncher) - Number(a.isLauncher) || visitsOf(b) - visitsOf(a) || compareText(a.key, b.key)).map((info) => info.key);
  const layout = layoutGraph({ nodes: drawn.map((info) => info.key), roots, edges: paths });

  const nodes: BrainNodeView[] = [];
  for (const info of drawn) {
    const box = layout.boxes.get(info.key);
    if (box) nodes.push({ ...nodeTexts(info), isCurrent: info.key === current || undefined, pathCount: info.pathCount, hasThumbnail: info.node?.thumbnail ? true : undefined, ...box });
  }
  const edges: BrainEdgeView[] = [];
  for (const path of paths) {
    const curve = layout.curves.get(path.id);
    if (curve) edges.push({ ...edgeTexts(path), ...curve });
  }
  const stats = graphStats(graph);
  // The header and the Screens list count one set: screens, stored or a path's unknown end,
  // never the launcher pseudo-node (it was counted in the list and hidden count, not the header).
  const screens = [...infos.values()].filter((info) => !info.isLauncher).length;
  const drawnScreens = nodes.filter((n) => !n.isLauncher).length;
  return {
    nodes: nodes.sort((a, b) => a.y - b.y || a.x - b.x),
    edges,
    stats: {
      totalNodes: screens,
      totalPaths: stats.totalPaths,
      totalRuns: stats.totalRuns,
      averageSuccessRate: stats.averageSuccessRate,
      hiddenNodes: screens - drawnScreens,
      hiddenPaths: graph.paths.length - edges.length,
    },
    width: layout.width,
    height: layout.height,
  };
}

// Only picture types an <img> shows safely; the data only as base64 so nothing else rides along.
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A node's thumbnail as a `data:` URL for the view, or null when it has none the view may show. */
export function thumbnailSrc(thumbnail: Thumbnail | undefined): string | null {
  if (!thumbnail || !IMAGE_TYPES.has(thumbnail.mediaType) || !BASE64.test(thumbnail.data)) return null;
  return `data:${thumbnail.mediaType};base64,${thumbnail.data}`;
}

/** `usage ×3, 67%`; a path never run since it was learned says so. */
export function edgeLabel(metadata: Pick<BrainPath['metadata'], 'usageCount' | 'successRate'>): string {
  if (metadata.usageCount === 0) return 'usage ×0, new';
  return `usage ×${metadata.usageCount}, ${Math.round(metadata.successRate * 100)}%`;
}

export function edgeQuality(metadata: Pick<BrainPath['metadata'], 'usageCount' | 'successRate'>): EdgeQuality {
  if (metadata.usageCount === 0) return 'untried';
  if (metadata.successRate >= 0.8) return 'good';
  if (metadata.successRate >= 0.5) return 'fair';
  return 'poor';
}

/** The label, else the window title, else the program; shortened to fit a node box. */
export function shortLabel(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > SHORT_LABEL ? `${single.slice(0, SHORT_LABEL - 1)}…` : single;
}

/** Every node key the picture may show: the stored nodes, the launcher, and (defensively) unknown path ends. */
function nodeInfos(graph: Graph): Map<string, NodeInfo> {
  const infos = new Map<string, NodeInfo>();
  for (const node of graph.nodes) infos.set(node.key, { key: node.key, node, isLauncher: false, pathCount: 0, usage: 0 });
  for (const path of graph.paths) {
    for (const key of path.from === path.to ? [path.from] : [path.from, path.to]) {
      let info = infos.get(key);
      if (!info) {
        info = { key, isLauncher: key === LAUNCHER_KEY, pathCount: 0, usage: 0 };
        infos.set(key, info);
      }
      info.pathCount += 1;
      info.usage += path.metadata.usageCount;
    }
  }
  return infos;
}

/** Current first, then the launcher, then screens with paths by use and visits, then the rest. */
function compareRank(a: NodeInfo, b: NodeInfo, current: string | undefined): number {
  return (
    Number(b.key === current) - Number(a.key === current) ||
    Number(b.isLauncher) - Number(a.isLauncher) ||
    Number(b.pathCount > 0) - Number(a.pathCount > 0) ||
    b.usage + visitsOf(b) - (a.usage + visitsOf(a)) ||
    compareText(b.node?.lastSeen ?? '', a.node?.lastSeen ?? '') ||
    compareText(a.key, b.key)
  );
}

function compareUsage(a: BrainPath, b: BrainPath): number {
  return b.metadata.usageCount - a.metadata.usageCount || compareText(a.id, b.id);
}

function visitsOf(info: NodeInfo): number {
  return info.node?.visits ?? 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nodeTexts(info: NodeInfo): Pick<BrainNodeView, 'key' | 'label' | 'shortLabel' | 'programName' | 'windowTitle' | 'visits' | 'lastSeen' | 'isLauncher'> {
  if (info.isLauncher) {
    return { key: info.key, label: LAUNCHER_LABEL, shortLabel: LAUNCHER_LABEL, programName: '', windowTitle: '', visits: 0, lastSeen: '', isLauncher: true };
  }
  const node = info.node;
  if (!node) {
    // A path end the document does not hold (validation normally prevents it): still forgettable.
    return { key: info.key, label: info.key, shortLabel: shortLabel(info.key), programName: info.key.split('::')[0] ?? '', windowTitle: '', visits: 0, lastSeen: '', isLauncher: false };
  }
  const shown = node.label.trim() || node.windowTitle.trim() || node.programName;
  return {
    key: node.key,
    label: node.label,
    shortLabel: shortLabel(shown),
    programName: node.programName,
    windowTitle: node.windowTitle,
    visits: node.visits,
    lastSeen: node.lastSeen,
    isLauncher: false,
  };
}

function edgeTexts(path: BrainPath): Omit<BrainEdgeView, 'd' | 'labelX' | 'labelY'> {
  const meta = path.metadata;
  const actions = path.actions.slice(0, MAX_ACTION_LINES).map(describeAction);
  if (path.actions.length > MAX_ACTION_LINES) actions.push(`… ${path.actions.length - MAX_ACTION_LINES} more`);
  const failure = meta.lastFailure;
  return {
    id: path.id,
    from: path.from,
    to: path.to,
    successRate: meta.successRate,
    usageCount: meta.usageCount,
    successes: meta.successes,
    failures: meta.failures,
    avgDurationMs: meta.avgDurationMs,
    lastUsedAt: meta.lastUsedAt,
    lastFailure: failure ? `step ${failure.step + 1}: ${failure.reason} (${failure.at})` : undefined,
    actions,
    targets: path.targets.slice(-MAX_TARGETS),
    quality: edgeQuality(meta),
    label: edgeLabel(meta),
  };
}
