// The brain view's entry point (bundled to media/dist/brainView.js). The host sends the whole
// graph, laid out, whenever the brain changes; this view draws it (graphSvg), lists it
// (brainLists), keeps the selection across redraws, shows the selected screen's picture
// (thumbnailPreview), lists the routines the host sends after it (routineList), and posts the
// person's requests.
import './brainElements';
import type { BrainGraphView, BrainHostMessage, BrainNodeView } from '../../shared/brainProtocol';
import { byId, el } from '../dom';
import { brainVsCodeApi } from './brainApi';
import { noticeText, statsLine } from './brainFormat';
import { BrainLists } from './brainLists';
import { graphSvg, type Selection } from './graphSvg';
import { RoutineList } from './routineList';
import { ThumbnailPreview } from './thumbnailPreview';

const vscode = brainVsCodeApi();
const graphArea = byId('graph');
const message = byId('message');
let selection: Selection | undefined;
/** Edge ends of the last graph (the DOM keeps only ids), to mark the paths of a selected node. */
const edgeEnds = new Map<string, { from: string; to: string }>();
/** The screens of the last graph, for the selected one's picture. */
const screens = new Map<string, BrainNodeView>();

const preview = new ThumbnailPreview((key) => vscode.postMessage({ type: 'thumbnail', key }));
const listArea = el('div', 'side-lists');
byId('side').replaceChildren(preview.element, listArea);
const lists = new BrainLists(listArea, {
  select,
  renameNode: (key) => vscode.postMessage({ type: 'renameNode', key }),
  forgetNode: (key) => vscode.postMessage({ type: 'forgetNode', key }),
  forgetPath: (id) => vscode.postMessage({ type: 'forgetPath', id }),
});
const routines = new RoutineList((request) => vscode.postMessage(request));
listArea.append(routines.element);

function render(graph: BrainGraphView): void {
  byId('stats').textContent = statsLine(graph.stats);
  const notice = noticeText(graph);
  showMessage(notice?.text, notice?.kind ?? 'none');
  graphArea.replaceChildren(...(graph.nodes.length > 0 ? [graphSvg(graph, select)] : []));
  graphArea.classList.toggle('blank', graph.nodes.length === 0);
  lists.render(graph, Date.now());
  // The selection survives a redraw while what it names is still there.
  if (selection && !selectedElements(selection).length) selection = undefined;
  highlight();
}

function showMessage(text: string | undefined, kind: string): void {
  message.hidden = text === undefined;
  message.className = `message ${kind}`;
  message.textContent = text ?? '';
}

/** Marks the selected node or path in the picture and the list, and the paths of a selected node. */
function select(next: Selection): void {
  selection = next;
  highlight();
  const row = document.querySelector(next.kind === 'node' ? `.node-row[data-key="${CSS.escape(next.key)}"]` : `.path-row[data-id="${CSS.escape(next.id)}"]`);
  row?.scrollIntoView({ block: 'nearest' });
}

function highlight(): void {
  for (const element of Array.from(document.querySelectorAll('.selected, .related'))) element.classList.remove('selected', 'related');
  preview.show(selection?.kind === 'node' ? screens.get(selection.key) : undefined);
  if (!selection) return;
  for (const element of selectedElements(selection)) element.classList.add('selected');
  if (selection.kind !== 'node') return;
  const key = selection.key;
  for (const edge of Array.from(document.querySelectorAll('.edge[data-id]'))) {
    const id = edge.getAttribute('data-id') ?? '';
    const touches = edgeTouches(id, key);
    edge.classList.toggle('related', touches);
    document.querySelector(`.path-row[data-id="${CSS.escape(id)}"]`)?.classList.toggle('related', touches);
  }
}

function selectedElements(current: Selection): Element[] {
  const selector =
    current.kind === 'node'
      ? `.node[data-key="${CSS.escape(current.key)}"], .node-row[data-key="${CSS.escape(current.key)}"]`
      : `.edge[data-id="${CSS.escape(current.id)}"], .path-row[data-id="${CSS.escape(current.id)}"]`;
  return Array.from(document.querySelectorAll(selector));
}

function edgeTouches(id: string, key: string): boolean {
  const ends = edgeEnds.get(id);
  return ends !== undefined && (ends.from === key || ends.to === key);
}

window.addEventListener('message', (event: MessageEvent<BrainHostMessage>) => {
  const data = event.data;
  if (typeof data !== 'object' || data === null || typeof data.type !== 'string') return;
  if (data.type === 'graph') {
    edgeEnds.clear();
    for (const edge of data.graph.edges) edgeEnds.set(edge.id, { from: edge.from, to: edge.to });
    screens.clear();
    for (const node of data.graph.nodes) screens.set(node.key, node);
    render(data.graph);
  } else if (data.type === 'error') {
    showMessage(data.text, 'error');
  } else if (data.type === 'thumbnail' && typeof data.key === 'string') {
    preview.answer(data.key, typeof data.src === 'string' ? data.src : null);
  } else if (data.type === 'routines' && Array.isArray(data.routines)) {
    routines.render(data.routines, data.total, Date.now());
  } else if (data.type === 'routineCrops' && Array.isArray(data.crops)) {
    routines.answerCrops(data.crops);
  }
});

byId('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && selection) {
    selection = undefined;
    highlight();
  }
});
// After the page is wired: the host answers with the graph.
vscode.postMessage({ type: 'ready' });
