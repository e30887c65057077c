// The @gai chat participant: a request in VS Code's Chat view runs GAI's agent on the model chosen
// in the chat's model picker, streaming its text, a progress line per tool and the screen pictures.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../agent/agentEvents';
import type { ImageBlock } from '../../model/messages';
import type { ToolResult } from '../../tools/toolTypes';
import type { Logger } from '../../common/logger';
import type { ApprovalDecision, ApprovalRequest } from '../../runtime/toolRuntime';
import type { GaiParts } from '../gaiParts';
import { buildApprovalView } from '../chat/approvalView';
import { modalButtons } from '../chat/approvalModal';
import { wordError } from '../setup/errorWording';
import { plainText, progressText } from './participantWords';

export const CHAT_PARTICIPANT_ID = 'gai.agent';
/** Pictures kept in the participant's folder; older ones are deleted (a chat shows the recent ones). */
const KEEP_PICTURES = 40;
/** Longest wait for the active window's title before a progress line goes out without it. */
const TITLE_MS = 300;

export interface ChatParticipantDeps {
  getParts(): Promise<GaiParts>;
  /** GAI's own chat is running a request: the desktop is busy. */
  chatRunning(): boolean;
  /** Where the screen pictures the chat shows are written (the extension's global storage). */
  picturesDir: vscode.Uri;
  iconPath: vscode.Uri;
  logger: Logger;
}

/** What a handled request streamed, for the log and the tests. */
export interface ParticipantOutcome {
  progress: string[];
  pictures: vscode.Uri[];
  error?: string;
}

export class GaiChatParticipant {
  /** The newest request's outcome (tests read it through the extension's API). */
  last?: ParticipantOutcome;

  constructor(private readonly deps: ChatParticipantDeps) {}

  register(): vscode.Disposable {
    const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, context, stream, token) => this.handle(request, context, stream, token));
    participant.iconPath = this.deps.iconPath;
    return participant;
  }

  async handle(request: vscode.ChatRequest, _context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const outcome: ParticipantOutcome = { progress: [], pictures: [] };
    this.last = outcome;
    const fail = (message: string): vscode.ChatResult => {
      outcome.error = message;
      return { errorDetails: { message } };
    };
    if (this.deps.chatRunning()) return fail('GAI\'s own chat is working on the desktop now: wait for it or stop it, then ask again.');
    let parts: GaiParts;
    try {
      parts = await this.deps.getParts();
    } catch (error) {
      return fail(wordError(error, { provider: 'vscode-lm', attempts: 1 }).text);
    }
    const { agent, release } = parts.createChatAgent(request.model, (approval, signal) => this.approve(parts, approval, signal));
    const stop = new AbortController();
    const cancelled = token.onCancellationRequested(() => stop.abort());
    if (token.isCancellationRequested) stop.abort();
    this.deps.logger.info(`@gai: request on ${request.model.name} (${request.model.vendor})`);
    try {
      for await (const event of agent.streamRequest(request.prompt, { signal: stop.signal })) {
        await this.show(event, parts, stream, outcome);
      }
      return {};
    } catch (error) {
      if (stop.signal.aborted) return {};
      const worded = wordError(error, { provider: 'vscode-lm', attempts: 1 });
      this.deps.logger.warn(`@gai: ${worded.detail}`);
      return fail(worded.text);
    } finally {
      cancelled.dispose();
      release();
    }
  }

  private async show(event: AgentEvent, parts: GaiParts, stream: vscode.ChatResponseStream, outcome: ParticipantOutcome): Promise<void> {
    switch (event.type) {
      case 'text_delta':
        stream.markdown(event.text);
        break;
      case 'tool_started': {
        const line = progressText(event.call, await activeTitle(parts));
        outcome.progress.push(line);
        stream.progress(line);
        break;
      }
      case 'tool_finished':
        await this.showResult(event.call.name, event.result, stream, outcome);
        break;
      case 'done':
        if (event.response.note) stream.markdown(`\n\n*${event.response.note}*`);
        break;
      default:
        break;
    }
  }

  private async showResult(tool: string, result: ToolResult, stream: vscode.ChatResponseStream, outcome: ParticipantOutcome): Promise<void> {
    if (!result.success) stream.markdown(`\n\n> ${plainText(result.observation)}\n\n`);
    for (const image of result.images ?? []) {
      try {
        const uri = await this.savePicture(image);
        outcome.pictures.push(uri);
        // The chat renders a Markdown image of a local file; the reference opens it full size.
        stream.markdown(new vscode.MarkdownString(`\n\n![Screen after ${tool}](${uri.toString()})\n\n`));
        stream.reference(uri);
      } catch (error) {
        this.deps.logger.warn(`@gai: the screen picture was not saved: ${String(error)}`);
      }
    }
  }

  private async savePicture(image: ImageBlock): Promise<vscode.Uri> {
    const extension = image.source.mediaType === 'image/jpeg' ? 'jpg' : image.source.mediaType.replace('image/', '');
    await vscode.workspace.fs.createDirectory(this.deps.picturesDir);
    const uri = vscode.Uri.joinPath(this.deps.picturesDir, `${Date.now()}-${randomUUID().slice(0, 8)}.${extension}`);
    await vscode.workspace.fs.writeFile(uri, Buffer.from(image.source.data, 'base64'));
    await this.prunePictures();
    return uri;
  }

  private async prunePictures(): Promise<void> {
    const entries = await vscode.workspace.fs.readDirectory(this.deps.picturesDir);
    // Names start with the time they were written: sorting them sorts by age.
    const names = entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name).sort();
    for (const name of names.slice(0, Math.max(0, names.length - KEEP_PICTURES))) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.deps.picturesDir, name));
    }
  }

  /** GAI's approval for an action tool: a modal with the call in words (the Chat view has no inline confirmation in 1.105's API). */
  private async approve(parts: GaiParts, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return 'deny';
    const view = await buildApprovalView(request, { desktop: parts.desktop.desktop, tools: parts.agentRuntime.registry, latestReading: () => parts.desktop.reader.latestSeen() });
    // Landing in an app: the same answers as the sidebar's card (one question for the action and the app).
    const buttons = request.app ? modalButtons(request.app).filter(([, decision]) => decision !== 'deny') : ([['Allow', 'approve'], ['Allow for this request', 'always']] as const);
    const choice = await vscode.window.showWarningMessage(
      `@gai wants to: ${plainText(view.text)}`,
      { modal: true, detail: `${request.summary}${request.note ? `\n${request.note}` : ''}` },
      ...buttons.map(([label]) => label),
    );
    return buttons.find(([label]) => label === choice)?.[1] ?? 'deny';
  }
}

async function activeTitle(parts: GaiParts): Promise<string | undefined> {
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), TITLE_MS).unref());
  try {
    const window = await Promise.race([parts.desktop.desktop.windows.activeWindow(), timeout]);
    return window?.title || undefined;
  } catch {
    return undefined;
  }
}
