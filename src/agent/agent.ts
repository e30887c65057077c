import { randomUUID } from 'node:crypto';
import { GaiError, errorMessage, isGaiError } from '../common/errors';
import { previewValue } from '../common/inputLimits';
import type { AgentResponse, AgentStopReason, ExecutedToolCall } from './agentTypes';
import type { LlmResponse, ToolCall } from '../model/messages';
import type { ToolResult } from '../tools/toolTypes';
import type { LlmManager, ModelTurn } from '../model/llmManager';
import { Conversation, DEFAULT_SCREENSHOT_BATCH } from '../model/conversation';
import { NullLogger, type Logger } from '../common/logger';
import { toolResultContent, ToolResults } from '../tools/toolResult';
import type { ExecutionHooks, ToolRuntime, TurnOutcome } from '../runtime/toolRuntime';
import type { AgentEvent, AgentEventListener } from './agentEvents';
import { turnTools } from './turnTools';
import { eventStream } from './eventStream';

export interface AgentConfig {
  maxIterations?: number;
  verbose?: boolean;
  logger?: Logger;
  /** Screenshots the history keeps (default 3); older ones become a text stub. */
  keepScreenshots?: number;
  /** The history's size budget in characters; the oldest turns go beyond it. */
  maxHistoryChars?: number;
  toolSources?: ToolSource[];
}

/**
 * Tools that come and go, e.g. an MCP server's: made ready (started, listed, registered in the
 * agent's registry) before a request's tool list is built. `prepare` must not throw.
 */
export interface ToolSource {
  prepare(signal: AbortSignal): Promise<void>;
  /** A new conversation starts: what was given up on in the last one may be tried again. */
  newConversation?(): void;
}

export interface RequestOptions {
  /** Cancels the request like `cancel()`. */
  signal?: AbortSignal;
}

/**
 * The agent loop (seed 001 Agent): ask the model, run the tools it calls, feed the results
 * back, until it answers without calling tools or the iteration limit is reached. The agent
 * owns its conversation (history, Retry's checkpoint, screenshot pruning); the model manager
 * only sends each turn and counts its tokens. A registered tool that can be the model's native
 * computer tool is offered in that form to a model that speaks it (see turnTools).
 */
export class Agent {
  readonly maxIterations: number;
  private readonly verbose: boolean;
  private readonly logger: Logger;
  readonly conversation: Conversation;
  private readonly toolSources: ToolSource[];
  private readonly listeners = new Set<AgentEventListener>();
  private current?: AbortController;
  private session = randomUUID();

  constructor(
    readonly llm: LlmManager,
    readonly runtime: ToolRuntime,
    config: AgentConfig = {},
  ) {
    this.maxIterations = config.maxIterations ?? 10;
    this.verbose = config.verbose ?? false;
    this.logger = config.logger ?? new NullLogger();
    this.conversation = new Conversation(config.keepScreenshots ?? 3, config.maxHistoryChars, DEFAULT_SCREENSHOT_BATCH);
    this.toolSources = config.toolSources ?? [];
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  get sessionId(): string {
    return this.session;
  }

  /** Listens to the events of every request; returns the unsubscribe function. */
  onEvent(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs a request with whole (non-streamed) model replies. */
  processRequest(input: string, options: RequestOptions = {}): Promise<AgentResponse> {
    return this.run(input, false, options, () => {});
  }

  /** Runs a request with streamed model replies and tool execution; yields every event. */
  streamRequest(input: string, options: RequestOptions = {}): AsyncIterableIterator<AgentEvent> {
    return eventStream<AgentEvent>(
      (emit) => this.run(input, true, options, emit),
      () => this.cancel(),
    );
  }

  /** Stops the model call and any further tool calls of the running request at once. */
  cancel(): void {
    this.current?.abort(new GaiError('LLM_CANCELLED', 'cancelled by the user'));
  }

  /** A new session: empty history, usage, approvals and recovery statistics. */
  startSession(): string {
    this.cancel();
    this.conversation.clear();
    this.llm.resetUsage();
    this.runtime.resetApprovals();
    this.runtime.replanner.resetStats();
    for (const source of this.toolSources) source.newConversation?.();
    this.session = randomUUID();
    return this.session;
  }

  /**
   * A new session that goes on from an earlier conversation: its turns, in words, are the
   * model's history (a reopened chat; a person's turn first).
   */
  continueSession(turns: ReadonlyArray<{ role: 'user' | 'assistant'; text: string }>): string {
    const session = this.startSession();
    for (const turn of turns) {
      if (turn.role === 'user') this.conversation.addUserMessage(turn.text);
      else this.conversation.addAssistantMessage(turn.text);
    }
    return session;
  }

  endSession(): void {
    this.cancel();
    this.conversation.clear();
    this.runtime.resetApprovals();
  }

  private async run(
    input: string,
    stream: boolean,
    options: RequestOptions,
    extraEmit: AgentEventListener,
  ): Promise<AgentResponse> {
    if (this.current) throw new GaiError('BUSY', 'The agent is already working on a request; cancel it or wait.');
    const controller = new AbortController();
    this.current = controller;
    const signal = controller.signal;
    const onOuterAbort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    // A listener that throws (a renderer choking on odd input) must not end the turn: the
    // runtime would take it for a failed call, and the model would hear of no result at all.
    const emit = (event: AgentEvent): void => {
      for (const listener of [extraEmit, ...this.listeners]) {
        try {
          listener(event);
        } catch (error) {
          this.logger.warn(`an event listener failed on ${event.type}: ${errorMessage(error)}`);
        }
      }
    };
    const usageBefore = this.llm.usage.session;
    const executed: ExecutedToolCall[] = [];
    let iterations = 0;
    let text = '';
    let stopReason: AgentStopReason = 'max_iterations';
    let note = '';

    this.runtime.replanner.startRequest();
    const beforeRequest = this.conversation.checkpoint();
    let answered = false;
    this.conversation.addUserMessage(input);
    try {
      await this.prepareTools(signal);
      const { tools, computer: native } = turnTools(this.runtime, this.llm.getProvider().nativeComputer);
      while (iterations < this.maxIterations) {
        if (signal.aborted) break;
        iterations++;
        emit({ type: 'iteration', iteration: iterations, maxIterations: this.maxIterations });
        this.log(`[Iteration ${iterations}/${this.maxIterations}]`);
        // The native tool is told the screenshot size each turn: the screen may change.
        const computer = native ? await native.displaySize() : undefined;
        const turn = { messages: this.conversation.messages, tools, signal, ...(computer ? { computer } : {}) };
        const response = stream ? await this.streamTurn(turn, emit) : await this.llm.send(turn);
        this.conversation.addAssistantMessage(response.content, response.toolCalls);
        answered = true;
        const usage = this.llm.usage;
        emit({ type: 'usage', request: usage.lastRequest, session: usage.session });
        emit({ type: 'assistant_message', text: response.content, toolCalls: response.toolCalls });
        this.log(`LLM Response: ${response.content.slice(0, 200)}\nStop Reason: ${response.stopReason}\nTool Calls: ${response.toolCalls.length}`);
        text = response.content;
        if (response.toolCalls.length === 0) {
          stopReason = 'end_turn';
          break;
        }
        const outcome = await this.runTools(response.toolCalls, signal, emit);
        response.toolCalls.forEach((call, i) => {
          const result = outcome.results[i];
          if (!result) return;
          this.conversation.addToolResult(call.id, toolResultContent(result), !result.success);
          executed.push({ call: outcome.publicCalls[i] ?? call, result });
          this.log(`  - ${call.name} → ${result.success ? 'Success' : `Failed (${result.code})`}`);
        });
        if (outcome.abort) {
          stopReason = 'aborted';
          note = `[Stopped: ${outcome.abort}]`;
          break;
        }
      }
      if (stopReason === 'max_iterations') note = '[Max iterations reached]';
    } catch (error) {
      if (!signal.aborted) {
        // Unanswered, the request leaves no trace: Retry sends it once, not twice.
        if (!answered) this.conversation.restore(beforeRequest);
        const failure = isGaiError(error) ? error : new GaiError('LLM_CONNECTION', errorMessage(error), { cause: error });
        emit({ type: 'error', error: failure });
        throw failure;
      }
    } finally {
      // A cancel or a crash can leave calls unanswered; the next request must still be valid.
      this.conversation.answerPending(signal.aborted ? 'the request was cancelled' : 'the request ended early');
      options.signal?.removeEventListener('abort', onOuterAbort);
      this.current = undefined;
    }
    if (signal.aborted) {
      stopReason = 'cancelled';
      note = '[Cancelled]';
    }
    const response: AgentResponse = {
      message: note ? (text ? `${text}\n\n${note}` : note) : text,
      toolCalls: executed,
      finished: true,
      iterations,
      stopReason,
      ...(note ? { note } : {}),
      usage: subtractUsage(this.llm.usage.session, usageBefore),
    };
    emit({ type: 'done', response });
    return response;
  }

  private async prepareTools(signal: AbortSignal): Promise<void> {
    await Promise.all(
      this.toolSources.map((source) => source.prepare(signal).catch((error: unknown) => this.logger.warn(`tools could not be prepared: ${errorMessage(error)}`))),
    );
  }

  /**
   * Streams one turn. A broken or cancelled stream leaves only the text received so far in the
   * history (never a partial call), so the history stays valid for the next request.
   */
  private async streamTurn(turn: ModelTurn, emit: AgentEventListener): Promise<LlmResponse> {
    let partialText = '';
    try {
      for await (const chunk of this.llm.stream(turn)) {
        if (chunk.type === 'text') {
          partialText += chunk.text;
          emit({ type: 'text_delta', text: chunk.text });
        }
        if (chunk.type === 'end') return chunk.response;
      }
    } catch (error) {
      if (partialText.trim()) this.conversation.addAssistantMessage(`${partialText} [interrupted]`);
      throw error;
    }
    if (partialText.trim()) this.conversation.addAssistantMessage(`${partialText} [interrupted]`);
    throw new GaiError('LLM_STREAM_INTERRUPTED', 'The model stream ended without a final message.');
  }

  /**
   * The turn's tools; never throws. Should the runtime fail anyway, the results that did come
   * still reach the model (actions that ran must not be reported as "not run") and every other
   * call gets a coded failure, so the history stays valid.
   */
  private async runTools(calls: ToolCall[], signal: AbortSignal, emit: AgentEventListener): Promise<TurnOutcome> {
    const finished = new Map<string, { call: ToolCall; result: ToolResult }>();
    try {
      return await this.runtime.executeTurn(calls, signal, this.hooks(emit, finished));
    } catch (error) {
      this.logger.error(`the tools of this turn failed: ${errorMessage(error)}`);
      const failure = (call: ToolCall): ToolResult =>
        ToolResults.failure('FAILED', `${call.name} gave no result: ${errorMessage(error)}`, {
          observation: `${call.name} may or may not have run: the tool runtime failed (${errorMessage(error)}).`,
        });
      return {
        results: calls.map((call) => finished.get(call.id)?.result ?? failure(call)),
        publicCalls: calls.map((call) => finished.get(call.id)?.call ?? { ...call, input: previewValue(call.input) }),
      };
    }
  }

  private hooks(emit: AgentEventListener, finished: Map<string, { call: ToolCall; result: ToolResult }>): ExecutionHooks {
    return {
      onToolStarted: (call, risk) => emit({ type: 'tool_started', call, risk }),
      onApprovalRequested: (request) => emit({ type: 'approval_requested', request }),
      onApprovalResolved: (call, decision, byAppGrant) => emit({ type: 'approval_resolved', call, decision, ...(byAppGrant ? { byAppGrant } : {}) }),
      onToolFinished: (call, result) => {
        finished.set(call.id, { call, result });
        emit({ type: 'tool_finished', call, result });
      },
      onRecovery: (call, decision) => emit({ type: 'recovery', call, decision }),
    };
  }

  private log(message: string): void {
    if (this.verbose) this.logger.info(message);
    else this.logger.debug(message);
  }
}

function subtractUsage(after: { inputTokens: number; outputTokens: number }, before: { inputTokens: number; outputTokens: number }) {
  return { inputTokens: after.inputTokens - before.inputTokens, outputTokens: after.outputTokens - before.outputTokens };
}
