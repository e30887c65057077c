// One card per tool call: name, risk badge, status with a codicon, duration, the input
// (collapsible), the result, and inline approval buttons while the call waits for the person.
import type { ApprovalChoice, ChatEntry, ToolStatus } from '../../shared/protocol';
import { codicon, el, formatMs } from '../dom';
import { renderInlineMarkdown } from './markdown';
import { buildPictureModel } from './pictureModel';
import { pictureButton } from './screenPicture';
import { pictureSvg } from './pictureSvg';

type ToolEntry = Extract<ChatEntry, { kind: 'tool' }>;

export interface ApprovalHandler {
  /** Calls already answered here: their buttons stay disabled until the host updates the card. */
  answered: ReadonlySet<string>;
  answer(callId: string, decision: ApprovalChoice): void;
}

const STATUS: Record<ToolStatus, { label: string; icon: string; spin?: boolean }> = {
  running: { label: 'running', icon: 'loading', spin: true },
  awaiting_approval: { label: 'waiting for approval', icon: 'shield' },
  done: { label: 'done', icon: 'pass' },
  failed: { label: 'failed', icon: 'error' },
  denied: { label: 'denied', icon: 'circle-slash' },
  cancelled: { label: 'cancelled', icon: 'debug-stop' },
};

const RISK_HINT: Record<ToolEntry['risk'], string> = {
  read: 'Risk: read — only looks',
  action: 'Risk: action — acts on the desktop',
  system: 'Risk: system — can change the system',
};

interface Choice {
  decision: ApprovalChoice;
  label: string;
  icon: string;
  secondary: boolean;
}

const TOOL_CHOICES: readonly Choice[] = [
  { decision: 'approve', label: 'Approve', icon: 'check', secondary: false },
  { decision: 'deny', label: 'Deny', icon: 'close', secondary: true },
  { decision: 'always', label: 'Allow for this conversation', icon: 'check-all', secondary: true },
];

/** One question for the action and the app it lands in: this action, the app for the conversation, always there (first time only), deny. */
function choicesFor(approval: ToolEntry['approval']): readonly Choice[] {
  const app = approval?.app;
  if (!app || typeof app.name !== 'string') return TOOL_CHOICES;
  return [
    { decision: 'approve', label: app.undecided ? 'Allow once' : 'Approve', icon: 'check', secondary: false },
    { decision: 'app-conversation', label: `Allow in ${app.name} for this conversation`, icon: 'check-all', secondary: true },
    ...(app.undecided ? [{ decision: 'app-always' as const, label: `Always allow in ${app.name}`, icon: 'pass-filled', secondary: true }] : []),
    { decision: 'deny', label: 'Deny', icon: 'close', secondary: true },
  ];
}

/** A long observation is shown in full but scrolls inside the card (see chat.css). */
export function toolCard(entry: ToolEntry, approvals: ApprovalHandler): HTMLElement {
  const status = STATUS[entry.status] ?? STATUS.running;
  const card = el('section', `tool status-${entry.status}`);
  card.setAttribute('aria-label', `Tool ${entry.name}, ${status.label}`);

  const header = el('header', 'tool-header');
  const risk = el('vscode-badge', `risk risk-${entry.risk}`, entry.risk);
  risk.title = RISK_HINT[entry.risk] ?? `Risk: ${entry.risk}`;
  const statusLine = el('span', 'tool-status');
  statusLine.append(codicon(status.icon, status.spin ? 'codicon-modifier-spin' : ''), el('span', '', status.label));
  if (entry.durationMs !== undefined) statusLine.append(el('span', 'tool-duration', formatMs(entry.durationMs)));
  header.append(codicon('tools'), el('span', 'tool-name', entry.name), risk, statusLine);
  card.append(header);
  if (entry.approval) card.append(approvalSentence(entry.approval));

  const input = el('vscode-collapsible', 'tool-input');
  input.setAttribute('heading', entry.approval ? 'Raw input' : 'Input');
  input.append(el('pre', 'tool-input-text', capped(entry.input)));
  card.append(input);

  if (entry.observation) {
    const observation = el('div', 'observation');
    observation.setAttribute('aria-label', 'Result');
    observation.append(el('pre', '', capped(entry.observation)));
    card.append(observation);
  }
  const after = entry.after ? buildPictureModel(entry.after) : undefined;
  if (after) card.append(afterPicture(after, { folded: entry.afterFolded === true, part: entry.afterFull !== undefined }));
  if (entry.status === 'awaiting_approval') card.append(approvalButtons(entry, approvals));
  return card;
}

/**
 * The host already bounds what it sends; the card bounds it again so one odd entry (a huge
 * input, an unbounded observation) can never make the chat unusable.
 */
const MAX_CARD_TEXT_CHARS = 20_000;

function capped(text: unknown): string {
  const value = typeof text === 'string' ? text : String(text);
  if (value.length <= MAX_CARD_TEXT_CHARS) return value;
  return `${value.slice(0, MAX_CARD_TEXT_CHARS)}… (${value.length - MAX_CARD_TEXT_CHARS} more characters)`;
}

/** What the call will do, in words (Markdown without links), and the screen around its point. */
function approvalSentence(approval: NonNullable<ToolEntry['approval']>): HTMLElement {
  const box = el('div', 'approval-what');
  const sentence = el('p', 'approval-text');
  // Safe as HTML: the renderer escapes raw HTML and makes no links.
  sentence.innerHTML = renderInlineMarkdown(typeof approval.text === 'string' ? approval.text : '');
  box.append(sentence);
  const app = approval.app;
  if (app?.undecided && typeof app.name === 'string') box.append(el('p', 'approval-app-note', `GAI has not acted in ${app.name} before. Your answer can cover it for this conversation, or always.`));
  const model = approval.picture ? buildPictureModel(approval.picture) : undefined;
  if (model) {
    const picture = el('div', 'approval-picture');
    picture.append(pictureSvg(model));
    box.append(picture);
  }
  return box;
}

/**
 * The screen when the action had finished, around the point where it acted: its effect. Folded
 * once a newer action shows its own (one click opens it); the picture opens the whole screen.
 */
function afterPicture(model: NonNullable<ReturnType<typeof buildPictureModel>>, how: { folded: boolean; part: boolean }): HTMLElement {
  const box = el('details', 'tool-after');
  if (!how.folded) box.setAttribute('open', '');
  const summary = el('summary', 'tool-after-label', how.part ? 'Screen after · around the action' : 'Screen after');
  const button = pictureButton(model, 'after');
  if (how.part) button.title = 'Open the whole screen after this action in an editor tab';
  box.append(summary, button);
  return box;
}

function approvalButtons(entry: ToolEntry, approvals: ApprovalHandler): HTMLElement {
  const group = el('div', 'approval');
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', `Allow ${entry.name} to run?`);
  const answered = approvals.answered.has(entry.callId);
  const buttons = choicesFor(entry.approval).map(({ decision, label, icon, secondary }) => {
    const button = el('vscode-button', `approval-${decision}`, label);
    button.setAttribute('icon', icon);
    button.dataset.decision = decision;
    if (secondary) button.setAttribute('secondary', '');
    if (answered) button.setAttribute('disabled', '');
    button.addEventListener('click', () => {
      if (button.hasAttribute('disabled')) return;
      for (const other of buttons) other.setAttribute('disabled', '');
      approvals.answer(entry.callId, decision);
    });
    return button;
  });
  group.append(...buttons);
  return group;
}
