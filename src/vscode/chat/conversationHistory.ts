// Which conversation the chat shows, saved after each request and on New Chat; History lists the
// saved ones in a QuickPick (choose to reopen, trash button to delete), and activation reopens
// the last one. A reopened conversation goes on: the next request gives the model its earlier
// turns (resumedTurns.ts).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import type { ChatEntry } from '../../shared/protocol';
import type { ChatSession } from './chatSession';
import { conversationTitle, relativeTime, type ConversationStore, type SavedConversation } from './conversationStore';
import { turnsFromEntries, type ResumedTurn } from './resumedTurns';

export const RESTORED_NOTE = 'Reopened: GAI goes on from here with the requests, replies and actions above (its screenshots were not kept).';

interface PickItem extends vscode.QuickPickItem {
  id: string;
}

const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this conversation' };

export class ConversationHistory {
  private currentId: string = randomUUID();

  constructor(
    private readonly chat: ChatSession,
    readonly store: ConversationStore,
    private readonly warn: (message: string) => void,
    /** Ends the running request and starts the model afresh (saving the current conversation first). */
    private readonly newConversation: () => Promise<void>,
    /** The model's next request goes on from these turns. */
    private readonly resume: (turns: ResumedTurn[]) => void,
  ) {}

  get current(): string {
    return this.currentId;
  }

  /** Saves what the chat shows under the current id (nothing when it is empty); never throws. */
  async save(): Promise<void> {
    if (this.chat.entries.length === 0) return;
    const entries = [...this.chat.entries];
    try {
      await this.store.save({ id: this.currentId, title: conversationTitle(entries), updatedAt: Date.now(), entries, usage: this.chat.usage });
    } catch (error) {
      this.warn(`conversation history: saving failed: ${errorMessage(error)}`);
    }
  }

  /** New Chat: the current conversation is saved and the next one gets a new id. */
  async startNew(): Promise<void> {
    await this.save();
    this.currentId = randomUUID();
  }

  /** On activation: the last conversation, unless the chat has already started another. */
  async restoreLast(): Promise<boolean> {
    const [last] = await this.store.list();
    if (!last || this.chat.entries.length > 0 || this.chat.running) return false;
    this.show(last);
    return true;
  }

  /** Reopens a saved conversation; false when it is unknown or a request is running. */
  async open(id: string): Promise<boolean> {
    const saved = await this.store.get(id);
    if (!saved) return false;
    if (this.chat.running) {
      void vscode.window.showWarningMessage('GAI: the agent is still working; stop it before opening another conversation.');
      return false;
    }
    if (id !== this.currentId) await this.newConversation();
    this.show(saved);
    return true;
  }

  /** The History QuickPick: newest first, the current one marked; a trash button deletes. */
  async pick(): Promise<void> {
    const quickPick = vscode.window.createQuickPick<PickItem>();
    quickPick.title = 'GAI: Conversation History';
    quickPick.placeholder = 'Reopen a conversation';
    const refresh = async (): Promise<void> => {
      const now = Date.now();
      quickPick.items = (await this.store.list()).map((saved) => ({
        id: saved.id,
        label: saved.title,
        description: `${relativeTime(saved.updatedAt, now)}${saved.id === this.currentId ? ' · current' : ''}`,
        detail: `${saved.entries.length} entries`,
        buttons: [DELETE_BUTTON],
      }));
      if (quickPick.items.length === 0) quickPick.placeholder = 'No saved conversations yet';
    };
    await refresh();
    await new Promise<void>((resolve) => {
      quickPick.onDidTriggerItemButton(async (event) => {
        try {
          await this.store.delete(event.item.id);
          await refresh();
        } catch (error) {
          this.warn(`conversation history: deleting failed: ${errorMessage(error)}`);
        }
      });
      quickPick.onDidAccept(() => {
        const chosen = quickPick.selectedItems[0];
        quickPick.hide();
        if (chosen) void this.open(chosen.id);
      });
      quickPick.onDidHide(() => {
        quickPick.dispose();
        resolve();
      });
      quickPick.show();
    });
  }

  private show(saved: SavedConversation): void {
    this.currentId = saved.id;
    // Saved while a call was still running (New Chat stops it): nothing can answer it now.
    const entries: ChatEntry[] = saved.entries.map((entry) =>
      entry.kind === 'tool' && (entry.status === 'running' || entry.status === 'awaiting_approval') ? { ...entry, status: 'cancelled' } : entry,
    );
    const last = entries.at(-1);
    if (!(last?.kind === 'notice' && last.text === RESTORED_NOTE)) entries.push({ kind: 'notice', text: RESTORED_NOTE });
    this.chat.restore(entries, saved.usage);
    this.resume(turnsFromEntries(entries));
  }
}
