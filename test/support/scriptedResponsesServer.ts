/**
 * A scripted stand-in for OpenAI's Responses API (`POST /v1/responses`): answers in the JSON of a
 * `Response` and, for `stream: true`, in the SSE events the `openai` SDK parses (`event:` line with
 * the type, `data:` with the event's JSON). Records every request body for the tests to check.
 */
import type * as http from 'node:http';
import { startLocalHttpServer, type LocalHttpServer } from './localHttpServer';

export interface ResponsesReply {
  kind?: 'reply';
  /** Output items as the API returns them (ids and statuses included). */
  output: Array<Record<string, unknown> & { type: string }>;
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number };
  status?: 'completed' | 'incomplete';
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  /** Streaming only: stop after this many events, without `response.completed`. */
  cutAfterEvents?: number;
}
export interface ResponsesError { kind: 'error'; status: number; message: string }
export interface ResponsesHang { kind: 'hang' }
export type ResponsesStep = ResponsesReply | ResponsesError | ResponsesHang;

export interface RecordedResponsesRequest {
  body: Record<string, unknown>;
  streamed: boolean;
  aborted: boolean;
}

export class ScriptedResponsesServer {
  readonly requests: RecordedResponsesRequest[] = [];
  baseUrl = '';
  private server?: LocalHttpServer;

  private constructor(private readonly steps: ResponsesStep[]) {}

  static async start(steps: ResponsesStep[] = []): Promise<ScriptedResponsesServer> {
    const scripted = new ScriptedResponsesServer([...steps]);
    scripted.server = await startLocalHttpServer((req, res) => scripted.handle(req, res));
    scripted.baseUrl = `http://127.0.0.1:${scripted.server.port}/v1`;
    return scripted;
  }

  push(...steps: ResponsesStep[]): void {
    this.steps.push(...steps);
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/responses') {
        return json(res, 404, { error: { message: `no route for ${req.method} ${req.url}`, type: 'invalid_request_error', code: null, param: null } });
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const request: RecordedResponsesRequest = { body, streamed: body.stream === true, aborted: false };
      const index = this.requests.push(request) - 1;
      res.on('close', () => {
        if (!res.writableFinished) request.aborted = true;
      });
      const step = this.steps.shift();
      if (!step) return json(res, 500, { error: { message: 'script exhausted', type: 'server_error', code: null, param: null } }, { 'x-should-retry': 'false' });
      if (step.kind === 'hang') return;
      if (step.kind === 'error') {
        return json(res, step.status, { error: { message: step.message, type: 'invalid_request_error', code: null, param: null } }, { 'x-should-retry': 'false' });
      }
      const response = responseOf(step, index, String(body.model));
      if (!request.streamed) return json(res, 200, response);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_${index}` });
      const events = streamEvents(response, step);
      const cut = step.cutAfterEvents ?? events.length;
      for (const event of events.slice(0, cut)) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  }
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_scripted', ...headers });
  res.end(JSON.stringify(body));
}

function responseOf(step: ResponsesReply, index: number, model: string): Record<string, unknown> {
  const usage = step.usage ?? { input_tokens: 10, output_tokens: 5 };
  return {
    id: `resp_${index}`,
    object: 'response',
    created_at: 1_700_000_000,
    model,
    status: step.status ?? 'completed',
    error: null,
    incomplete_details: step.incompleteReason ? { reason: step.incompleteReason } : null,
    instructions: null,
    metadata: {},
    output: step.output,
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}

/** The events the API sends for a response: created, each item added / its deltas / done, completed. */
function streamEvents(response: Record<string, unknown>, step: ResponsesReply): Array<Record<string, unknown>> {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>): Record<string, unknown> => ({ type, sequence_number: sequence++, ...fields });
  const events = [event('response.created', { response: { ...response, status: 'in_progress', output: [] } })];
  step.output.forEach((item, outputIndex) => {
    const id = String(item.id ?? `item_${outputIndex}`);
    events.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', ...(item.type === 'message' ? { content: [] } : {}) } }));
    if (item.type === 'message') {
      const parts = (item.content as Array<{ type: string; text?: string }>) ?? [];
      parts.forEach((part, contentIndex) => {
        for (const piece of (part.text ?? '').match(/[\s\S]{1,8}/g) ?? []) {
          events.push(event('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: contentIndex, delta: piece, logprobs: [] }));
        }
      });
    }
    if (item.type === 'function_call') {
      events.push(event('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: String(item.arguments) }));
      events.push(event('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: String(item.arguments), name: item.name }));
    }
    events.push(event('response.output_item.done', { output_index: outputIndex, item }));
  });
  const final = step.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  events.push(event(final, { response }));
  return events;
}
