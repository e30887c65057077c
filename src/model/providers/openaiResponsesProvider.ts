// LlmProvider over OpenAI's Responses API (`client.responses.create`): text, GAI's function tools
// and, for the models that take one, OpenAI's own computer tool. Chat-completions servers (Ollama,
// LM Studio, vLLM, Gemini's compatible endpoint) stay on OpenAiCompatibleProvider.

import { OpenAI } from 'openai';
import type { Response, ResponseCreateParamsBase, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { GaiError } from '../../common/errors';
import type { LlmResponse, LlmStreamChunk } from '../messages';
import type { ProviderConfig } from '../modelConfig';
import type { LlmProvider, LlmRequest } from '../llmProvider';
import { openAiNativeComputerFor, type OpenAiNativeComputer } from './openaiComputerModels';
import { toResponsesInput } from './openaiResponsesInput';
import { environmentOf, fromResponse, toolCallsOfItem, toResponsesTools, type ComputerEnvironment } from './openaiResponsesOutput';
import { mapSdkError } from './sdkErrors';

const DEFAULT_MAX_RETRIES = 2;

export interface OpenAiResponsesProviderOptions {
  /** For tests and proxies; the SDK uses the global fetch otherwise. */
  fetch?: typeof fetch;
  /** The desktop the preview tool is told of; this machine's by default. */
  environment?: ComputerEnvironment;
}

export class OpenAiResponsesProvider implements LlmProvider {
  readonly providerName = 'openai';
  readonly model: string;
  readonly baseUrl: string;
  readonly nativeComputer: OpenAiNativeComputer | undefined;
  private readonly client: OpenAI;
  private readonly environment: ComputerEnvironment;

  constructor(
    private readonly config: ProviderConfig,
    options: OpenAiResponsesProviderOptions = {},
  ) {
    if (config.provider !== 'openai') {
      throw new GaiError('CONFIG', `the Responses API is OpenAI's; provider "${config.provider}" speaks chat completions`);
    }
    const apiKey = config.apiKey?.trim() || undefined;
    if (!apiKey && config.baseUrl === undefined) {
      throw new GaiError('CONFIG', 'provider "openai" needs an API key: set OPENAI_API_KEY or pass --api-key');
    }
    this.model = config.model;
    this.nativeComputer = openAiNativeComputerFor(config.model, config.computerUse);
    this.environment = options.environment ?? environmentOf(process.platform);
    this.client = new OpenAI({
      apiKey: apiKey ?? 'not-needed',
      baseURL: config.baseUrl ?? null,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.baseUrl = this.client.baseURL;
  }

  async send(request: LlmRequest): Promise<LlmResponse> {
    let response: Response;
    try {
      response = await this.client.responses.create({ ...this.params(request), stream: false }, { signal: request.signal });
    } catch (error) {
      throw this.mapError(error, request, false);
    }
    this.checkFailed(response);
    return fromResponse(response, this.model);
  }

  async *stream(request: LlmRequest): AsyncGenerator<LlmStreamChunk> {
    let events: AsyncIterable<ResponseStreamEvent>;
    try {
      events = await this.client.responses.create({ ...this.params(request), stream: true }, { signal: request.signal });
    } catch (error) {
      throw this.mapError(error, request, false);
    }
    let final: Response | undefined;
    try {
      for await (const event of events) {
        switch (event.type) {
          case 'response.output_text.delta':
            if (event.delta) yield { type: 'text', text: event.delta };
            break;
          case 'response.output_item.done':
            for (const toolCall of toolCallsOfItem(event.item)) yield { type: 'tool_use', toolCall };
            break;
          case 'response.completed':
          case 'response.incomplete':
          case 'response.failed':
            final = event.response;
            break;
          case 'error':
            throw new GaiError('LLM_STREAM_INTERRUPTED', `${this.where()}: the server reported an error mid-response: ${event.message}`);
          default:
            break;
        }
      }
    } catch (error) {
      throw this.mapError(error, request, true);
    }
    // The SDK ends the iteration quietly when the request is aborted mid-stream.
    if (request.signal?.aborted) throw this.mapError(request.signal.reason, request, true);
    if (!final) {
      throw new GaiError('LLM_STREAM_INTERRUPTED', `${this.where()}: the connection was lost mid-response (the stream ended before the response was complete)`);
    }
    this.checkFailed(final);
    yield { type: 'end', response: fromResponse(final, this.model) };
  }

  private params(request: LlmRequest): ResponseCreateParamsBase {
    const maxTokens = request.maxTokens ?? this.config.maxTokens;
    const temperature = request.temperature ?? this.config.temperature;
    const tools = toResponsesTools(request.tools, this.nativeComputer, request, this.environment);
    return {
      model: this.model,
      input: toResponsesInput(request.messages),
      ...(request.system ? { instructions: request.system } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(maxTokens !== undefined ? { max_output_tokens: maxTokens } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      // The preview model takes requests only with truncation "auto" (OpenAI's computer use guide).
      ...(this.nativeComputer?.tool === 'computer_use_preview' ? { truncation: 'auto' as const } : {}),
    };
  }

  /** A response that ended in `failed` carries its error instead of output. */
  private checkFailed(response: Response): void {
    if (response.status !== 'failed') return;
    const detail = response.error ? `${response.error.code}: ${response.error.message}` : 'no reason given';
    throw new GaiError('LLM_SERVER', `${this.where()}: the response failed (${detail})`);
  }

  private where(): string {
    return `openai at ${this.baseUrl} (Responses API)`;
  }

  private mapError(error: unknown, request: LlmRequest, midStream: boolean): GaiError {
    return mapSdkError(this.where(), error, { midStream, aborted: request.signal?.aborted, secrets: [this.config.apiKey] });
  }
}
