// A deterministic layered layout for the brain picture (no vscode import, unit-tested): BFS
// depth from the roots gives each node a column (long columns wrap), nodes of a column are
// spread vertically and centred, and every edge becomes a cubic Bézier curve ending at the
// target's border. Everything is translated so that it lies within [0, width] × [0, height].

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 46;
const COLUMN_GAP = 120;
const ROW_GAP = 30;
const MARGIN = 24;
/** More nodes than this at one depth wrap into a further column. */
const MAX_ROWS = 12;
/** Distance between parallel edges of the same two nodes. */
const LANE = 18;
/** How far above the higher node a backward edge arcs. */
const ARC = 34;
/** Room the edge label (`usage ×12, 100%`) needs around its centre. */
const LABEL_HALF_WIDTH = 52;
const LABEL_HALF_HEIGHT = 10;

export interface LayoutEdge {
  id: string;
  from: string;
  to: string;
}

export interface LayoutInput {
  /** The node keys to place, in the order they should appear when nothing else decides. */
  nodes: readonly string[];
  /** Where BFS starts, in order; nodes no root reaches start a BFS of their own. */
  roots: readonly string[];
  /** Edges between placed nodes, most important first (BFS follows them in this order). */
  edges: readonly LayoutEdge[];
}

export interface NodeBox {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
}

export interface EdgeCurve {
  /** SVG path data: `M x y C x1 y1, x2 y2, x y`. */
  d: string;
  labelX: number;
  labelY: number;
}

export interface GraphLayout {
  boxes: Map<string, NodeBox>;
  curves: Map<string, EdgeCurve>;
  width: number;
  height: number;
}

interface Point {
  x: number;
  y: number;
}

/** The four control points of a cubic Bézier curve. */
type Bezier = [Point, Point, Point, Point];

export function layoutGraph(input: LayoutInput): GraphLayout {
  const depths = bfsDepths(input);
  const boxes = placeColumns(input.nodes, depths);
  const beziers = new Map<string, Bezier>();
  const lanes = laneNumbers(input.edges);
  for (const edge of input.edges) {
    const from = boxes.get(edge.from);
    const to = boxes.get(edge.to);
    if (!from || !to) continue;
    beziers.set(edge.id, curveBetween(from, to, lanes.get(edge.id) ?? 0));
  }
  return fitted(boxes, beziers);
}

/** BFS over the edges from each root in turn; a node first reached from a later root keeps that depth. */
function bfsDepths(input: LayoutInput): Map<string, number> {
  const known = new Set(input.nodes);
  const out = new Map<string, string[]>();
  for (const edge of input.edges) {
    if (!known.has(edge.from) || !known.has(edge.to)) continue;
    const list = out.get(edge.from) ?? [];
    list.push(edge.to);
    out.set(edge.from, list);
  }
  const depths = new Map<string, number>();
  for (const root of [...input.roots, ...input.nodes]) {
    if (!known.has(root) || depths.has(root)) continue;
    depths.set(root, 0);
    const queue = [root];
    for (let head = 0; head < queue.length; head++) {
      const key = queue[head] as string;
      const depth = depths.get(key) ?? 0;
      for (const next of out.get(key) ?? []) {
        if (depths.has(next)) continue;
        depths.set(next, depth + 1);
        queue.push(next);
      }
    }
  }
  return depths;
}

/** Columns by depth (in discovery order within a depth), wrapped at MAX_ROWS, centred vertically. */
function placeColumns(nodes: readonly string[], depths: Map<string, number>): Map<string, NodeBox> {
  const placed = new Set(nodes);
  const byDepth = new Map<number, string[]>();
  // Discovery order: `depths` was filled in BFS order.
  for (const key of depths.keys()) {
    if (!placed.has(key)) continue;
    const depth = depths.get(key) ?? 0;
    const list = byDepth.get(depth) ?? [];
    list.push(key);
    byDepth.set(depth, list);
  }
  const columns: Array<{ depth: number; keys: string[] }> = [];
  for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    const keys = byDepth.get(depth) ?? [];
    for (let i = 0; i < keys.length; i += MAX_ROWS) columns.push({ depth, keys: keys.slice(i, i + MAX_ROWS) });
  }
  const rows = Math.max(1, ...columns.map((column) => column.keys.length));
  const rowStep = NODE_HEIGHT + ROW_GAP;
  const boxes = new Map<string, NodeBox>();
  columns.forEach((column, index) => {
    const top = ((rows - column.keys.length) * rowStep) / 2;
    column.keys.forEach((key, row) => {
      boxes.set(key, { x: index * (NODE_WIDTH + COLUMN_GAP), y: top + row * rowStep, width: NODE_WIDTH, height: NODE_HEIGHT, depth: column.depth });
    });
  });
  return boxes;
}

/** 0, 1, 2… for edges between the same two nodes in the same direction, so they do not overlap. */
function laneNumbers(edges: readonly LayoutEdge[]): Map<string, number> {
  const seen = new Map<string, number>();
  const lanes = new Map<string, number>();
  for (const edge of edges) {
    const pair = `${edge.from}\u0000${edge.to}`;
    const lane = seen.get(pair) ?? 0;
    seen.set(pair, lane + 1);
    lanes.set(edge.id, lane);
  }
  return lanes;
}

function curveBetween(from: NodeBox, to: NodeBox, lane: number): Bezier {
  const fromMid = from.y + from.height / 2;
  const toMid = to.y + to.height / 2;
  // Alternate lanes above and below the middle one: 0, +1, -1, +2, …
  const offset = (lane % 2 === 0 ? -1 : 1) * Math.ceil(lane / 2) * LANE;
  if (from === to) {
    // A loop over the top-right corner.
    const right = from.x + from.width;
    const grow = lane * LANE;
    return [
      { x: right - 28, y: from.y },
      { x: right - 28 - grow / 2, y: from.y - 30 - grow },
      { x: right + 30 + grow, y: from.y + 14 },
      { x: right, y: from.y + 14 },
    ];
  }
  if (to.x > from.x) {
    // Forward: right side to left side.
    const start = { x: from.x + from.width, y: fromMid + offset / 3 };
    const end = { x: to.x, y: toMid + offset / 3 };
    const pull = (end.x - start.x) / 2;
    return [start, { x: start.x + pull, y: start.y + offset }, { x: end.x - pull, y: end.y + offset }, end];
  }
  if (to.x === from.x) {
    // Same column: a bulge to the right.
    const bulge = 40 + Math.min(50, Math.abs(toMid - fromMid) / 8) + lane * LANE;
    const start = { x: from.x + from.width, y: fromMid };
    const end = { x: to.x + to.width, y: toMid };
    return [start, { x: start.x + bulge, y: start.y }, { x: end.x + bulge, y: end.y }, end];
  }
  // Backward: top to top, arcing above both.
  const peak = Math.min(from.y, to.y) - ARC - lane * LANE;
  const start = { x: from.x + from.width / 2 + offset / 2, y: from.y };
  const end = { x: to.x + to.width / 2 + offset / 2, y: to.y };
  return [start, { x: start.x, y: peak }, { x: end.x, y: peak }, end];
}

/** Translates boxes and curves so that all of them, labels included, lie inside the margins. */
function fitted(boxes: Map<string, NodeBox>, beziers: Map<string, Bezier>): GraphLayout {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const include = (x1: number, y1: number, x2: number, y2: number) => {
    minX = Math.min(minX, x1);
    minY = Math.min(minY, y1);
    maxX = Math.max(maxX, x2);
    maxY = Math.max(maxY, y2);
  };
  for (const box of boxes.values()) include(box.x, box.y, box.x + box.width, box.y + box.height);
  for (const bezier of beziers.values()) {
    // A Bézier curve lies within the hull of its control points.
    for (const point of bezier) include(point.x, point.y, point.x, point.y);
    const mid = midpoint(bezier);
    include(mid.x - LABEL_HALF_WIDTH, mid.y - LABEL_HALF_HEIGHT, mid.x + LABEL_HALF_WIDTH, mid.y + LABEL_HALF_HEIGHT);
  }
  if (minX === Infinity) return { boxes, curves: new Map(), width: 2 * MARGIN, height: 2 * MARGIN };
  const dx = MARGIN - minX;
  const dy = MARGIN - minY;
  const shifted = new Map<string, NodeBox>();
  for (const [key, box] of boxes) shifted.set(key, { ...box, x: round(box.x + dx), y: round(box.y + dy) });
  const curves = new Map<string, EdgeCurve>();
  for (const [id, bezier] of beziers) {
    const [p0, p1, p2, p3] = bezier.map((point) => ({ x: round(point.x + dx), y: round(point.y + dy) })) as Bezier;
    const mid = midpoint([p0, p1, p2, p3]);
    curves.set(id, { d: `M ${p0.x} ${p0.y} C ${p1.x} ${p1.y}, ${p2.x} ${p2.y}, ${p3.x} ${p3.y}`, labelX: round(mid.x), labelY: round(mid.y) });
  }
  return { boxes: shifted, curves, width: Math.ceil(maxX - minX + 2 * MARGIN), height: Math.ceil(maxY - minY + 2 * MARGIN) };
}

/** B(½) of a cubic Bézier curve. */
function midpoint([p0, p1, p2, p3]: Bezier): Point {
  return { x: (p0.x + 3 * p1.x + 3 * p2.x + p3.x) / 8, y: (p0.y + 3 * p1.y + 3 * p2.y + p3.y) / 8 };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
