// The side lists of the brain view: screens (Rename, Forget) and paths (Forget), with the facts
// the picture has no room for (actions, targets, the last failure). Buttons only post a request:
// the host confirms a forget and asks for the new label itself.
import type { BrainEdgeView, BrainGraphView, BrainNodeView } from '../../shared/brainProtocol';
import { codicon, el } from '../dom';
import { nodeMeta, pathMeta, screensDescription } from './brainFormat';
import type { Selection } from './graphSvg';

export interface ListActions {
  select(selection: Selection): void;
  renameNode(key: string): void;
  forgetNode(key: string): void;
  forgetPath(id: string): void;
}

type Collapsible = HTMLElementTagNameMap['vscode-collapsible'];

export class BrainLists {
  private readonly screens: Collapsible;
  private readonly paths: Collapsible;

  constructor(
    container: HTMLElement,
    private readonly actions: ListActions,
  ) {
    this.screens = section('Screens', 'screen-list');
    this.paths = section('Paths', 'path-list');
    container.replaceChildren(this.screens, this.paths);
  }

  /** Replaces the rows; the sections keep whether they are open. */
  render(graph: BrainGraphView, now: number): void {
    const names = new Map(graph.nodes.map((node) => [node.key, node.label || node.shortLabel]));
    this.screens.description = screensDescription(graph);
    this.paths.description = String(graph.edges.length);
    const screenRows = [...graph.nodes].sort(byScreenOrder).map((node) => this.nodeRow(node, now));
    const pathRows = graph.edges.map((edge) => this.pathRow(edge, names, now));
    listOf(this.screens).replaceChildren(...(screenRows.length > 0 ? screenRows : [el('li', 'none', 'No screens yet.')]));
    listOf(this.paths).replaceChildren(...(pathRows.length > 0 ? pathRows : [el('li', 'none', 'No paths yet.')]));
  }

  private nodeRow(node: BrainNodeView, now: number): HTMLLIElement {
    const row = el('li', `row node-row${node.isLauncher ? ' launcher' : ''}${node.isCurrent ? ' current' : ''}`);
    row.dataset.key = node.key;
    const icon = node.isLauncher ? 'rocket' : node.isCurrent ? 'location' : 'window';
    const name = node.label || node.shortLabel;
    const head = el('div', 'row-head');
    head.append(this.selectButton(name, icon, { kind: 'node', key: node.key }));
    if (!node.isLauncher) {
      head.append(
        actionButton('edit', `Rename "${name}"`, 'rename', () => this.actions.renameNode(node.key)),
        actionButton('trash', `Forget "${name}" and its paths`, 'forget', () => this.actions.forgetNode(node.key)),
      );
    }
    row.append(head, el('div', 'row-meta', nodeMeta(node, now)));
    if (node.windowTitle && node.windowTitle !== name) row.append(el('div', 'row-detail', `Window: ${node.windowTitle}`));
    return row;
  }

  private pathRow(edge: BrainEdgeView, names: ReadonlyMap<string, string>, now: number): HTMLLIElement {
    const row = el('li', `row path-row quality-${edge.quality}`);
    row.dataset.id = edge.id;
    const from = names.get(edge.from) ?? edge.from;
    const to = names.get(edge.to) ?? edge.to;
    const head = el('div', 'row-head');
    head.append(
      this.selectButton(`${from} → ${to}`, 'arrow-right', { kind: 'path', id: edge.id }),
      actionButton('trash', `Forget the path from "${from}" to "${to}"`, 'forget', () => this.actions.forgetPath(edge.id)),
    );
    const meta = el('div', 'row-meta');
    meta.append(el('span', `quality-dot quality-${edge.quality}`), document.createTextNode(pathMeta(edge, now)));
    row.append(head, meta);
    if (edge.targets.length > 0) row.append(el('div', 'row-detail', `For: ${edge.targets.join(', ')}`));
    const steps = el('ol', 'path-actions');
    for (const action of edge.actions) steps.append(el('li', '', action));
    row.append(steps);
    if (edge.lastFailure) {
      const failure = el('div', 'row-detail path-failure');
      failure.append(codicon('warning'), document.createTextNode(` Last failure: ${edge.lastFailure}`));
      row.append(failure);
    }
    return row;
  }

  private selectButton(text: string, icon: string, selection: Selection): HTMLButtonElement {
    const button = el('button', 'row-title');
    button.type = 'button';
    button.title = text;
    button.append(codicon(icon), el('span', 'row-name', text));
    button.addEventListener('click', () => this.actions.select(selection));
    return button;
  }
}

function section(heading: string, listClass: string): Collapsible {
  const collapsible = el('vscode-collapsible', 'side-section');
  collapsible.heading = heading;
  collapsible.open = true;
  collapsible.append(el('ul', `rows ${listClass}`));
  return collapsible;
}

function listOf(collapsible: Collapsible): HTMLUListElement {
  return collapsible.querySelector('ul') as HTMLUListElement;
}

function actionButton(icon: string, label: string, action: string, run: () => void): HTMLElementTagNameMap['vscode-toolbar-button'] {
  const button = el('vscode-toolbar-button', 'row-action');
  // Attributes rather than properties: they show in the DOM (and the browser test reads them).
  button.setAttribute('icon', icon);
  button.setAttribute('label', label);
  button.title = label;
  button.dataset.action = action;
  button.addEventListener('click', (event) => {
    // The row is not selected by its own buttons.
    event.stopPropagation();
    run();
  });
  return button;
}

/** The launcher, then the current screen, then by label. */
function byScreenOrder(a: BrainNodeView, b: BrainNodeView): number {
  return (
    Number(b.isLauncher) - Number(a.isLauncher) ||
    Number(b.isCurrent ?? false) - Number(a.isCurrent ?? false) ||
    (a.label || a.shortLabel).localeCompare(b.label || b.shortLabel, undefined, { numeric: true }) ||
    (a.key < b.key ? -1 : 1)
  );
}
