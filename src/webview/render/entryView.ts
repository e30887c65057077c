// The element for one chat entry. Assistant replies are updated in place while they stream (only
// their changed Markdown blocks are replaced); every other kind is rebuilt when it changes.
import type { ChatEntry } from '../../shared/protocol';
import { codicon, el } from '../dom';
import { errorView } from './errorView';
import { setMarkdown } from './markdownView';
import { screenView } from './screenPicture';
import { toolCard, type ApprovalHandler } from './toolCard';

/** Returns `existing` when it was updated in place, a new element otherwise. */
export function entryView(entry: ChatEntry, existing: HTMLElement | undefined, approvals: ApprovalHandler): HTMLElement {
  switch (entry.kind) {
    case 'user':
      return message('user', 'account', 'You', entry.text);
    case 'assistant':
      return assistantView(entry.text, existing);
    case 'error':
      return errorView(entry);
    case 'notice':
      return message('notice', 'info', 'Notice', entry.text);
    case 'screen':
      return tagged(screenView(entry), 'screen');
    case 'tool':
      return tagged(toolCard(entry, approvals), 'tool');
  }
}

/** The text each assistant element shows, to skip re-parsing an unchanged reply. */
const renderedText = new WeakMap<HTMLElement, string>();

function assistantView(text: string, existing: HTMLElement | undefined): HTMLElement {
  let element = existing?.dataset.kind === 'assistant' ? existing : undefined;
  if (!element) {
    element = tagged(el('div', 'message assistant'), 'assistant');
    element.setAttribute('aria-label', 'GAI');
    element.append(el('div', 'markdown'));
  }
  const body = element.querySelector<HTMLElement>(':scope > .markdown');
  if (body && renderedText.get(element) !== text) {
    setMarkdown(body, text);
    renderedText.set(element, text);
  }
  return element;
}

/** Plain text messages: shown as text (white-space kept), never parsed as HTML or Markdown. */
function message(kind: 'user' | 'error' | 'notice', icon: string, label: string, text: string): HTMLElement {
  const element = tagged(el('div', `message ${kind}`), kind);
  element.setAttribute('aria-label', label);
  if (kind !== 'user') element.append(codicon(icon));
  element.append(el('span', 'message-text', text));
  return element;
}

function tagged(element: HTMLElement, kind: ChatEntry['kind']): HTMLElement {
  element.dataset.kind = kind;
  return element;
}
