/**
 * A scripted stand-in for the OpenAI chat-completions API (`POST /v1/chat/completions`),
 * answering in the exact JSON and SSE chunk shapes the real `openai` SDK parses.
 */
import {
  ScriptedHttpServer, inputChunks, inputJsonText, splitChunks,
  type ReplyContext, type ResolvedReply, type Script, type ScriptedStopReason,
} from './scriptedSteps';

export type { RecordedRequest, Script, ScriptStep } from './scriptedSteps';

const finishReasons: Record<ScriptedStopReason, string> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
};

function errorKind(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 404) return { type: 'invalid_request_error', code: 'model_not_found' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

function text(reply: ResolvedReply): string {
  // Chat completions carry one content string, so text blocks are joined.
  return reply.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

function toolCalls(reply: ResolvedReply): Array<{ id: string; name: string; arguments: string }> {
  return reply.blocks.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: inputJsonText(b.input) }] : []));
}

export class ScriptedChatServer extends ScriptedHttpServer {
  protected readonly toolIdPrefix = 'call_';
  protected readonly requestIdHeader = 'x-request-id';
  private readonly created = Math.floor(Date.now() / 1000);

  static async start(script?: Script): Promise<ScriptedChatServer> {
    const server = new ScriptedChatServer(script);
    await server.listen();
    return server;
  }

  protected matches(path: string): boolean {
    return path === '/v1/chat/completions' || path === '/chat/completions';
  }

  protected replyJson(reply: ResolvedReply, ctx: ReplyContext): unknown {
    const content = text(reply);
    const calls = toolCalls(reply);
    return {
      ...this.envelope(ctx, 'chat.completion'),
      choices: [{
        index: 0,
        message: {
          role: 'assistant',
          content: content === '' && calls.length > 0 ? null : content,
          refusal: null,
          ...(calls.length > 0
            ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReasons[reply.stopReason],
      }],
      usage: this.usage(reply),
    };
  }

  protected replyEvents(reply: ResolvedReply, ctx: ReplyContext): string[] {
    const options = ctx.request.body.stream_options as { include_usage?: unknown } | undefined;
    const includeUsage = options?.include_usage === true;
    const envelope = this.envelope(ctx, 'chat.completion.chunk');
    // With include_usage the real API sends `usage: null` on every chunk but the last.
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string => `data: ${JSON.stringify({
      ...envelope,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    })}\n\n`;

    const events = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const piece of splitChunks(text(reply))) events.push(chunk({ content: piece }));
    toolCalls(reply).forEach((call, index) => {
      events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const piece of inputChunks(call.arguments)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    events.push(chunk({}, finishReasons[reply.stopReason]));
    if (includeUsage) events.push(`data: ${JSON.stringify({ ...envelope, choices: [], usage: this.usage(reply) })}\n\n`);
    events.push('data: [DONE]\n\n');
    return events;
  }

  protected errorJson(status: number, message: string): unknown {
    return { error: { message, ...errorKind(status), param: null } };
  }

  private envelope(ctx: ReplyContext, object: string): Record<string, unknown> {
    return { id: `chatcmpl-scripted-${ctx.index}`, object, created: this.created, model: ctx.model, system_fingerprint: null };
  }

  private usage(reply: ResolvedReply): Record<string, number> {
    const { inputTokens, outputTokens } = reply.usage;
    return { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
  }
}
