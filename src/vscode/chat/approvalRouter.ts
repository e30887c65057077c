// Where an approval is asked: the chat card answers; when the view is not visible, a modal says
// the same and waits (a notification would expire into the notification centre). Stop answers
// both: the card through the signal, the modal is left to close unanswered. The modal's default
// button (Enter) is the safe answer, Deny; closing it (Cancel, Escape) answers nothing: the card
// still waits in the chat.
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { escapeInvisible } from '../../common/invisibleText';
import type { SecretRedactor } from '../../common/redact';
import type { ScreenPicture } from '../../shared/protocol';
import { grantsApp, type ApprovalDecision, type ApprovalRequest } from '../../runtime/toolRuntime';
import type { AgentActivity } from './agentActivity';
import type { GaiParts } from '../gaiParts';
import { buildApprovalView } from './approvalView';
import type { ChatSession } from './chatSession';
import type { OutputChannelLogger } from '../outputLogger';
import { CHAT_VIEW_ID } from './chatViewId';
import { modalButtons, modalDecision } from './approvalModal';
import { modalAppPrompt } from './appPermissionPrompt';
import type { AppPermissionPrompt } from '../../safety/appPermissions';
import { summarizeCall } from '../../tools/callPreview';

export interface ApprovalRouterDeps {
  chat: ChatSession;
  activity: AgentActivity;
  redactor: SecretRedactor;
  logger: OutputChannelLogger;
  parts: () => Promise<GaiParts>;
  viewVisible: () => boolean;
  /** After "Allow for this conversation": the header lists the grant. */
  grantsChanged: () => void;
  /** A question is waiting (its sentence in plain text): Navigate To's progress line says so. */
  asking?: (sentence: string) => void;
}

export class ApprovalRouter {
  constructor(private readonly deps: ApprovalRouterDeps) {}

  /** The runtime's approval handler. */
  readonly request = async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    const { chat, activity, redactor } = this.deps;
    const view = await this.view(request);
    const answer = chat.waitForApproval(request, signal, view);
    this.deps.asking?.(plainSentence(redactor.redact(view.text)));
    let byModal = false;
    if (!this.deps.viewVisible() && !signal.aborted) {
      const note = request.note ? `\n\n${redactor.redact(escapeInvisible(request.note))}` : '';
      void vscode.window
        .showWarningMessage(`GAI wants to: ${plainSentence(redactor.redact(view.text))}`, { modal: true, detail: `Risk: ${request.risk}. ${redactor.redact(request.summary)}${note}` }, ...modalButtons(request.app).map(([label]) => label))
        .then((choice) => {
          const decision = modalDecision(choice, request.app);
          if (decision === undefined) {
            // Closed unanswered: the question stays on the chat's card.
            if (!signal.aborted) void vscode.window.showInformationMessage('GAI waits for your answer on its chat card (Approve or Deny).', 'Open the chat').then((open) => open && void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`));
            return;
          }
          // Marked in the same turn as the answer: the runtime (and the audit) resume only after it.
          if (!chat.answerApproval(request.call.id, decision)) return; // the card answered first
          activity.answeredInModal(request.call.id);
          byModal = true;
        });
    }
    const decision = await answer;
    activity.answered(request, decision, byModal);
    if (decision === 'always' || grantsApp(decision)) queueMicrotask(() => this.deps.grantsChanged());
    return decision;
  };

  /**
   * The app guard's question when the call's approval did not ask it (the action needed no
   * approval): on the call's chat card, the same answers; a call the chat does not show (the
   * @gai participant's) asks in a modal.
   */
  readonly appPrompt: AppPermissionPrompt = async (question, signal) => {
    const { chat } = this.deps;
    if (!chat.showsCall(question.call.id)) return modalAppPrompt(question, signal);
    const app = { name: question.app, key: question.key, undecided: true };
    const request: ApprovalRequest = { call: question.call, risk: 'action', summary: summarizeCall(question.call), app };
    const decision = await this.request(request, signal);
    chat.handle({ type: 'approval_resolved', call: question.call, decision });
    switch (decision) {
      case 'app-conversation':
        return 'conversation';
      case 'app-always':
        return 'always';
      case 'deny':
        return undefined;
      default:
        return 'once';
    }
  };

  /** The sentence and picture for a card; the bare tool call when the desktop cannot say more. */
  private async view(request: ApprovalRequest): Promise<{ text: string; picture?: ScreenPicture }> {
    try {
      const parts = await this.deps.parts();
      return await buildApprovalView(request, {
        desktop: parts.desktop.desktop,
        tools: parts.agentRuntime.registry,
        latestReading: () => parts.desktop.reader.latestSeen(),
        glance: () => parts.desktop.reader.glance(),
        computerScale: async () => 1 / (await parts.computerDisplay.geometry()).scale,
      });
    } catch (error) {
      this.deps.logger.warn(`approval for ${request.call.name}: no description (${errorMessage(error)})`);
      return { text: `Run \`${request.call.name}\`` };
    }
  }
}

/** The Markdown sentence as plain text for a dialog: emphasis marks and escapes dropped. */
function plainSentence(markdown: string): string {
  // An escaped character is kept; an unescaped * or ` is Markdown's, not the sentence's.
  return markdown.replace(/\\(.)|[*`]/g, (_mark, escaped: string | undefined) => escaped ?? '');
}
