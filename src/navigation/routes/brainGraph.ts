import { LAUNCHER_KEY, type BrainDocument, type BrainPath } from '../store/brainTypes';
import { matchTarget, type TargetMatch, type TargetMatchOptions } from '../recognition/targetMatch';

// Routes over learned paths: a cheapest chain from the current node to a node that serves
// the target. Paths that start by launching an app are edges from every node.

type Graph = Pick<BrainDocument, 'nodes' | 'paths'>;

export interface Route {
  /** In order: each path's `to` is the next one's `from` (or the next one launches an app). */
  paths: BrainPath[];
  cost: number;
}

export interface RouteOptions {
  /** Path ids not to use, e.g. one that just failed. */
  exclude?: ReadonlySet<string>;
  /** Longest chain considered. Default 8. */
  maxHops?: number;
}

/** Added to launcher paths: switching apps costs more than a step inside one. */
const LAUNCH_PENALTY = 0.5;
const DEFAULT_MAX_HOPS = 8;

/**
 * An edge's cost: 1 a hop, plus up to 4 for unreliability (Laplace-smoothed success rate, so
 * one failure of a new path weighs less than the same share of many runs), plus a little for
 * few uses and long paths. A 10-of-10 two-hop chain (≈2.8) beats a 2-of-10 direct path (≈4.1).
 */
export function pathCost(path: BrainPath): number {
  const m = path.metadata;
  const reliability = (m.successes + 1) / (m.successes + m.failures + 2);
  return 1 + 4 * (1 - reliability) + 1 / (2 + m.usageCount) + 0.02 * path.actions.length;
}

/** Whether a path can start anywhere: stored from the launcher, or its first step launches an app. */
export function isLauncherPath(path: BrainPath): boolean {
  return path.from === LAUNCHER_KEY || path.actions[0]?.tool === 'launch_app';
}

/** The paths that start at a node (the seed's getPathsFrom), launcher paths included. */
export function getPathsFrom(graph: Graph, key: string): BrainPath[] {
  return graph.paths.filter((p) => p.from === key || (isLauncherPath(p) && p.to !== key));
}

/** Dijkstra from `fromKey` (a node key, or undefined for an unknown screen: launcher paths only). */
export function findRoute(graph: Graph, fromKey: string | undefined, toKey: string, options: RouteOptions = {}): Route | undefined {
  const start = fromKey ?? LAUNCHER_KEY;
  if (start === toKey) return { paths: [], cost: 0 };
  const maxHops = options.maxHops ?? DEFAULT_MAX_HOPS;
  const usable = graph.paths.filter((p) => !options.exclude?.has(p.id));
  const bySource = new Map<string, BrainPath[]>();
  const launchers: BrainPath[] = [];
  for (const path of usable) {
    if (isLauncherPath(path)) launchers.push(path);
    else bySource.set(path.from, [...(bySource.get(path.from) ?? []), path]);
  }
  interface Label {
    cost: number;
    hops: number;
    via?: { path: BrainPath; previous: string };
  }
  const labels = new Map<string, Label>([[start, { cost: 0, hops: 0 }]]);
  const done = new Set<string>();
  for (;;) {
    let current: string | undefined;
    let label: Label | undefined;
    for (const [key, candidate] of labels) {
      if (!done.has(key) && (!label || candidate.cost < label.cost)) [current, label] = [key, candidate];
    }
    if (current === undefined || label === undefined) return undefined;
    if (current === toKey) return { paths: unwind(labels, toKey), cost: label.cost };
    done.add(current);
    if (label.hops >= maxHops) continue;
    const edges = [...(bySource.get(current) ?? []), ...launchers.map((path) => ({ path, extra: LAUNCH_PENALTY }))];
    for (const edge of edges) {
      const path = 'extra' in edge ? edge.path : edge;
      if (path.to === current || done.has(path.to)) continue;
      const cost = label.cost + pathCost(path) + ('extra' in edge ? edge.extra : 0);
      const known = labels.get(path.to);
      if (!known || cost < known.cost) labels.set(path.to, { cost, hops: label.hops + 1, via: { path, previous: current } });
    }
  }
}

function unwind(labels: Map<string, { via?: { path: BrainPath; previous: string } }>, toKey: string): BrainPath[] {
  const paths: BrainPath[] = [];
  for (let key = toKey, via = labels.get(key)?.via; via; key = via.previous, via = labels.get(key)?.via) paths.unshift(via.path);
  return paths;
}

export type NavigationPlan =
  /** The current node already serves the target. */
  | { kind: 'arrived'; target: string; nodeKey: string; score: number }
  | { kind: 'route'; target: string; nodeKey: string; score: number; route: Route }
  /** Known nodes serve the target but no chain of paths reaches them: learn from here. */
  | { kind: 'no-route'; target: string; candidates: TargetMatch[] }
  /** Nothing known serves the target: learn. */
  | { kind: 'unknown-target'; target: string };

export interface PlanOptions extends RouteOptions, TargetMatchOptions {
  /** Matches this close to the best one count as equally good; the cheapest route wins. Default 0.1. */
  scoreTolerance?: number;
}

/** What navigate_to does before any replay: match the target, then route to it. */
export function planNavigation(graph: Graph, currentKey: string | undefined, target: string, options: PlanOptions = {}): NavigationPlan {
  const matches = matchTarget(graph, target, options);
  const top = matches[0];
  if (!top) return { kind: 'unknown-target', target };
  const tolerance = options.scoreTolerance ?? 0.1;
  const here = matches.find((m) => m.nodeKey === currentKey);
  if (here && here.score >= top.score - tolerance) return { kind: 'arrived', target, nodeKey: here.nodeKey, score: here.score };
  let chosen: { match: TargetMatch; route: Route } | undefined;
  for (const match of matches) {
    // A clearly better match with a route wins over a cheaper route to a weaker match.
    if (chosen && match.score < chosen.match.score - tolerance) break;
    const route = findRoute(graph, currentKey, match.nodeKey, options);
    if (route && (!chosen || route.cost < chosen.route.cost)) chosen = { match, route };
  }
  if (!chosen) return { kind: 'no-route', target, candidates: matches };
  return { kind: 'route', target, nodeKey: chosen.match.nodeKey, score: chosen.match.score, route: chosen.route };
}
