// The chat webview's entry point. The host keeps the conversation and posts changes; this view
// mirrors them (viewState), renders only what changed (chatLog) and saves a trimmed copy with
// setState so the view comes back at once when shown again.
import './elements';
import type { ApprovalChoice, HostMessage } from '../shared/protocol';
import { ChatLog } from './chatLog';
import { Controls } from './controls';
import { byId } from './dom';
import { entryView } from './render/entryView';
import { GrantsBar } from './grantsBar';
import { DesktopBar } from './desktopBar';
import { listenForPictureLinks } from './pictureLinks';
import { listenForActionButtons } from './render/errorView';
import { WelcomePanel } from './welcome';
import type { ApprovalHandler } from './render/toolCard';
import { ThinkingRow } from './thinkingRow';
import { applyHostMessage, emptyState, restoreState, stateForSaving, type ViewState } from './viewState';
import { vscodeApi } from './vscodeApi';

/** Saving serialises the conversation; while a reply streams, once in this long is enough. */
const SAVE_INTERVAL_MS = 300;

const vscode = vscodeApi();
const state: ViewState = restoreState(vscode.getState()) ?? emptyState();

const answered = new Set<string>();
const approvals: ApprovalHandler = {
  answered,
  answer(callId: string, decision: ApprovalChoice) {
    answered.add(callId);
    vscode.postMessage({ type: 'approval', callId, decision });
  },
};

const controls = new Controls((message) => vscode.postMessage(message));
// The header above the conversation: tools allowed for it, each revocable.
const grants = new GrantsBar((message) => vscode.postMessage(message));
byId('log').before(grants.element);
// Where GAI works, above the grants.
const desktop = new DesktopBar((message) => vscode.postMessage(message));
grants.element.before(desktop.element);
// The empty chat's welcome: what GAI does, requests to try, the setup state.
// Above the grants header, which stays right before the log it belongs to.
const welcome = new WelcomePanel((text) => controls.fill(text));
grants.element.before(welcome.element);
listenForActionButtons(welcome.element, (message) => vscode.postMessage(message));
const log = new ChatLog(
  byId('log'),
  (index, existing) => {
    const entry = state.entries[index];
    const element = entry ? entryView(entry, existing, approvals) : undefined;
    if (element) element.dataset.index = String(index); // for pictureLinks
    return element;
  },
  () => scheduleSave(),
);
listenForPictureLinks(byId('log'), (message) => vscode.postMessage(message));
listenForActionButtons(byId('log'), (message) => vscode.postMessage(message));
// After the entries (the log's own list), so it follows the newest one.
const thinking = new ThinkingRow(byId('log'));
log.follow(thinking.element);

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleSave(): void {
  saveTimer ??= setTimeout(() => {
    saveTimer = undefined;
    vscode.setState(stateForSaving(state));
  }, SAVE_INTERVAL_MS);
}

function updateStatus(): void {
  controls.update(state);
  thinking.update(state.thinkingSince, state.running);
  // Screen readers wait with announcing a busy log until the reply is complete.
  byId('log').setAttribute('aria-busy', String(state.running));
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (typeof message !== 'object' || message === null || typeof message.type !== 'string') return;
  if (message.type === 'grants') return grants.update(message.tools, message.apps);
  if (message.type === 'desktop') return desktop.update(message);
  if (message.type === 'welcome') {
    welcome.setWelcome(message.welcome);
    return welcome.showFor(state.entries.length);
  }
  if (message.type === 'setupCheck') return welcome.setCheck(message.check);
  const change = applyHostMessage(state, message);
  switch (change.kind) {
    case 'all':
      answered.clear();
      log.renderAll(state.entries.length);
      welcome.showFor(state.entries.length);
      updateStatus();
      break;
    case 'entry': {
      const entry = state.entries[change.index];
      // The host has moved on from this approval; forget that it was answered here.
      if (entry?.kind === 'tool' && entry.status !== 'awaiting_approval') answered.delete(entry.callId);
      // A question for the person is never left below the fold.
      if (entry?.kind === 'tool' && entry.status === 'awaiting_approval' && !answered.has(entry.callId)) log.reveal(change.index);
      else log.invalidate(change.index);
      welcome.showFor(state.entries.length);
      break;
    }
    case 'controls':
      updateStatus();
      scheduleSave();
      break;
    case 'none':
      break;
  }
});

log.renderAll(state.entries.length);
updateStatus();
controls.focusInput();
// After the first render: the host answers with the full state.
vscode.postMessage({ type: 'ready' });

// For the browser test and for profiling from the webview developer tools.
Object.defineProperty(window, '__gaiChat', { value: { slowestRenderMs: () => log.slowestRenderMs, flush: () => log.flush() } });
