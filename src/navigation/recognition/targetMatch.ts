import type { BrainDocument, BrainNode } from '../store/brainTypes';

// Which known node a target description ("Network settings", "go to the network page")
// means, without a model: token overlap with the words that carry no place removed.

/**
 * Score at or above which a node serves a target. With score = recall × (0.75 + 0.25 ×
 * precision): one shared word of two ("Network settings" vs "Display settings") scores at
 * most 0.5 and is rejected; every target word present scores at least 0.75.
 */
export const TARGET_MATCH_THRESHOLD = 0.6;

/** Words that say "go there" rather than where. */
const STOP_WORDS = new Set(
  (
    'a an the to go goto open opens show navigate switch move take bring get find visit reach ' +
    'me my please into in on of for at from with and or then screen page window tab dialog app application ' +
    'section area panel part there here now'
  ).split(' '),
);

/** A target in its stored form: lower-case words, stop words kept, joined by single spaces. */
export function normalizeTarget(target: string): string {
  return words(target).join(' ');
}

/** The words of a target that say where: stop words dropped, plural -s folded. */
export function targetTokens(text: string): string[] {
  const all = words(text);
  const meaningful = all.filter((w) => !STOP_WORDS.has(w));
  // "Display" alone is a place: when only stop words are left, keep them.
  return [...new Set((meaningful.length ? meaningful : all).map(stem))];
}

/** recall × (0.75 + 0.25 × precision) of the target's tokens against a candidate's. */
export function targetScore(target: readonly string[], candidate: ReadonlySet<string>): number {
  if (target.length === 0 || candidate.size === 0) return 0;
  const shared = target.filter((t) => candidate.has(t)).length;
  const recall = shared / target.length;
  const precision = shared / candidate.size;
  return recall * (0.75 + 0.25 * precision);
}

export interface TargetMatch {
  nodeKey: string;
  score: number;
  /** What matched: a path's earlier target, or the node's own text (label, title, headings). */
  via: 'path-target' | 'node';
}

export interface TargetMatchOptions {
  threshold?: number;
  /** Only nodes of this program (e.g. "in Firefox" resolved by the caller). */
  programName?: string;
}

/**
 * The nodes that serve a target, best first: each scored against the words of its label,
 * window title and headings together, and against the targets of the paths that arrive
 * there (an exact earlier target scores 1). Never against the rest of the screen text: a
 * sidebar entry "Network" is on every page.
 */
export function matchTarget(document: Pick<BrainDocument, 'nodes' | 'paths'>, target: string, options: TargetMatchOptions = {}): TargetMatch[] {
  const threshold = options.threshold ?? TARGET_MATCH_THRESHOLD;
  const tokens = targetTokens(target);
  const normalized = normalizeTarget(target);
  const best = new Map<string, TargetMatch>();
  const offer = (match: TargetMatch): void => {
    const known = best.get(match.nodeKey);
    if (!known || match.score > known.score) best.set(match.nodeKey, match);
  };
  const nodes = options.programName === undefined ? document.nodes : document.nodes.filter((n) => n.programName === options.programName);
  const keys = new Set(nodes.map((n) => n.key));
  for (const node of nodes) offer({ nodeKey: node.key, score: targetScore(tokens, nodeTokens(node)), via: 'node' });
  for (const path of document.paths) {
    if (!keys.has(path.to)) continue;
    for (const served of path.targets) {
      const score = served === normalized ? 1 : targetScore(tokens, new Set(targetTokens(served)));
      offer({ nodeKey: path.to, score, via: 'path-target' });
    }
  }
  return [...best.values()].filter((m) => m.score >= threshold).sort((a, b) => b.score - a.score || a.nodeKey.localeCompare(b.nodeKey));
}

function nodeTokens(node: BrainNode): Set<string> {
  return new Set([node.label, node.windowTitle, ...node.fingerprint.headings].flatMap(targetTokens));
}

function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}
