// The chat webview: plain DOM, text inserted as text (never as HTML). The host keeps the
// conversation; getState/setState restores it at once when the view is shown again.
import type { ApprovalChoice, ChatEntry, HostMessage, UsageView, WebviewMessage } from '../shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface ViewState {
  entries: ChatEntry[];
  running: boolean;
  usage: UsageView;
}

const vscode = acquireVsCodeApi();
const log = byId('log');
const input = byId('input') as HTMLTextAreaElement;
const stopButton = byId('stop') as HTMLButtonElement;
const sendButton = byId('send') as HTMLButtonElement;
const usageLine = byId('usage');

let state: ViewState = restore() ?? { entries: [], running: false, usage: { requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 0 } };
renderAll();

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  switch (message.type) {
    case 'state':
      state = { entries: message.entries, running: message.running, usage: message.usage };
      renderAll();
      break;
    case 'entry':
      state.entries[message.index] = message.entry;
      renderEntry(message.index);
      break;
    case 'appendText': {
      const entry = state.entries[message.index];
      if (entry?.kind === 'assistant') {
        entry.text += message.text;
        renderEntry(message.index);
      }
      break;
    }
    case 'running':
      state.running = message.running;
      renderControls();
      break;
    case 'usage':
      state.usage = message.usage;
      renderControls();
      break;
  }
  vscode.setState(state);
});

byId('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  send();
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    send();
  }
});
stopButton.addEventListener('click', () => vscode.postMessage({ type: 'stop' }));
byId('new').addEventListener('click', () => vscode.postMessage({ type: 'newConversation' }));
vscode.postMessage({ type: 'ready' });

function send(): void {
  const text = input.value.trim();
  if (text === '' || state.running) return;
  input.value = '';
  vscode.postMessage({ type: 'send', text });
}

function renderAll(): void {
  log.replaceChildren();
  state.entries.forEach((_entry, index) => renderEntry(index));
  renderControls();
}

function renderControls(): void {
  stopButton.disabled = !state.running;
  sendButton.disabled = state.running;
  const u = state.usage;
  usageLine.textContent = `Tokens — last request: ${u.requestInput} in / ${u.requestOutput} out · session: ${u.sessionInput} in / ${u.sessionOutput} out`;
  document.body.classList.toggle('running', state.running);
}

function renderEntry(index: number): void {
  const entry = state.entries[index];
  if (!entry) return;
  const element = build(entry);
  element.dataset.index = String(index);
  const existing = log.querySelector(`[data-index="${index}"]`);
  if (existing) existing.replaceWith(element);
  else log.append(element);
  element.scrollIntoView({ block: 'end' });
}

function build(entry: ChatEntry): HTMLElement {
  switch (entry.kind) {
    case 'user':
      return el('div', 'message user', entry.text);
    case 'assistant':
      return el('div', 'message assistant', entry.text);
    case 'error':
      return el('div', 'message error', entry.text);
    case 'notice':
      return el('div', 'message notice', entry.text);
    case 'screen':
      return el('div', 'message notice', `${entry.title}\n${entry.text}`);
    case 'tool':
      return toolCard(entry);
  }
}

function toolCard(entry: Extract<ChatEntry, { kind: 'tool' }>): HTMLElement {
  const card = el('section', `tool status-${entry.status}`);
  const header = el('header', 'tool-header');
  header.append(el('span', 'tool-name', entry.name), el('span', `risk risk-${entry.risk}`, entry.risk), el('span', 'tool-status', statusText(entry)));
  const details = el('details', 'tool-input');
  details.append(el('summary', '', 'input'), el('pre', '', entry.input));
  card.append(header, details);
  if (entry.observation) card.append(el('div', 'observation', entry.observation));
  if (entry.status === 'awaiting_approval') {
    const buttons = el('div', 'approval');
    const choices: [ApprovalChoice, string, string][] = [
      ['approve', 'Approve', ''],
      ['deny', 'Deny', 'secondary'],
      ['always', 'Always allow this tool', 'secondary'],
    ];
    for (const [decision, label, cls] of choices) {
      const button = el('button', cls, label) as HTMLButtonElement;
      button.type = 'button';
      button.addEventListener('click', () => {
        buttons.querySelectorAll('button').forEach((b) => (b.disabled = true));
        vscode.postMessage({ type: 'approval', callId: entry.callId, decision });
      });
      buttons.append(button);
    }
    card.append(buttons);
  }
  return card;
}

function statusText(entry: Extract<ChatEntry, { kind: 'tool' }>): string {
  const labels: Record<typeof entry.status, string> = {
    running: 'running…',
    awaiting_approval: 'waiting for approval',
    done: 'done',
    failed: 'failed',
    denied: 'denied',
    cancelled: 'cancelled',
  };
  const duration = entry.durationMs === undefined ? '' : ` · ${formatMs(entry.durationMs)}`;
  return labels[entry.status] + duration;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function el(tag: string, className: string, text?: string): HTMLElement {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing`);
  return element;
}

function restore(): ViewState | undefined {
  const saved = vscode.getState() as Partial<ViewState> | undefined;
  return saved && Array.isArray(saved.entries) && saved.usage ? (saved as ViewState) : undefined;
}
