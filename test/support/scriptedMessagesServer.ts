/**
 * A scripted stand-in for the Anthropic Messages API (`POST /v1/messages`), answering in the
 * exact JSON and SSE shapes the real `@anthropic-ai/sdk` parses.
 */
import {
  RawJsonInput, ScriptedHttpServer, inputChunks, inputJsonText, splitChunks,
  type ReplyContext, type ResolvedBlock, type ResolvedReply, type Script,
} from './scriptedSteps';

export type { RecordedRequest, Script, ScriptStep } from './scriptedSteps';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function contentBlock(block: ResolvedBlock): Record<string, unknown> {
  if (block.type === 'tool_use' && block.input instanceof RawJsonInput) {
    throw new Error('a RawJsonInput needs a streamed request (the whole reply embeds the input as JSON)');
  }
  return block.type === 'text'
    ? { type: 'text', text: block.text }
    : { type: 'tool_use', id: block.id, name: block.name, input: block.input, ...toolset(block) };
}

/** A toolset member call carries its family, as the API sends it. */
function toolset(block: ResolvedBlock): { toolset_name?: string } {
  return block.type === 'tool_use' && block.toolsetName ? { toolset_name: block.toolsetName } : {};
}

export class ScriptedMessagesServer extends ScriptedHttpServer {
  protected readonly toolIdPrefix = 'toolu_';
  protected readonly requestIdHeader = 'request-id';

  static async start(script?: Script): Promise<ScriptedMessagesServer> {
    const server = new ScriptedMessagesServer(script);
    await server.listen();
    return server;
  }

  protected matches(path: string): boolean {
    return path === '/v1/messages';
  }

  protected replyJson(reply: ResolvedReply, ctx: ReplyContext): unknown {
    return {
      ...this.envelope(ctx),
      content: reply.blocks.map(contentBlock),
      stop_reason: reply.stopReason,
      stop_sequence: null,
      usage: this.usage(reply.usage.inputTokens, reply.usage.outputTokens),
    };
  }

  protected replyEvents(reply: ResolvedReply, ctx: ReplyContext): string[] {
    const events = [
      sse('message_start', {
        type: 'message_start',
        message: {
          ...this.envelope(ctx), content: [], stop_reason: null, stop_sequence: null,
          usage: this.usage(reply.usage.inputTokens, 1),
        },
      }),
      sse('ping', { type: 'ping' }),
    ];
    reply.blocks.forEach((block, index) => {
      if (block.type === 'text') {
        events.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
        for (const text of splitChunks(block.text)) {
          events.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
        }
      } else {
        events.push(sse('content_block_start', {
          type: 'content_block_start', index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {}, ...toolset(block) },
        }));
        for (const partial_json of inputChunks(inputJsonText(block.input))) {
          events.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
        }
      }
      events.push(sse('content_block_stop', { type: 'content_block_stop', index }));
    });
    events.push(
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: reply.stopReason, stop_sequence: null },
        usage: { output_tokens: reply.usage.outputTokens },
      }),
      sse('message_stop', { type: 'message_stop' }),
    );
    return events;
  }

  protected errorJson(status: number, message: string): unknown {
    const type = errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  }

  private envelope(ctx: ReplyContext): Record<string, unknown> {
    return { id: `msg_scripted_${ctx.index}`, type: 'message', role: 'assistant', model: ctx.model };
  }

  private usage(inputTokens: number, outputTokens: number): Record<string, number> {
    return { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };
  }
}
