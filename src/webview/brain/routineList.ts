// The Routines section of the brain view: each routine with its parameters and its steps in
// order, one row each (number, words, the crop of where the person clicked, Optional, move up /
// down, make a parameter, delete), and a replay's proposed change under its step (Accept /
// Reject). Buttons only post a request: the host confirms what cannot be undone, asks for
// names, applies the change and sends the routines again.
import type { BrainViewMessage, RoutineStepView, RoutineView } from '../../shared/brainProtocol';
import { codicon, el } from '../dom';
import { NO_ROUTINES_TEXT, parameterValue, proposalText, routineMeta, routinesDescription, UNTRUSTED_TEXT } from './routineFormat';
import { RoutineCrops } from './routineCrops';

type Collapsible = HTMLElementTagNameMap['vscode-collapsible'];
type ToolbarButton = HTMLElementTagNameMap['vscode-toolbar-button'];

export class RoutineList {
  readonly element: Collapsible;
  private readonly list: HTMLUListElement;
  private readonly crops: RoutineCrops;

  constructor(private readonly post: (message: BrainViewMessage) => void) {
    this.element = el('vscode-collapsible', 'side-section routine-section');
    this.element.heading = 'Routines';
    this.element.open = true;
    // Hidden until the host first sends the routines (it does after every graph).
    this.element.hidden = true;
    this.list = el('ul', 'rows routine-list');
    this.element.append(this.list);
    this.crops = new RoutineCrops((crops) => this.post({ type: 'routineCrops', crops }));
  }

  /** Replaces the rows; the section keeps whether it is open. */
  render(routines: readonly RoutineView[], total: number, now: number): void {
    this.crops.reset(new Set(routines.flatMap((r) => r.steps.flatMap((s) => [s.crop, s.proposal?.crop].filter((t): t is string => t !== undefined)))));
    this.element.hidden = false;
    this.element.description = routinesDescription(routines.length, total);
    const rows = routines.map((routine) => this.routineRow(routine, now));
    this.list.replaceChildren(...(rows.length > 0 ? rows : [el('li', 'none', NO_ROUTINES_TEXT)]));
  }

  /** The host's answer to a `routineCrops` request. */
  answerCrops(crops: ReadonlyArray<{ crop: string; src: string | null }>): void {
    this.crops.answer(crops);
  }

  private routineRow(routine: RoutineView, now: number): HTMLLIElement {
    const { id, name } = routine;
    const row = el('li', `row routine-row${routine.trusted ? '' : ' untrusted'}`);
    row.dataset.id = id;
    const head = el('div', 'row-head');
    const title = el('div', 'row-title');
    title.append(codicon('checklist'), el('span', 'row-name', name));
    head.append(
      title,
      actionButton('play', `Run "${name}"`, 'run', () => this.post({ type: 'runRoutine', id })),
      actionButton('edit', `Rename "${name}"`, 'rename', () => this.post({ type: 'renameRoutine', id })),
      actionButton('export', `Export "${name}" as a readable file`, 'export', () => this.post({ type: 'exportRoutine', id })),
      actionButton('trash', `Forget "${name}"`, 'forget', () => this.post({ type: 'forgetRoutine', id })),
    );
    row.append(head, el('div', 'row-meta', routineMeta(routine, now)));
    if (routine.description) row.append(el('div', 'row-detail', routine.description));
    if (!routine.trusted) {
      const trust = el('div', 'row-detail routine-trust');
      const why = el('div', 'routine-trust-text');
      why.append(codicon('workspace-untrusted'), el('span', '', ` ${UNTRUSTED_TEXT}`));
      trust.append(why, textButton('Confirm', 'confirm', `Trust "${name}": its steps run without asking one by one`, () => this.post({ type: 'confirmRoutine', id })));
      row.append(trust);
    }
    if (routine.runs.lastFailure) {
      const failure = el('div', 'row-detail path-failure');
      failure.append(codicon('warning'), document.createTextNode(` Last failure: ${routine.runs.lastFailure}`));
      row.append(failure);
    }
    if (routine.parameters.length > 0) row.append(this.parameters(routine));
    const steps = el('ol', 'routine-steps');
    steps.append(...routine.steps.map((step, index) => this.stepRow(routine, step, index)));
    row.append(steps);
    return row;
  }

  private parameters(routine: RoutineView): HTMLUListElement {
    const list = el('ul', 'routine-params');
    list.setAttribute('aria-label', `Parameters of ${routine.name}`);
    for (const parameter of routine.parameters) {
      const item = el('li', 'param-row');
      item.dataset.name = parameter.name;
      const text = el('div', 'param-text');
      text.append(el('code', 'param-name', `{${parameter.name}}`));
      const value = parameterValue(parameter);
      if (value) text.append(el('span', 'param-value', ` ${value}`));
      if (parameter.description) text.append(el('span', 'param-description', ` — ${parameter.description}`));
      const target = { id: routine.id, name: parameter.name };
      item.append(
        text,
        actionButton('edit', `Edit {${parameter.name}}: its name, description and default`, 'edit-parameter', () => this.post({ type: 'editParameter', ...target })),
        actionButton('close', `Remove {${parameter.name}}: its steps type the recorded text again`, 'remove-parameter', () => this.post({ type: 'removeParameter', ...target })),
      );
      list.append(item);
    }
    return list;
  }

  private stepRow(routine: RoutineView, step: RoutineStepView, index: number): HTMLLIElement {
    const id = routine.id;
    const count = routine.steps.length;
    const row = el('li', `step-row step-${step.kind}${step.optional ? ' optional' : ''}${step.proposal ? ' proposed' : ''}`);
    row.dataset.step = step.id;
    const head = el('div', 'step-head');
    head.append(el('span', 'step-number', `${index + 1}`), el('span', 'step-words', step.words));
    row.append(head);
    if (step.crop) row.append(this.crops.image(step.crop, `Where step ${index + 1} acts`, 'step-crop', row));

    const actions = el('div', 'step-actions');
    // The icon says the state too: the checked look alone is faint in some themes.
    const optional = actionButton(step.optional ? 'pass-filled' : 'circle-large-outline', step.optional ? `Step ${index + 1} is optional: skipped when not found. Click to make it required` : `Make step ${index + 1} optional: skipped when not found`, 'optional', () =>
      this.post({ type: 'stepOptional', id, step: step.id, optional: !step.optional }),
    );
    optional.setAttribute('toggleable', '');
    optional.toggleAttribute('checked', step.optional);
    optional.append('Optional');
    actions.append(
      optional,
      actionButton('arrow-up', `Move step ${index + 1} up`, 'move-up', () => this.post({ type: 'moveStep', id, step: step.id, to: index }), index === 0),
      actionButton('arrow-down', `Move step ${index + 1} down`, 'move-down', () => this.post({ type: 'moveStep', id, step: step.id, to: index + 2 }), index === count - 1),
    );
    if (step.typesText) actions.append(actionButton('symbol-parameter', `Make a parameter of a text step ${index + 1} types`, 'make-parameter', () => this.post({ type: 'makeParameter', id, step: step.id })));
    actions.append(actionButton('trash', `Delete step ${index + 1}`, 'delete-step', () => this.post({ type: 'deleteStep', id, step: step.id })));
    row.append(actions);

    if (step.proposal) {
      const proposal = el('div', 'step-proposal');
      const line = el('div', 'proposal-text');
      line.append(codicon('lightbulb'), el('span', '', ` ${proposalText(step.proposal)}`));
      proposal.append(line);
      if (step.proposal.crop) proposal.append(this.crops.image(step.proposal.crop, `Where the proposed step ${index + 1} acts`, 'step-crop', row));
      const buttons = el('div', 'proposal-buttons');
      buttons.append(
        textButton('Accept', 'accept', `Replace step ${index + 1} with the proposed one`, () => this.post({ type: 'acceptProposal', id, step: step.id })),
        textButton('Reject', 'reject', `Keep step ${index + 1} as recorded`, () => this.post({ type: 'rejectProposal', id, step: step.id }), true),
      );
      proposal.append(buttons);
      row.append(proposal);
    }
    return row;
  }
}

/** An icon button; `placeholder` keeps its place without a button (the first step has no "up"). */
function actionButton(icon: string, label: string, action: string, run: () => void, placeholder = false): ToolbarButton {
  const button = el('vscode-toolbar-button', placeholder ? 'row-action placeholder' : 'row-action');
  // Attributes rather than properties: they show in the DOM (and the browser test reads them).
  button.setAttribute('icon', icon);
  button.setAttribute('label', label);
  button.title = label;
  button.dataset.action = action;
  // Hidden by CSS (visibility), so it is neither seen, focused nor read out.
  if (!placeholder) button.addEventListener('click', run);
  return button;
}

function textButton(text: string, action: string, title: string, run: () => void, secondary = false): HTMLElementTagNameMap['vscode-button'] {
  const button = el('vscode-button', 'routine-button', text);
  button.dataset.action = action;
  button.title = title;
  if (secondary) button.setAttribute('secondary', '');
  button.addEventListener('click', run);
  return button;
}
