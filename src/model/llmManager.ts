import type { ImageBlock, LlmMode, LlmResponse, LlmStreamChunk, Message, TextBlock, TokenUsage, ToolDefinition } from './messages';
import { Conversation } from './conversation';
import type { LlmProvider, LlmRequest } from './llmProvider';
import type { ModelAccess } from './modelAccess';
import { spentUsage } from './spentUsage';

export interface ModeProviders {
  default: LlmProvider;
  fast?: LlmProvider;
  vision?: LlmProvider;
}

export interface LlmManagerOptions {
  system?: string;
  /** Screenshots kept in the history; older ones are replaced by a text stub. */
  keepScreenshots?: number;
  /** Older screenshots are stubbed this many at a time, so the cached prefix changes once per batch (default 3). */
  screenshotBatch?: number;
  /** The history's size budget in characters; the oldest turns go beyond it. */
  maxHistoryChars?: number;
  /** Told of every model call's tokens (history turns and stateless calls alike): one place that counts them all. */
  onUsage?: (usage: TokenUsage) => void;
}

export interface UsageTotals {
  lastRequest: TokenUsage;
  session: TokenUsage;
  requests: number;
}

/** Screenshots stubbed at a time: the prompt cache misses once per three screenshots, not on each. */
export const DEFAULT_SCREENSHOT_BATCH = 3;

export interface TurnOptions {
  signal?: AbortSignal;
  mode?: LlmMode;
  /** With a native computer tool: the screenshot size the model is told of. */
  computer?: LlmRequest['computer'];
}

/**
 * The models by mode (fast and vision fall back to default), the conversation history of
 * the session, and token accounting per request and per session (seed 001 LLMManager).
 */
export class LlmManager implements ModelAccess {
  readonly conversation: Conversation;
  system: string | undefined;
  private totals: UsageTotals = emptyTotals();
  private readonly onUsage: ((usage: TokenUsage) => void) | undefined;

  constructor(
    private readonly providers: ModeProviders,
    options: LlmManagerOptions = {},
  ) {
    this.conversation = new Conversation(options.keepScreenshots ?? 3, options.maxHistoryChars, options.screenshotBatch ?? DEFAULT_SCREENSHOT_BATCH);
    this.system = options.system;
    this.onUsage = options.onUsage;
  }

  getProvider(mode: LlmMode = 'default'): LlmProvider {
    return this.providers[mode] ?? this.providers.default;
  }

  hasMode(mode: LlmMode): boolean {
    return this.providers[mode] !== undefined;
  }

  /** One turn with the history; the model's reply is added to the history. */
  async send(tools: ToolDefinition[], options: TurnOptions = {}): Promise<LlmResponse> {
    const response = await this.getProvider(options.mode).send({
      system: this.system,
      messages: [...this.conversation.messages],
      tools,
      signal: options.signal,
      ...(options.computer ? { computer: options.computer } : {}),
    });
    this.record(response.usage);
    this.conversation.addAssistantMessage(response.content, response.toolCalls);
    return response;
  }

  /**
   * Streams one turn with the history. The complete reply is added when the stream ends; a
   * broken or cancelled stream adds only the text received so far (never a partial call),
   * so the history stays valid for the next request.
   */
  async *stream(tools: ToolDefinition[], options: TurnOptions = {}): AsyncIterable<LlmStreamChunk> {
    let partialText = '';
    let completed = false;
    try {
      for await (const chunk of this.getProvider(options.mode).stream({
        system: this.system,
        messages: [...this.conversation.messages],
        tools,
        signal: options.signal,
        ...(options.computer ? { computer: options.computer } : {}),
      })) {
        if (chunk.type === 'text') partialText += chunk.text;
        if (chunk.type === 'end') {
          this.record(chunk.response.usage);
          this.conversation.addAssistantMessage(chunk.response.content, chunk.response.toolCalls);
          completed = true;
        }
        yield chunk;
      }
    } catch (error) {
      // Cancelled or broken mid-answer: what the call had spent still counts.
      const spent = spentUsage(error);
      if (spent) this.record(spent);
      throw error;
    } finally {
      if (!completed && partialText.trim()) this.conversation.addAssistantMessage(partialText + ' [interrupted]');
    }
  }

  /** A stateless call outside the history, e.g. for a screen reader tool. */
  async sendWithMode(
    mode: LlmMode,
    messages: Message[],
    options: { system?: string; tools?: ToolDefinition[]; maxTokens?: number; signal?: AbortSignal } = {},
  ): Promise<LlmResponse> {
    const response = await this.getProvider(mode).send({
      system: options.system,
      messages,
      tools: options.tools ?? [],
      maxTokens: options.maxTokens,
      signal: options.signal,
    });
    this.record(response.usage);
    return response;
  }

  addUserMessage(content: string | Array<TextBlock | ImageBlock>): void {
    this.conversation.addUserMessage(content);
  }

  addToolResult(toolUseId: string, content: string | Array<TextBlock | ImageBlock>, isError = false): void {
    this.conversation.addToolResult(toolUseId, typeof content === 'string' ? [{ type: 'text', text: content }] : content, isError);
  }

  clearHistory(): void {
    this.conversation.clear();
  }

  get usage(): UsageTotals {
    return structuredClone(this.totals);
  }

  resetUsage(): void {
    this.totals = emptyTotals();
  }

  private record(usage: TokenUsage): void {
    this.totals.requests++;
    this.totals.lastRequest = { ...usage };
    this.totals.session = addUsage(this.totals.session, usage);
    this.onUsage?.({ ...usage });
  }
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  const cacheRead = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const cacheWrite = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (cacheRead) sum.cacheReadTokens = cacheRead;
  if (cacheWrite) sum.cacheWriteTokens = cacheWrite;
  return sum;
}

function emptyTotals(): UsageTotals {
  return { lastRequest: { inputTokens: 0, outputTokens: 0 }, session: { inputTokens: 0, outputTokens: 0 }, requests: 0 };
}
