import Anthropic from '@anthropic-ai/sdk';
import { GaiError } from '../../common/errors';
import { limitToolCall } from '../../common/inputLimits';
import type { LlmResponse, LlmStreamChunk, StopReason, ToolCall } from '../messages';
import type { ProviderConfig } from '../modelConfig';
import type { LlmProvider, LlmRequest } from '../llmProvider';
import { nativeComputerFor, type AnthropicNativeComputer } from './anthropicComputerModels';
import { nativeRequestParams, offersComputer } from './anthropicComputerWire';
import { fromAnthropicMessage, fromWireToolUse, toAnthropicMessages, toAnthropicTools, toStopReason, toUsage } from './anthropicMessages';
import { mapSdkError } from './sdkErrors';
import { withSpentUsage } from '../spentUsage';

const DEFAULT_MAX_TOKENS = 4096;

/** Claude through the official SDK, which also retries 408/409/429/5xx and overloaded. */
export class AnthropicProvider implements LlmProvider {
  readonly providerName = 'anthropic';
  readonly model: string;
  /** The model's own computer tool, by `computerUse` and the model table (anthropicComputerModels.ts). */
  readonly nativeComputer?: AnthropicNativeComputer;
  private readonly client: Anthropic;
  private readonly where: string;

  constructor(private readonly config: ProviderConfig) {
    if (!config.apiKey) {
      throw new GaiError('CONFIG', 'No Anthropic API key: set ANTHROPIC_API_KEY or pass --api-key.');
    }
    this.model = config.model;
    const native = nativeComputerFor(config.model, config.computerUse);
    if (native) this.nativeComputer = native;
    this.client = new Anthropic({
      apiKey: config.apiKey,
      baseURL: config.baseUrl,
      timeout: config.timeoutMs ?? 120_000,
      maxRetries: config.maxRetries ?? 2,
    });
    this.where = `anthropic at ${config.baseUrl ?? 'the default endpoint'}`;
  }

  async send(request: LlmRequest): Promise<LlmResponse> {
    try {
      const native = this.nativeFor(request);
      const message = native
        ? await this.client.beta.messages.create(nativeRequestParams(this.baseBody(request), request, native), { signal: request.signal })
        : await this.client.messages.create(this.body(request), { signal: request.signal });
      return fromAnthropicMessage(message);
    } catch (error) {
      throw mapSdkError(this.where, error, { aborted: request.signal?.aborted, secrets: [this.config.apiKey] });
    }
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
    let events: AsyncIterable<Anthropic.Messages.RawMessageStreamEvent | Anthropic.Beta.Messages.BetaRawMessageStreamEvent>;
    try {
      const native = this.nativeFor(request);
      events = native
        ? await this.client.beta.messages.create({ ...nativeRequestParams(this.baseBody(request), request, native), stream: true }, { signal: request.signal })
        : await this.client.messages.create({ ...this.body(request), stream: true }, { signal: request.signal });
    } catch (error) {
      throw mapSdkError(this.where, error, { aborted: request.signal?.aborted, secrets: [this.config.apiKey] });
    }
    const blocks = new Map<number, { kind: 'text' } | { kind: 'tool'; id: string; name: string; toolsetName: string | null; json: string }>();
    const toolCalls: ToolCall[] = [];
    let content = '';
    let stopReason: StopReason = 'other';
    let model = this.model;
    let usage = toUsage(undefined);
    let outputTokens = 0;
    let ended = false;
    try {
      for await (const event of events) {
        switch (event.type) {
          case 'message_start':
            model = event.message.model;
            usage = toUsage(event.message.usage);
            break;
          case 'content_block_start':
            if (event.content_block.type === 'tool_use') {
              const block = event.content_block;
              const toolsetName = 'toolset_name' in block ? (block.toolset_name ?? null) : null;
              blocks.set(event.index, { kind: 'tool', id: block.id, name: block.name, toolsetName, json: '' });
            } else if (event.content_block.type === 'text') {
              blocks.set(event.index, { kind: 'text' });
            }
            break;
          case 'content_block_delta': {
            const block = blocks.get(event.index);
            if (event.delta.type === 'text_delta') {
              content += event.delta.text;
              yield { type: 'text', text: event.delta.text };
            } else if (event.delta.type === 'input_json_delta' && block?.kind === 'tool') {
              block.json += event.delta.partial_json;
            }
            break;
          }
          case 'content_block_stop': {
            const block = blocks.get(event.index);
            if (block?.kind === 'tool') {
              const call: ToolCall = limitToolCall(
                fromWireToolUse({ id: block.id, name: block.name, toolset_name: block.toolsetName, input: parseToolInput(block.json) }),
              );
              toolCalls.push(call);
              yield { type: 'tool_use', toolCall: call };
            }
            break;
          }
          case 'message_delta':
            stopReason = toStopReason(event.delta.stop_reason);
            outputTokens = event.usage.output_tokens ?? outputTokens;
            break;
          case 'message_stop':
            ended = true;
            break;
        }
      }
    } catch (error) {
      // The prompt is billed once the answer started (message_start told its size).
      throw withSpentUsage(mapSdkError(this.where, error, { midStream: true, aborted: request.signal?.aborted, secrets: [this.config.apiKey] }), { ...usage, outputTokens });
    }
    if (!ended) {
      throw withSpentUsage(new GaiError('LLM_STREAM_INTERRUPTED', `${this.where}: the connection was lost mid-response (the stream ended early)`), { ...usage, outputTokens });
    }
    yield { type: 'end', response: { content, toolCalls, stopReason, usage: { ...usage, outputTokens }, model } };
  }

  /** The native computer tool, when this model has one and the request offers GAI's `computer` tool. */
  private nativeFor(request: LlmRequest): AnthropicNativeComputer | undefined {
    return this.nativeComputer && offersComputer(request.tools) ? this.nativeComputer : undefined;
  }

  /** Everything but the messages and tools, which each endpoint writes in its own form. */
  private baseBody(request: LlmRequest) {
    const temperature = request.temperature ?? this.config.temperature;
    return {
      model: this.model,
      max_tokens: request.maxTokens ?? this.config.maxTokens ?? DEFAULT_MAX_TOKENS,
      ...(request.system ? { system: [{ type: 'text' as const, text: request.system, cache_control: { type: 'ephemeral' as const } }] } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
  }

  private body(request: LlmRequest): Anthropic.Messages.MessageCreateParamsNonStreaming {
    return {
      ...this.baseBody(request),
      messages: toAnthropicMessages(request.messages),
      ...(request.tools.length ? { tools: toAnthropicTools(request.tools) } : {}),
    };
  }
}

/** Invalid JSON still reaches the runtime, whose validation then reports it to the model. */
function parseToolInput(json: string): unknown {
  if (!json.trim()) return {};
  try {
    return JSON.parse(json);
  } catch {
    return { _raw: json };
  }
}
