import type { ContentBlock, ImageBlock, Message, TextBlock, ToolCall, ToolResultBlock, ToolUseBlock } from './messages';
import { limitToolCall, limitToolUseId } from '../common/inputLimits';

export const SCREENSHOT_STUB = '[older screenshot removed to keep the conversation small]';

/** About 150k tokens of text: what one request carries at most, and what a session keeps. */
export const DEFAULT_MAX_HISTORY_CHARS = 600_000;

/** Screenshots stubbed at a time: the prompt cache misses once per three screenshots, not on each. */
export const DEFAULT_SCREENSHOT_BATCH = 3;

/** Stands first in the history once its oldest messages were dropped. */
export const TRIMMED_NOTE = '[Earlier messages of this conversation were removed to keep it within its size limit.]';

/**
 * The history sent to the model. Its invariants keep every request valid for the APIs:
 * roles alternate (a second user message merges into the first), and every `tool_use` of an
 * assistant message is answered by a `tool_result` in the next user message.
 */
export interface ConversationCheckpoint {
  length: number;
  lastBlocks: number;
  task: TextBlock[];
}

export class Conversation {
  private history: Message[] = [];
  /** The text that opened the conversation: kept first when older turns are trimmed. */
  private task: TextBlock[] = [];

  constructor(
    private readonly keepScreenshots = 3,
    /** The history's size in characters (text, inputs, image data) above which the oldest turns go. */
    private readonly maxChars = DEFAULT_MAX_HISTORY_CHARS,
    /**
     * Older screenshots are stubbed this many at a time: up to keep + batch accumulate, then all
     * but the newest `keepScreenshots` go at once. Each stub changes the history's prefix, which
     * the prompt cache then misses; batching makes that once per batch instead of every turn.
     */
    private readonly screenshotBatch = 0,
  ) {}

  get messages(): readonly Message[] {
    return this.history;
  }

  get length(): number {
    return this.history.length;
  }

  addUserMessage(content: string | Array<TextBlock | ImageBlock>): void {
    const blocks: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    if (this.history.length === 0) this.task = blocks.filter((b): b is TextBlock => b.type === 'text');
    const last = this.history.at(-1);
    if (last?.role === 'user') last.content.push(...blocks);
    else this.history.push({ role: 'user', content: [...blocks] });
    this.pruneScreenshots();
    this.trimToBudget();
  }

  /**
   * Adds the model's turn; a turn with neither text nor calls is not a valid message. A call
   * whose input is over the limits is kept as a small stand-in: serialising the history for the
   * next request must not overflow, and a long session must not keep megabytes per call.
   */
  addAssistantMessage(text: string, toolCalls: ToolCall[] = []): void {
    const content: ContentBlock[] = [];
    if (text.trim()) content.push({ type: 'text', text });
    for (const call of toolCalls.map(limitToolCall)) {
      content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input, ...(call.wire ? { wire: call.wire } : {}) });
    }
    if (content.length === 0) return;
    const last = this.history.at(-1);
    if (last?.role === 'assistant') last.content.push(...content);
    else this.history.push({ role: 'assistant', content });
  }

  addToolResult(toolUseId: string, content: Array<TextBlock | ImageBlock>, isError = false): void {
    const block: ToolResultBlock = { type: 'tool_result', toolUseId: limitToolUseId(toolUseId), content: [...content], isError };
    const last = this.history.at(-1);
    if (last?.role === 'user') {
      // tool_result blocks must come before any text in the user turn.
      const firstOther = last.content.findIndex((b) => b.type !== 'tool_result');
      if (firstOther === -1) last.content.push(block);
      else last.content.splice(firstOther, 0, block);
    } else {
      this.history.push({ role: 'user', content: [block] });
    }
    this.pruneScreenshots();
    this.trimToBudget();
  }

  /** The calls of the last assistant turn that have no result yet. */
  pendingToolUses(): ToolUseBlock[] {
    const lastAssistantIndex = this.history.findLastIndex((m) => m.role === 'assistant');
    const assistant = this.history[lastAssistantIndex];
    if (!assistant) return [];
    const answered = new Set(
      (this.history[lastAssistantIndex + 1]?.content ?? [])
        .filter((b): b is ToolResultBlock => b.type === 'tool_result')
        .map((b) => b.toolUseId),
    );
    return assistant.content.filter((b): b is ToolUseBlock => b.type === 'tool_use' && !answered.has(b.id));
  }

  /** Answers every unanswered call with an error result, e.g. after a cancel or a crash. */
  answerPending(reason: string): number {
    const pending = this.pendingToolUses();
    for (const use of pending) {
      const text = JSON.stringify({ success: false, code: 'CANCELLED', error: `${use.name} was not run: ${reason}` });
      this.addToolResult(use.id, [{ type: 'text', text }], true);
    }
    return pending.length;
  }

  clear(): void {
    this.history = [];
    this.task = [];
  }

  /** Where the history stands now, to take back a request the model never answered. */
  checkpoint(): ConversationCheckpoint {
    return { length: this.history.length, lastBlocks: this.history.at(-1)?.content.length ?? 0, task: this.task };
  }

  /**
   * Back to `checkpoint` when only user blocks were added since: a request whose first model
   * call failed leaves no trace, so sending it again (Retry) does not ask the model twice.
   */
  restore(checkpoint: ConversationCheckpoint): boolean {
    const added = this.history.slice(checkpoint.length);
    if (this.history.length < checkpoint.length || added.some((message) => message.role !== 'user')) return false;
    this.history.length = checkpoint.length;
    const last = this.history.at(-1);
    if (last) last.content.length = Math.min(last.content.length, checkpoint.lastBlocks);
    this.task = checkpoint.task;
    return true;
  }

  /** Problems that would make the API reject the history; empty when valid. */
  problems(): string[] {
    const problems: string[] = [];
    this.history.forEach((message, i) => {
      if (i === 0 && message.role !== 'user') problems.push('the first message is not from the user');
      if (i > 0 && this.history[i - 1]?.role === message.role) problems.push(`messages ${i - 1} and ${i} have the same role`);
      if (message.content.length === 0) problems.push(`message ${i} is empty`);
      if (message.role === 'user') {
        const previous = this.history[i - 1];
        const calls = new Set((previous?.content ?? []).filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => b.id));
        for (const block of message.content) {
          if (block.type === 'tool_result' && !calls.has(block.toolUseId)) problems.push(`tool_result ${block.toolUseId} answers no tool_use`);
        }
        return;
      }
      const uses = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      const results = new Set(
        (this.history[i + 1]?.content ?? []).filter((b): b is ToolResultBlock => b.type === 'tool_result').map((b) => b.toolUseId),
      );
      for (const use of uses) if (!results.has(use.id) && i + 1 < this.history.length) problems.push(`tool_use ${use.id} has no tool_result`);
    });
    return problems;
  }

  /**
   * Drops the oldest messages once the history outgrows its budget, down to three quarters of
   * it (so the prompt cache breaks once per trim, not on every turn). It cuts only before a
   * user message and keeps the newest four messages; the opening request stays first, and tool
   * results whose calls were dropped become the note that says so, so the history stays valid
   * for the APIs.
   */
  private trimToBudget(): void {
    const sizes = this.history.map(messageSize);
    let total = sizes.reduce((a, b) => a + b, 0);
    if (total <= this.maxChars) return;
    const target = this.maxChars * 0.75;
    let cut = 0;
    for (let k = 1; k < this.history.length - 4 && total > target; k++) {
      total -= sizes[k - 1] ?? 0;
      if (this.history[k]?.role === 'user') cut = k;
    }
    if (cut === 0) return;
    const first = this.history[cut]!;
    const kept = first.content.filter((b) => b.type !== 'tool_result');
    // The person's request stays: without it the model would carry on not knowing what for.
    const opening: ContentBlock[] = [...this.task, { type: 'text', text: TRIMMED_NOTE }, ...kept];
    this.history = [{ role: 'user', content: opening }, ...this.history.slice(cut + 1)];
  }

  private imageCount(): number {
    return this.history.reduce((sum, message) => sum + imagesIn(message), 0);
  }

  /** Keeps the newest N images (in user turns and tool results); older ones become a stub, a batch at a time. */
  private pruneScreenshots(): void {
    if (this.imageCount() <= this.keepScreenshots + this.screenshotBatch) return;
    let seen = 0;
    for (let m = this.history.length - 1; m >= 0; m--) {
      const message = this.history[m];
      if (!message) continue;
      for (let b = message.content.length - 1; b >= 0; b--) {
        const block = message.content[b];
        if (block?.type === 'image') {
          if (++seen > this.keepScreenshots) message.content[b] = { type: 'text', text: SCREENSHOT_STUB };
        } else if (block?.type === 'tool_result') {
          for (let c = block.content.length - 1; c >= 0; c--) {
            if (block.content[c]?.type === 'image' && ++seen > this.keepScreenshots) {
              block.content[c] = { type: 'text', text: SCREENSHOT_STUB };
            }
          }
        }
      }
    }
  }
}

function imagesIn(message: Message): number {
  let count = 0;
  for (const block of message.content) {
    if (block.type === 'image') count++;
    else if (block.type === 'tool_result') count += block.content.filter((part) => part.type === 'image').length;
  }
  return count;
}

function messageSize(message: Message): number {
  let size = 0;
  for (const block of message.content) size += blockSize(block);
  return size;
}

/** Roughly what a block weighs in a request: its text, input or data, and the JSON around it. */
function blockSize(block: ContentBlock): number {
  const framing = 30;
  switch (block.type) {
    case 'text':
      return framing + block.text.length;
    case 'image':
      return framing + block.source.data.length;
    case 'tool_use':
      // Inputs are within the input limits already, so this cannot overflow or take long.
      return framing + block.id.length + block.name.length + (JSON.stringify(block.input)?.length ?? 0);
    case 'tool_result':
      return framing + block.toolUseId.length + block.content.reduce((sum, part) => sum + blockSize(part), 0);
  }
}
