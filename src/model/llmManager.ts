import type { LlmMode, LlmResponse, LlmStreamChunk, Message, TokenUsage, ToolDefinition } from './messages';
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
  /** Told of every model call's tokens (history turns and stateless calls alike): one place that counts them all. */
  onUsage?: (usage: TokenUsage) => void;
}

export interface UsageTotals {
  lastRequest: TokenUsage;
  session: TokenUsage;
  requests: number;
}

/** One turn of a conversation the caller holds (the agent's): the history as it stands, and the tools offered. */
export interface ModelTurn {
  messages: readonly Message[];
  tools: ToolDefinition[];
  signal?: AbortSignal;
  mode?: LlmMode;
  /** With a native computer tool: the screenshot size the model is told of. */
  computer?: LlmRequest['computer'];
}

/**
 * The models by mode (fast and vision fall back to default), and token accounting per request
 * and per session (seed 001 LLMManager). It sends requests and counts what they spend; the
 * conversation is its caller's: the agent owns its history and hands it over each turn.
 */
export class LlmManager implements ModelAccess {
  system: string | undefined;
  private totals: UsageTotals = emptyTotals();
  private readonly onUsage: ((usage: TokenUsage) => void) | undefined;

  constructor(
    private readonly providers: ModeProviders,
    options: LlmManagerOptions = {},
  ) {
    this.system = options.system;
    this.onUsage = options.onUsage;
  }

  getProvider(mode: LlmMode = 'default'): LlmProvider {
    return this.providers[mode] ?? this.providers.default;
  }

  hasMode(mode: LlmMode): boolean {
    return this.providers[mode] !== undefined;
  }

  /** One turn of the caller's conversation, whole. */
  async send(turn: ModelTurn): Promise<LlmResponse> {
    const response = await this.getProvider(turn.mode).send(this.request(turn));
    this.record(response.usage);
    return response;
  }

  /**
   * One turn, streamed: text deltas and completed calls, then one `end` chunk. A call cancelled
   * or broken mid-answer still counts what it had spent.
   */
  async *stream(turn: ModelTurn): AsyncIterable<LlmStreamChunk> {
    try {
      for await (const chunk of this.getProvider(turn.mode).stream(this.request(turn))) {
        if (chunk.type === 'end') this.record(chunk.response.usage);
        yield chunk;
      }
    } catch (error) {
      const spent = spentUsage(error);
      if (spent) this.record(spent);
      throw error;
    }
  }

  /** A stateless call outside any conversation, e.g. for a screen reader tool. */
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

  get usage(): UsageTotals {
    return structuredClone(this.totals);
  }

  resetUsage(): void {
    this.totals = emptyTotals();
  }

  private request(turn: ModelTurn): LlmRequest {
    return {
      system: this.system,
      messages: [...turn.messages],
      tools: turn.tools,
      signal: turn.signal,
      ...(turn.computer ? { computer: turn.computer } : {}),
    };
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
