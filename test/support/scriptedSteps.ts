/**
 * One script format for the scripted LLM servers, plus the HTTP machinery they share.
 * The protocol servers (Anthropic Messages, OpenAI chat completions) only turn a resolved
 * reply into their wire format; queueing, recording, delays, drops and hangs live here.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ScriptedToolUse {
  id?: string;
  name: string;
  input: unknown;
  /** Messages API only: a toolset member call (`tool_use.toolset_name`, e.g. 'computer'). */
  toolsetName?: string;
}

/**
 * A tool input given as JSON text and sent verbatim, for inputs JSON.stringify cannot write
 * (nested thousands of levels deep) or should not rewrite (odd escapes). Streamed replies
 * and the chat server's `arguments` only: a whole Messages reply embeds the input as JSON.
 */
export class RawJsonInput {
  constructor(readonly json: string) {}
}

/** Pieces of a tool input's JSON: 16 characters, or at most ~256 pieces for a huge (fuzzed) one. */
export function inputChunks(json: string): string[] {
  return splitChunks(json, json.length > 4_096 ? Math.ceil(json.length / 256) : 16);
}

/** The JSON text a server sends for a scripted input. */
export function inputJsonText(input: unknown): string {
  return input instanceof RawJsonInput ? input.json : JSON.stringify(input);
}
export type ScriptedBlock = { type: 'text'; text: string } | ({ type: 'tool_use' } & ScriptedToolUse);
export type ScriptedStopReason = 'end_turn' | 'tool_use' | 'max_tokens';
export interface ScriptedUsage { inputTokens: number; outputTokens: number }

export interface ReplyStep {
  kind: 'reply';
  blocks: ScriptedBlock[];
  stopReason?: ScriptedStopReason;
  usage?: ScriptedUsage;
  /** Wait before answering at all (before headers). */
  delayMs?: number;
  /** Streaming only: wait between SSE events, so a test can cancel mid-stream. */
  chunkDelayMs?: number;
}
export interface ErrorStep { kind: 'error'; status: number; body?: unknown; headers?: Record<string, string> }
/** Streaming with afterEvents: 200 + N SSE events, then the socket dies. Otherwise the socket dies before any byte. */
export interface DropStep { kind: 'drop'; afterEvents?: number }
/** Never answer; the request ends when the client aborts (recorded as `aborted`) or the server closes. */
export interface HangStep { kind: 'hang' }
export type ScriptStep = ReplyStep | ErrorStep | DropStep | HangStep;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON request body. */
  body: Record<string, unknown>;
  rawBody: string;
  streamed: boolean;
  /** The client went away before the response was complete (abort, cancel, timeout). */
  aborted: boolean;
}

export type Script = ScriptStep[] | ((request: RecordedRequest, index: number) => ScriptStep);

export const defaultUsage: ScriptedUsage = { inputTokens: 10, outputTokens: 5 };

export function textReply(text: string, usage?: ScriptedUsage): ReplyStep {
  return { kind: 'reply', blocks: [{ type: 'text', text }], ...(usage ? { usage } : {}) };
}

/** Ids left out are filled in by the server (toolu_… / call_…), unique per request and block. */
export function toolReply(calls: ScriptedToolUse[], text?: string, usage?: ScriptedUsage): ReplyStep {
  const blocks: ScriptedBlock[] = text ? [{ type: 'text', text }] : [];
  for (const call of calls) blocks.push({ type: 'tool_use', ...call });
  return { kind: 'reply', blocks, stopReason: 'tool_use', ...(usage ? { usage } : {}) };
}

export type ResolvedBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown; toolsetName?: string };
export interface ResolvedReply { blocks: ResolvedBlock[]; stopReason: ScriptedStopReason; usage: ScriptedUsage }

/** Fills the defaults; generated ids depend only on request and block index, so they are stable and unique. */
export function resolveReply(step: ReplyStep, idPrefix: string, requestIndex: number): ResolvedReply {
  const blocks = step.blocks.map((block, i): ResolvedBlock => block.type === 'text'
    ? { type: 'text', text: block.text }
    : {
        type: 'tool_use', id: block.id ?? `${idPrefix}scripted_${requestIndex}_${i}`, name: block.name, input: block.input ?? {},
        ...(block.toolsetName ? { toolsetName: block.toolsetName } : {}),
      });
  const stopReason = step.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  return { blocks, stopReason, usage: step.usage ?? defaultUsage };
}

/** Splits into pieces of at most `size` code points, and at least two pieces when possible, so deltas really are partial. */
export function splitChunks(text: string, size = 16): string[] {
  const points = Array.from(text);
  if (points.length === 0) return [];
  const pieces = Math.max(Math.min(2, points.length), Math.ceil(points.length / size));
  const length = Math.ceil(points.length / pieces);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += length) out.push(points.slice(i, i + length).join(''));
  return out;
}

/** A reply long enough that its stream has more than `events` events, for drops mid-stream. */
export function fillerReply(events: number): ResolvedReply {
  const text = 'This reply is cut short by a scripted drop. '.repeat(Math.ceil(((events + 1) * 16) / 44));
  return { blocks: [{ type: 'text', text }], stopReason: 'end_turn', usage: defaultUsage };
}

export interface ReplyContext { request: RecordedRequest; index: number; model: string }

/** The protocol-independent half of a scripted LLM server. */
export abstract class ScriptedHttpServer {
  readonly requests: RecordedRequest[] = [];
  baseUrl = '';
  /** Milliseconds spent in handlers, excluding scripted delays, so benchmarks can subtract it. */
  serverTimeMs = 0;

  private readonly queue: ScriptStep[];
  private readonly fallback: ((request: RecordedRequest, index: number) => ScriptStep) | undefined;
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private closing = false;
  /** Responses we cut off ourselves, so their close is not taken for a client abort. */
  private readonly dropped = new WeakSet<http.ServerResponse>();

  protected abstract readonly toolIdPrefix: string;
  protected abstract readonly requestIdHeader: string;
  protected abstract matches(path: string): boolean;
  protected abstract replyJson(reply: ResolvedReply, ctx: ReplyContext): unknown;
  /** Complete SSE frames, each ending in a blank line. */
  protected abstract replyEvents(reply: ResolvedReply, ctx: ReplyContext): string[];
  protected abstract errorJson(status: number, message: string): unknown;

  protected constructor(script?: Script) {
    this.queue = Array.isArray(script) ? [...script] : [];
    this.fallback = typeof script === 'function' ? script : undefined;
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get requestCount(): number {
    return this.requests.length;
  }

  /** Queued steps are served first; a function script answers once the queue is empty. */
  push(...steps: ScriptStep[]): void {
    this.queue.push(...steps);
  }

  /** Resolves once no request is in flight, e.g. to see `aborted` after the client gave up. */
  settled(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // Destroying sockets ends hanging requests and idle keep-alives, so mocha can exit.
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  protected async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.inFlight += 1;
    res.on('close', () => {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.respond(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) this.sendJson(res, 500, this.errorJson(500, `scripted server failed: ${String(err)}`), { 'x-should-retry': 'false' });
        else res.destroy();
      });
    });
  }

  private timed<T>(work: () => T): T {
    const start = performance.now();
    try {
      return work();
    } finally {
      this.serverTimeMs += performance.now() - start;
    }
  }

  private async respond(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string): Promise<void> {
    const prepared = this.timed(() => this.prepare(req, res, rawBody));
    if (!prepared) return;
    const { step, ctx } = prepared;
    switch (step.kind) {
      case 'hang':
        return; // res 'close' records the abort
      case 'error':
        this.timed(() => this.sendError(res, step, ctx));
        return;
      case 'drop':
        return this.drop(res, step, ctx);
      case 'reply':
        if (step.delayMs && !(await this.pause(step.delayMs, res))) return;
        if (!ctx.request.streamed) {
          this.timed(() => this.sendJson(res, 200, this.replyJson(resolveReply(step, this.toolIdPrefix, ctx.index), ctx), this.idHeader(ctx)));
          return;
        }
        return this.stream(res, this.timed(() => this.replyEvents(resolveReply(step, this.toolIdPrefix, ctx.index), ctx)), ctx, step.chunkDelayMs ?? 0);
    }
  }

  /** Records the request and picks its step; undefined when it has already been answered. */
  private prepare(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string): { step: ScriptStep; ctx: ReplyContext } | undefined {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const noRetry = { 'x-should-retry': 'false' };
    if (req.method !== 'POST' || !this.matches(path)) {
      this.sendJson(res, 404, this.errorJson(404, `scripted server has no route for ${req.method} ${path}`), noRetry);
      return undefined;
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      this.sendJson(res, 400, this.errorJson(400, 'request body is not a JSON object'), noRetry);
      return undefined;
    }
    const fields = body as Record<string, unknown>;
    const request: RecordedRequest = {
      method: req.method ?? 'POST', path, headers: req.headers, body: fields, rawBody, streamed: fields.stream === true, aborted: false,
    };
    const index = this.requests.push(request) - 1;
    res.on('close', () => {
      // Our own drops destroy the socket too; those are not client aborts.
      if (!res.writableFinished && !this.closing && !this.dropped.has(res)) request.aborted = true;
    });
    const ctx: ReplyContext = { request, index, model: typeof fields.model === 'string' ? fields.model : 'scripted-model' };
    let step = this.queue.shift();
    if (!step && this.fallback) {
      try {
        step = this.fallback(request, index);
      } catch (err) {
        this.sendJson(res, 500, this.errorJson(500, `script function threw: ${String(err)}`), noRetry);
        return undefined;
      }
    }
    if (!step) {
      // x-should-retry: false stops the SDK from retrying, so the failure shows at once.
      this.sendJson(res, 500, this.errorJson(500, `script exhausted: no step for request #${index} (${path})`), noRetry);
      return undefined;
    }
    return { step, ctx };
  }

  private idHeader(ctx: ReplyContext): Record<string, string> {
    return { [this.requestIdHeader]: `req_scripted_${ctx.index}` };
  }

  private sendError(res: http.ServerResponse, step: ErrorStep, ctx: ReplyContext): void {
    const headers = { ...this.idHeader(ctx), ...step.headers };
    if (typeof step.body === 'string') {
      res.writeHead(step.status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(step.body);
      return;
    }
    this.sendJson(res, step.status, step.body ?? this.errorJson(step.status, `scripted ${step.status} error`), headers);
  }

  private sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  }

  private async drop(res: http.ServerResponse, step: DropStep, ctx: ReplyContext): Promise<void> {
    this.dropped.add(res);
    if (!ctx.request.streamed || step.afterEvents === undefined) {
      res.socket?.destroy();
      return;
    }
    const events = this.timed(() => this.replyEvents(fillerReply(step.afterEvents ?? 0), ctx));
    await this.stream(res, events.slice(0, step.afterEvents), ctx, 0);
  }

  /** Writes SSE frames; a dropped response ends with a cut connection instead of a clean end. */
  private async stream(res: http.ServerResponse, events: string[], ctx: ReplyContext, chunkDelayMs: number): Promise<void> {
    this.timed(() => {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        ...this.idHeader(ctx),
      });
      res.flushHeaders(); // lets the SDK's fetch resolve before the first event
    });
    for (const [i, event] of events.entries()) {
      if (i > 0 && chunkDelayMs > 0 && !(await this.pause(chunkDelayMs, res))) return;
      if (res.destroyed) return;
      this.timed(() => res.write(event));
    }
    const socket = res.socket;
    if (this.dropped.has(res) && socket) {
      // end() flushes the frames already written, then cuts the chunked body short.
      socket.end(() => socket.destroy());
      return;
    }
    this.timed(() => res.end());
  }

  /** Resolves true after `ms`, or false as soon as the response is closed (client abort, server close). */
  private pause(ms: number, res: http.ServerResponse): Promise<boolean> {
    if (res.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onClose = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        res.off('close', onClose);
        resolve(true);
      }, ms);
      res.once('close', onClose);
    });
  }
}
