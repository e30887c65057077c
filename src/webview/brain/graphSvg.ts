// The brain as an SVG picture: learned paths as curves with arrowheads coloured by success rate
// and a `usage ×N, 80%` label, screens as rounded boxes with their label and visits (the
// launcher and the current screen styled apart). The host computed the layout; this only draws.
// Geometry goes in SVG attributes, looks in CSS classes (no style attributes: strict CSP), and
// every text from the brain goes in as textContent.
import type { BrainEdgeView, BrainGraphView, BrainNodeView, EdgeQuality } from '../../shared/brainProtocol';
import { edgeTooltip, nodeBoxMeta, nodeTooltip } from './brainFormat';

const SVG = 'http://www.w3.org/2000/svg';
const QUALITIES: readonly EdgeQuality[] = ['good', 'fair', 'poor', 'untried'];

export type Selection = { kind: 'node'; key: string } | { kind: 'path'; id: string };

export function graphSvg(graph: BrainGraphView, select: (selection: Selection) => void): SVGSVGElement {
  const svg = svgElement('svg', {
    class: 'brain-graph',
    width: graph.width,
    height: graph.height,
    viewBox: `0 0 ${graph.width} ${graph.height}`,
    role: 'group',
    'aria-label': `${graph.nodes.length} screens and ${graph.edges.length} paths`,
  });
  svg.append(arrowMarkers());
  const names = new Map(graph.nodes.map((node) => [node.key, node.label || node.shortLabel]));
  const edges = svgElement('g', { class: 'edges' });
  for (const edge of graph.edges) edges.append(edgeShape(edge, names, select));
  const nodes = svgElement('g', { class: 'nodes' });
  for (const node of graph.nodes) nodes.append(nodeShape(node, select));
  // Nodes over edges: a curve never hides a label.
  svg.append(edges, nodes);
  return svg;
}

/** One arrowhead per colour: a marker cannot take its colour from the line in every engine. */
function arrowMarkers(): SVGDefsElement {
  const defs = svgElement('defs', {});
  for (const quality of QUALITIES) {
    const marker = svgElement('marker', {
      id: `brain-arrow-${quality}`,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 9,
      markerHeight: 9,
      markerUnits: 'userSpaceOnUse',
      orient: 'auto-start-reverse',
    });
    marker.append(svgElement('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `arrow quality-${quality}` }));
    defs.append(marker);
  }
  return defs;
}

function edgeShape(edge: BrainEdgeView, names: ReadonlyMap<string, string>, select: (selection: Selection) => void): SVGGElement {
  const group = svgElement('g', { class: `edge quality-${edge.quality}`, 'data-id': edge.id });
  const title = svgElement('title', {});
  title.textContent = edgeTooltip(edge, names.get(edge.from) ?? edge.from, names.get(edge.to) ?? edge.to);
  // A wide transparent twin of the line makes the thin curve easy to hit with the mouse.
  const hit = svgElement('path', { d: edge.d, class: 'edge-hit' });
  const line = svgElement('path', { d: edge.d, class: 'edge-line', 'marker-end': `url(#brain-arrow-${edge.quality})` });
  const label = svgElement('text', { x: edge.labelX, y: edge.labelY, class: 'edge-label', 'text-anchor': 'middle', 'dominant-baseline': 'middle' });
  label.textContent = edge.label;
  group.append(title, hit, line, label);
  group.addEventListener('click', () => select({ kind: 'path', id: edge.id }));
  return group;
}

function nodeShape(node: BrainNodeView, select: (selection: Selection) => void): SVGGElement {
  const classes = ['node', node.isLauncher ? 'launcher' : '', node.isCurrent ? 'current' : ''].filter(Boolean).join(' ');
  const group = svgElement('g', { class: classes, 'data-key': node.key, tabindex: 0, role: 'button' });
  group.setAttribute('aria-label', `${node.label || node.shortLabel}${node.isCurrent ? ' (current screen)' : ''}`);
  const title = svgElement('title', {});
  title.textContent = nodeTooltip(node);
  const box = svgElement('rect', { x: node.x, y: node.y, width: node.width, height: node.height, rx: node.isLauncher ? node.height / 2 : 6 });
  const label = svgElement('text', { x: node.x + 10, y: node.y + 19, class: 'node-label' });
  label.textContent = node.shortLabel;
  const meta = svgElement('text', { x: node.x + 10, y: node.y + 36, class: 'node-meta' });
  meta.textContent = nodeBoxMeta(node);
  group.append(title, box, label, meta);
  if (node.isCurrent) {
    const tag = svgElement('text', { x: node.x + node.width - 8, y: node.y - 5, class: 'node-tag', 'text-anchor': 'end' });
    tag.textContent = 'current';
    group.append(tag);
  }
  group.addEventListener('click', () => select({ kind: 'node', key: node.key }));
  group.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    select({ kind: 'node', key: node.key });
  });
  return group;
}

function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}
