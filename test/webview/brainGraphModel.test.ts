// The Show Brain view model: which screens and paths are drawn, where, and with which texts.
import { strict as assert } from 'node:assert';
import { LAUNCHER_KEY, type BrainPath } from '../../src/navigation/store/brainTypes';
import type { BrainGraphView } from '../../src/shared/brainProtocol';
import { buildBrainGraph, edgeLabel, edgeQuality, LAUNCHER_LABEL, MAX_DRAWN_NODES, shortLabel } from '../../src/vscode/brain/brainGraphModel';
import { documentOf, node, path, settingsBrain } from './brainViewFixtures';

/** Every number of every curve's path data. */
function curvePoints(d: string): Array<{ x: number; y: number }> {
  const numbers = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
  const points: Array<{ x: number; y: number }> = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) points.push({ x: numbers[i] as number, y: numbers[i + 1] as number });
  return points;
}

function assertWithinBounds(graph: BrainGraphView): void {
  for (const n of graph.nodes) {
    assert.ok(n.x >= 0 && n.y >= 0, `${n.key} at (${n.x}, ${n.y})`);
    assert.ok(n.x + n.width <= graph.width && n.y + n.height <= graph.height, `${n.key} leaves ${graph.width}×${graph.height}`);
  }
  for (const e of graph.edges) {
    assert.match(e.d, /^M [\d.]+ [\d.]+ C [\d.]+ [\d.]+, [\d.]+ [\d.]+, [\d.]+ [\d.]+$/);
    for (const p of curvePoints(e.d)) assert.ok(p.x >= 0 && p.y >= 0 && p.x <= graph.width && p.y <= graph.height, `${e.id}: (${p.x}, ${p.y})`);
    assert.ok(e.labelX > 0 && e.labelY > 0 && e.labelX < graph.width && e.labelY < graph.height, `${e.id} label`);
  }
}

function assertEdgesReferenceDrawnNodes(graph: BrainGraphView): void {
  const keys = new Set(graph.nodes.map((n) => n.key));
  for (const e of graph.edges) assert.ok(keys.has(e.from) && keys.has(e.to), `${e.id}: ${e.from} → ${e.to}`);
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('brain view model', () => {
  it('draws every screen, the launcher and every path of a small brain, inside its bounds', () => {
    const graph = buildBrainGraph(settingsBrain());
    assert.deepEqual(graph.nodes.map((n) => n.key).sort(), [LAUNCHER_KEY, 'files::root', 'settings::home', 'settings::network', 'settings::wifi']);
    assert.deepEqual(graph.edges.map((e) => e.id), ['p-back', 'p-launch', 'p-net2', 'p-net', 'p-loop', 'p-wifi']);
    assert.deepEqual(graph.stats, { totalNodes: 4, totalPaths: 6, totalRuns: 17, averageSuccessRate: 0.783, hiddenNodes: 0, hiddenPaths: 0 });
    assertWithinBounds(graph);
    assertEdgesReferenceDrawnNodes(graph);
    for (const [i, a] of graph.nodes.entries()) for (const b of graph.nodes.slice(i + 1)) assert.ok(!overlaps(a, b), `${a.key} overlaps ${b.key}`);
  });

  it('lays out by BFS depth from the launcher, one column per depth', () => {
    const graph = buildBrainGraph(settingsBrain());
    const at = (key: string) => graph.nodes.find((n) => n.key === key);
    assert.deepEqual(
      [LAUNCHER_KEY, 'settings::home', 'settings::network', 'settings::wifi'].map((key) => at(key)?.depth),
      [0, 1, 2, 3],
    );
    const xs = [LAUNCHER_KEY, 'settings::home', 'settings::network', 'settings::wifi'].map((key) => at(key)?.x ?? -1);
    assert.deepEqual([...xs].sort((a, b) => a - b), xs, 'columns go left to right by depth');
    // A screen no path reaches starts a BFS of its own.
    assert.equal(at('files::root')?.depth, 0);
  });

  it('styles the launcher as a pseudo-node and its paths as edges from it', () => {
    const graph = buildBrainGraph(settingsBrain());
    const launcher = graph.nodes.find((n) => n.isLauncher);
    assert.deepEqual(
      launcher && { key: launcher.key, label: launcher.label, visits: launcher.visits, pathCount: launcher.pathCount },
      { key: LAUNCHER_KEY, label: LAUNCHER_LABEL, visits: 0, pathCount: 1 },
    );
    assert.equal(graph.nodes.filter((n) => n.isLauncher).length, 1);
    const launch = graph.edges.find((e) => e.from === LAUNCHER_KEY);
    assert.deepEqual(launch && { id: launch.id, to: launch.to, actions: launch.actions }, { id: 'p-launch', to: 'settings::home', actions: ['launch "settings"'] });
    // Without launcher paths there is no launcher node.
    const noLauncher = buildBrainGraph(documentOf([node('a::1', 'A'), node('a::2', 'B')], [path('p', 'a::1', 'a::2')]));
    assert.equal(noLauncher.nodes.some((n) => n.isLauncher), false);
    assert.equal(noLauncher.nodes.find((n) => n.key === 'a::1')?.depth, 0);
  });

  it('gives each path its success colour, usage label, actions, targets and last failure', () => {
    const graph = buildBrainGraph(settingsBrain());
    const edge = (id: string) => graph.edges.find((e) => e.id === id);
    assert.deepEqual(
      ['p-launch', 'p-net', 'p-net2', 'p-wifi'].map((id) => [edge(id)?.quality, edge(id)?.label]),
      [
        ['good', 'usage ×4, 100%'],
        ['fair', 'usage ×3, 67%'],
        ['poor', 'usage ×4, 25%'],
        ['untried', 'usage ×0, new'],
      ],
    );
    assert.deepEqual(edge('p-net')?.actions, ['click "Next"']);
    assert.deepEqual(edge('p-net')?.targets, ['network']);
    assert.equal(edge('p-net')?.failures, 1);
    assert.equal(edge('p-net')?.lastFailure, 'step 2: "Network" not found (2025-03-01T10:00:00.000Z)');
    assert.equal(edge('p-launch')?.lastFailure, undefined);
    // Two paths between the same screens take different curves.
    assert.notEqual(edge('p-net')?.d, edge('p-net2')?.d);
    assert.deepEqual([edgeQuality({ usageCount: 5, successRate: 0.8 }), edgeLabel({ usageCount: 1, successRate: 1 })], ['good', 'usage ×1, 100%']);
  });

  it('marks the current screen, and only it', () => {
    const graph = buildBrainGraph(settingsBrain(), { currentNodeKey: 'settings::wifi' });
    assert.deepEqual(graph.nodes.filter((n) => n.isCurrent).map((n) => n.key), ['settings::wifi']);
    assert.equal(buildBrainGraph(settingsBrain(), { currentNodeKey: 'nope::x' }).nodes.some((n) => n.isCurrent), false);
  });

  it('shortens labels to fit a box and falls back to the window title, then the program', () => {
    const long = 'A very long screen label that does not fit into the box';
    const graph = buildBrainGraph(
      documentOf([node('a::1', long), node('a::2', '', 1, { windowTitle: 'Window title' }), node('prog::3', '  ', 1, { windowTitle: '' })], []),
    );
    const short = (key: string) => graph.nodes.find((n) => n.key === key)?.shortLabel;
    assert.equal(short('a::1'), 'A very long screen labe…');
    assert.equal(short('a::1')?.length, 24);
    assert.equal(graph.nodes.find((n) => n.key === 'a::1')?.label, long);
    assert.equal(short('a::2'), 'Window title');
    assert.equal(short('prog::3'), 'prog');
    assert.equal(shortLabel(' two\n lines '), 'two lines');
  });

  it('draws at most 200 screens (the current one always), counts the rest, and keeps edges to drawn screens only', () => {
    const nodes = Array.from({ length: 260 }, (_, i) => node(`app::${String(i).padStart(3, '0')}`, `Screen ${i}`, 260 - i));
    const paths: BrainPath[] = [path('p-launch', LAUNCHER_KEY, 'app::000', { successes: 3 })];
    for (let i = 1; i < 260; i++) paths.push(path(`p-${i}`, `app::${String(i - 1).padStart(3, '0')}`, `app::${String(i).padStart(3, '0')}`));
    const graph = buildBrainGraph(documentOf(nodes, paths), { currentNodeKey: 'app::259' });
    assert.equal(graph.nodes.length, MAX_DRAWN_NODES);
    // 260 screens (the launcher is drawn but no screen): the drawn screens and the hidden ones make the header's count.
    assert.equal(graph.stats.totalNodes, 260);
    assert.equal(graph.stats.hiddenNodes, 260 - (MAX_DRAWN_NODES - 1));
    assert.equal(graph.nodes.filter((n) => !n.isLauncher).length + graph.stats.hiddenNodes, graph.stats.totalNodes);
    assert.equal(graph.stats.hiddenPaths, paths.length - graph.edges.length);
    assert.ok(graph.nodes.some((n) => n.key === 'app::259' && n.isCurrent), 'the current screen is drawn');
    assert.ok(graph.nodes.some((n) => n.isLauncher), 'the launcher is drawn');
    assertEdgesReferenceDrawnNodes(graph);
    assertWithinBounds(graph);
  });

  it('bounds the paths drawn, the most used first', () => {
    const nodes = [node('a::1', 'One'), node('a::2', 'Two')];
    const paths = Array.from({ length: 8 }, (_, i) => path(`p-${i}`, 'a::1', 'a::2', { successes: i + 1 }));
    const graph = buildBrainGraph(documentOf(nodes, paths), { maxPaths: 3 });
    assert.deepEqual(graph.edges.map((e) => e.id), ['p-7', 'p-6', 'p-5']);
    assert.equal(graph.stats.hiddenPaths, 5);
    assertWithinBounds(graph);
  });

  it('wraps a crowded depth into several columns of at most 12 screens', () => {
    const apps = Array.from({ length: 30 }, (_, i) => node(`app${i}::main`, `App ${i}`));
    const graph = buildBrainGraph(documentOf(apps, apps.map((a, i) => path(`p-${i}`, LAUNCHER_KEY, a.key))));
    const columns = new Map<number, number>();
    for (const n of graph.nodes) columns.set(n.x, (columns.get(n.x) ?? 0) + 1);
    assert.deepEqual([...columns.values()].sort((a, b) => a - b), [1, 6, 12, 12]);
    assertWithinBounds(graph);
    for (const [i, a] of graph.nodes.entries()) for (const b of graph.nodes.slice(i + 1)) assert.ok(!overlaps(a, b), `${a.key} overlaps ${b.key}`);
  });

  it('is deterministic whatever the order of the stored nodes and paths', () => {
    const document = settingsBrain();
    const reversed = { ...document, nodes: [...document.nodes].reverse(), paths: [...document.paths].reverse() };
    assert.deepEqual(buildBrainGraph(reversed), buildBrainGraph(document));
  });

  it('draws an empty brain as an empty picture', () => {
    const graph = buildBrainGraph(documentOf([], []));
    assert.deepEqual({ nodes: graph.nodes, edges: graph.edges, hidden: graph.stats.hiddenNodes }, { nodes: [], edges: [], hidden: 0 });
    assert.ok(graph.width > 0 && graph.height > 0);
  });

  it('still draws a path whose end the document does not hold, so it can be forgotten', () => {
    const graph = buildBrainGraph(documentOf([node('a::1', 'One')], [path('p-x', 'a::1', 'gone::x')]));
    assert.deepEqual(graph.edges.map((e) => [e.from, e.to]), [['a::1', 'gone::x']]);
    assert.equal(graph.nodes.find((n) => n.key === 'gone::x')?.programName, 'gone');
  });
});
