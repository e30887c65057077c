// LlmProvider over the `openai` SDK's chat completions: OpenAI itself and every server that
// speaks the same API (Ollama, LM Studio, vLLM, Gemini's OpenAI-compatible endpoint).

import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAI,
} from 'openai';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionChunk,
} from 'openai/resources/chat/completions';
import { GaiError, errorMessage } from '../../common/errors';
import type { LlmResponse, LlmStreamChunk, TokenUsage } from '../messages';
import type { ProviderConfig } from '../modelConfig';
import type { LlmProvider, LlmRequest } from '../llmProvider';
import { redactLlmError, statusErrorCode } from './sdkErrors';
import {
  ToolCallAccumulator,
  fromChatCompletion,
  mapFinishReason,
  toChatMessages,
  toChatTools,
  toolCallExtrasOf,
} from './openaiMessages';

export const OLLAMA_BASE_URL = 'http://localhost:11434/v1';
export const GOOGLE_OPENAI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta/openai/';

const DEFAULT_MAX_RETRIES = 2;
/** Enough to remember Gemini thought signatures for a long conversation, but bounded. */
const MAX_REMEMBERED_EXTRAS = 1000;

export interface OpenAiProviderOptions {
  /** For tests and proxies; the SDK uses the global fetch otherwise. */
  fetch?: typeof fetch;
}

export class OpenAiCompatibleProvider implements LlmProvider {
  readonly providerName: string;
  readonly model: string;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly config: ProviderConfig;
  private readonly toolCallExtras = new Map<string, unknown>();

  constructor(config: ProviderConfig, options: OpenAiProviderOptions = {}) {
    if (config.provider === 'anthropic') {
      throw new GaiError('CONFIG', 'OpenAiCompatibleProvider cannot serve provider "anthropic"');
    }
    this.config = config;
    this.providerName = config.provider;
    this.model = config.model;
    const { apiKey, baseUrl } = resolveEndpoint(config);
    this.client = new OpenAI({
      apiKey,
      baseURL: baseUrl ?? null,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    // The SDK fills in its default (or OPENAI_BASE_URL); report the URL actually used.
    this.baseUrl = this.client.baseURL;
  }

  async send(request: LlmRequest): Promise<LlmResponse> {
    let completion;
    try {
      completion = await this.client.chat.completions.create(
        { ...this.params(request), stream: false },
        { signal: request.signal },
      );
    } catch (err) {
      throw this.mapError(err, false);
    }
    this.rememberExtras(toolCallExtrasOf(completion));
    return fromChatCompletion(completion, this.model);
  }

  async *stream(request: LlmRequest): AsyncGenerator<LlmStreamChunk> {
    let stream: AsyncIterable<ChatCompletionChunk>;
    try {
      stream = await this.client.chat.completions.create(
        { ...this.params(request), stream: true, stream_options: { include_usage: true } },
        { signal: request.signal },
      );
    } catch (err) {
      throw this.mapError(err, false);
    }

    const calls = new ToolCallAccumulator();
    let content = '';
    let finishReason: string | null = null;
    let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
    let model = '';
    try {
      for await (const chunk of stream) {
        if (chunk.model) model = chunk.model;
        // include_usage puts the totals on a last chunk without choices; some servers send
        // running totals on every chunk, so the last one seen wins.
        if (chunk.usage) {
          usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
        }
        const choice = chunk.choices[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (delta.content) {
          content += delta.content;
          yield { type: 'text', text: delta.content };
        }
        for (const toolDelta of delta.tool_calls ?? []) {
          for (const toolCall of calls.add(toolDelta)) yield { type: 'tool_use', toolCall };
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (err) {
      throw this.mapError(err, true);
    }
    // The SDK ends the iteration quietly when the request is aborted mid-stream.
    if (request.signal?.aborted) throw this.cancelled(request.signal.reason);
    if (finishReason === null) {
      throw new GaiError(
        'LLM_STREAM_INTERRUPTED',
        `${this.where()}: the connection was lost mid-response (the stream ended without a finish reason)`,
      );
    }

    for (const toolCall of calls.finish()) yield { type: 'tool_use', toolCall };
    this.rememberExtras(calls.extras());
    const toolCalls = calls.all();
    yield {
      type: 'end',
      response: {
        content,
        toolCalls,
        stopReason: mapFinishReason(finishReason, toolCalls.length > 0),
        usage,
        model: model || this.model,
      },
    };
  }

  private params(request: LlmRequest): ChatCompletionCreateParamsBase {
    const tools = toChatTools(request.tools);
    const maxTokens = request.maxTokens ?? this.config.maxTokens;
    const temperature = request.temperature ?? this.config.temperature;
    return {
      model: this.model,
      messages: toChatMessages(request.system, request.messages, (id) => this.toolCallExtras.get(id)),
      ...(tools ? { tools } : {}),
      ...(maxTokens !== undefined ? this.maxTokensParam(maxTokens) : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
  }

  /**
   * OpenAI's own API rejects `max_tokens` for its reasoning models (o-series, gpt-5) and wants
   * `max_completion_tokens`; other compatible servers mostly know only `max_tokens`.
   */
  private maxTokensParam(maxTokens: number): { max_tokens: number } | { max_completion_tokens: number } {
    return isOpenAiHost(this.baseUrl) ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens };
  }

  private rememberExtras(entries: Array<[string, unknown]>): void {
    for (const [id, extra] of entries) this.toolCallExtras.set(id, extra);
    // Maps iterate in insertion order, so the first keys are the oldest.
    for (const id of this.toolCallExtras.keys()) {
      if (this.toolCallExtras.size <= MAX_REMEMBERED_EXTRAS) break;
      this.toolCallExtras.delete(id);
    }
  }

  private where(): string {
    return `${this.providerName} at ${this.baseUrl}`;
  }

  private cancelled(cause: unknown): GaiError {
    return new GaiError('LLM_CANCELLED', `${this.where()}: the request was cancelled`, { cause });
  }

  /** `midStream`: the response had started, so a failure means the stream was cut short. */
  private mapError(err: unknown, midStream: boolean): GaiError {
    // A server may echo the key it was sent; no error text or cause carries it on.
    return redactLlmError(this.mapSdkFailure(err, midStream), [this.config.apiKey]);
  }

  private mapSdkFailure(err: unknown, midStream: boolean): GaiError {
    if (err instanceof GaiError) return err;
    const where = this.where();
    if (err instanceof APIUserAbortError || isAbortError(err)) return this.cancelled(err);
    if (midStream) {
      // An `error` object inside the stream arrives as an APIError without status.
      const detail = err instanceof APIError && err.status === undefined && !(err instanceof APIConnectionError)
        ? `the server reported an error mid-response: ${err.message}`
        : `the connection was lost mid-response (${errorMessage(err)})`;
      return new GaiError('LLM_STREAM_INTERRUPTED', `${where}: ${detail}`, { cause: err });
    }
    if (err instanceof APIConnectionTimeoutError) {
      return new GaiError('LLM_TIMEOUT', `${where}: the request timed out (${errorMessage(err)})`, { cause: err });
    }
    if (err instanceof APIConnectionError) {
      const reason = err.cause instanceof Error ? `${err.message} ${errorMessage(err.cause)}` : err.message;
      return new GaiError('LLM_CONNECTION', `${where}: cannot connect (${reason})`, { cause: err });
    }
    if (err instanceof APIError && typeof err.status === 'number') {
      return new GaiError(statusErrorCode(err.status), `${where}: ${err.message}`, { cause: err });
    }
    // Not from the transport (e.g. a malformed response body); still the server's fault.
    return new GaiError('LLM_SERVER', `${where}: ${errorMessage(err)}`, { cause: err });
  }
}

function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

function isOpenAiHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/**
 * Presets and key rules. Keys come from config only (the CLI/extension resolves the
 * environment); passing one explicitly also stops the SDK from reading OPENAI_API_KEY itself.
 */
function resolveEndpoint(config: ProviderConfig): { apiKey: string; baseUrl: string | undefined } {
  const apiKey = config.apiKey?.trim() || undefined;
  switch (config.provider) {
    case 'ollama':
      // Ollama ignores the key, but the SDK requires a non-empty one.
      return { apiKey: apiKey ?? 'ollama', baseUrl: config.baseUrl ?? OLLAMA_BASE_URL };
    case 'google':
      if (!apiKey) throw missingKey('google', 'GEMINI_API_KEY');
      return { apiKey, baseUrl: config.baseUrl ?? GOOGLE_OPENAI_BASE_URL };
    default:
      // Local OpenAI-compatible servers (LM Studio, vLLM) usually need no key; OpenAI does.
      if (!apiKey && config.baseUrl === undefined) throw missingKey('openai', 'OPENAI_API_KEY');
      return { apiKey: apiKey ?? 'not-needed', baseUrl: config.baseUrl };
  }
}

function missingKey(provider: string, envName: string): GaiError {
  return new GaiError(
    'CONFIG',
    `provider "${provider}" needs an API key: set ${envName} or pass --api-key`,
  );
}
