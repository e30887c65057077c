// Provider `vscode-lm`: GAI's agent on a chat model VS Code offers (vscode.lm: Copilot's models,
// no API key). The vscode API comes in as an object (LmHost), so this file is only types of
// `vscode` and runs in the agent bundle next to the agent, which recognises its GaiErrors.
import type * as vscode from 'vscode';
import { GaiError } from '../../common/errors';
import { limitToolCall } from '../../common/inputLimits';
import type { LlmResponse, LlmStreamChunk, TokenUsage, ToolCall } from '../../model/messages';
import type { LlmProvider, LlmRequest } from '../../model/llmProvider';
import { withSpentUsage } from '../../model/spentUsage';
import { fromLmStreamPart, toLmMessages, toLmTools, type LmVocabulary } from './lmMessages';
import { mapLmError, NO_CHAT_MODEL, type LanguageModelErrorClass } from './lmErrors';

/** The parts of the vscode API the provider uses: `vscode` itself in the extension. */
export interface LmHost extends LmVocabulary {
  lm: { selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]> };
  CancellationTokenSource: new () => vscode.CancellationTokenSource;
  LanguageModelError: LanguageModelErrorClass;
  LanguageModelChatToolMode: { readonly Auto: vscode.LanguageModelChatToolMode };
}

export interface VscodeLmProviderOptions {
  /** gai.model.default: a model's id or family; empty for the chat's model, else the first offered. */
  model?: string;
  /** The model chosen in the chat's model picker (the @gai participant's request.model). */
  preferred?: vscode.LanguageModelChat;
}

const JUSTIFICATION = 'GAI\'s agent asks the model which desktop actions to take for your request.';

export class VscodeLmProvider implements LlmProvider {
  readonly providerName = 'vscode-lm';
  private chosen?: vscode.LanguageModelChat;

  constructor(
    private readonly host: LmHost,
    private readonly options: VscodeLmProviderOptions = {},
  ) {}

  /** The model's id once chosen; before the first request, what the settings ask for. */
  get model(): string {
    return this.chosen?.id ?? (this.options.model || this.options.preferred?.id || 'first VS Code chat model');
  }

  async send(request: LlmRequest): Promise<LlmResponse> {
    for await (const chunk of this.stream(request)) if (chunk.type === 'end') return chunk.response;
    throw new GaiError('LLM_STREAM_INTERRUPTED', 'The VS Code model stream ended without a final message.');
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
    const model = await this.chooseModel();
    const name = `${model.name} (${model.vendor})`;
    const messages = toLmMessages(this.host, request.messages, request.system);
    // The SDK-free API cancels through a CancellationToken: tie it to GAI's AbortSignal.
    const source = new this.host.CancellationTokenSource();
    const cancel = (): void => source.cancel();
    if (request.signal?.aborted) cancel();
    request.signal?.addEventListener('abort', cancel, { once: true });
    const aborted = (): boolean => request.signal?.aborted === true;
    try {
      let response: vscode.LanguageModelChatResponse;
      try {
        const tools = toLmTools(request.tools);
        response = await model.sendRequest(
          messages,
          { justification: JUSTIFICATION, ...(tools.length ? { tools, toolMode: this.host.LanguageModelChatToolMode.Auto } : {}) },
          source.token,
        );
      } catch (error) {
        throw mapLmError(error, name, this.host.LanguageModelError, aborted());
      }
      let content = '';
      const toolCalls: ToolCall[] = [];
      try {
        for await (const raw of response.stream) {
          const part = fromLmStreamPart(this.host, raw);
          if (part.type === 'text') {
            content += part.text;
            yield { type: 'text', text: part.text };
          } else if (part.type === 'tool_call') {
            const call = limitToolCall(part.call);
            toolCalls.push(call);
            yield { type: 'tool_use', toolCall: call };
          }
        }
      } catch (error) {
        throw withSpentUsage(mapLmError(error, name, this.host.LanguageModelError, aborted()), { inputTokens: await this.countInput(model, messages), outputTokens: 0 });
      }
      // A cancelled token may just end the stream: that is no answer.
      if (aborted()) throw new GaiError('LLM_CANCELLED', 'cancelled by the user');
      const usage: TokenUsage = { inputTokens: await this.countInput(model, messages), outputTokens: await this.countOutput(model, content, toolCalls) };
      yield { type: 'end', response: { content, toolCalls, stopReason: toolCalls.length ? 'tool_use' : 'end_turn', usage, model: model.id } };
    } finally {
      request.signal?.removeEventListener('abort', cancel);
      source.dispose();
    }
  }

  /** The named model, else the chat's, else the first; none at all fails with what to install. */
  private async chooseModel(): Promise<vscode.LanguageModelChat> {
    if (this.chosen) return this.chosen;
    const wanted = this.options.model?.trim();
    if (!wanted && this.options.preferred) return (this.chosen = this.options.preferred);
    let models: vscode.LanguageModelChat[];
    try {
      models = await this.host.lm.selectChatModels();
    } catch (error) {
      throw new GaiError('CONFIG', `VS Code could not list its chat models: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (models.length === 0) throw new GaiError('CONFIG', NO_CHAT_MODEL);
    if (!wanted) return (this.chosen = models[0]!);
    const match = models.find((m) => m.id === wanted) ?? models.find((m) => m.family === wanted);
    if (!match) {
      const offered = models.map((m) => `${m.id} (family ${m.family})`).join(', ');
      throw new GaiError('CONFIG', `Setting gai.model.default: VS Code offers no chat model with the id or family "${wanted}"; it offers ${offered}.`);
    }
    return (this.chosen = match);
  }

  private async countInput(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[]): Promise<number> {
    const counts = await Promise.all(messages.map((message) => this.count(model, message)));
    return counts.reduce((sum, n) => sum + n, 0);
  }

  private countOutput(model: vscode.LanguageModelChat, content: string, calls: ToolCall[]): Promise<number> {
    const text = [content, ...calls.map((call) => `${call.name}${JSON.stringify(call.input) ?? ''}`)].join('\n');
    return text.trim() ? this.count(model, text) : Promise.resolve(0);
  }

  /** The model's own tokenizer; where it fails, a rough four characters a token keeps the counters going. */
  private async count(model: vscode.LanguageModelChat, what: string | vscode.LanguageModelChatMessage): Promise<number> {
    try {
      return await model.countTokens(what);
    } catch {
      const text = typeof what === 'string' ? what : JSON.stringify(what.content);
      return Math.ceil(text.length / 4);
    }
  }
}

/** The agent's models on VS Code's: gai.model.default for the agent, gai.model.fast if set (no vision: no images). */
export function vscodeLmModeProviders(host: LmHost, models: { default?: string; fast?: string }): { default: LlmProvider; fast?: LlmProvider } {
  const main = new VscodeLmProvider(host, { ...(models.default ? { model: models.default } : {}) });
  return { default: main, ...(models.fast ? { fast: new VscodeLmProvider(host, { model: models.fast }) } : {}) };
}
