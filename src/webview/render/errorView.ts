// An error entry: what failed in plain words, then its way out as buttons (Retry, Set API Key,
// Choose Model, Open Setting). The buttons only carry what they ask for (data-*); one listener
// on the log posts it (listenForActionButtons), as entries are re-rendered often.
import type { ChatEntry, ErrorAction, WebviewMessage } from '../../shared/protocol';
import { codicon, el } from '../dom';

type ErrorEntry = Extract<ChatEntry, { kind: 'error' }>;

const LABELS: Record<ErrorAction['kind'], { label: string; icon: string }> = {
  retry: { label: 'Retry', icon: 'refresh' },
  setApiKey: { label: 'Set API Key', icon: 'key' },
  chooseModel: { label: 'Choose Model', icon: 'settings' },
  openSetting: { label: 'Open Setting', icon: 'settings-gear' },
};

export function errorView(entry: ErrorEntry): HTMLElement {
  const element = el('div', 'message error');
  element.dataset.kind = 'error';
  element.setAttribute('aria-label', 'Error');
  element.append(codicon('error'), el('span', 'message-text', entry.text));
  const actions = entry.actions ?? [];
  if (actions.length > 0) {
    const row = el('div', 'error-actions');
    actions.forEach((action, i) => row.append(actionButton(action, i > 0)));
    element.append(row);
  }
  return element;
}

function actionButton(action: ErrorAction, secondary: boolean): HTMLElement {
  const { label, icon } = LABELS[action.kind];
  const button = el('vscode-button', `error-action error-${action.kind}`, action.kind === 'openSetting' ? `Open ${action.setting}` : label);
  button.setAttribute('icon', icon);
  if (secondary) button.setAttribute('secondary', '');
  button.dataset.post = JSON.stringify(messageFor(action));
  return button;
}

function messageFor(action: ErrorAction): WebviewMessage {
  switch (action.kind) {
    case 'retry':
      return { type: 'retry' };
    case 'setApiKey':
    case 'chooseModel':
      return { type: 'setup', action: action.kind };
    case 'openSetting':
      return { type: 'openSetting', id: action.setting };
  }
}

/** Posts the message a clicked button carries (error actions, the welcome's buttons and examples). */
export function listenForActionButtons(root: HTMLElement, post: (message: WebviewMessage) => void): void {
  root.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-post]') : null;
    if (!target?.dataset.post || target.hasAttribute('disabled')) return;
    // Built by this view from the host's entry; the host validates every message anyway.
    post(JSON.parse(target.dataset.post) as WebviewMessage);
  });
}
