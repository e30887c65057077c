import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { GaiError, errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { GaiMcpServer } from './server';
import { hasBearerToken } from './serverToken';

// `gai mcp --http PORT`: Streamable HTTP on one path, every request with the bearer token.

export const MCP_HTTP_PATH = '/mcp';
/** A JSON-RPC message GAI accepts; tool inputs are small (type_text is bounded far below this). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpServerOptions {
  server: GaiMcpServer;
  host: string;
  port: number;
  token: string;
  logger: Logger;
}

export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

/** Whether `host` is this machine only (what `--host` must say otherwise). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export async function listenHttp(options: HttpServerOptions): Promise<RunningHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.logger.warn(`mcp http: ${errorMessage(error)}`);
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.end();
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hasBearerToken(req.headers.authorization, options.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="gai"');
      reply(res, 401, 'missing or wrong bearer token: send "Authorization: Bearer <the token gai mcp printed at start>"');
      return;
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_HTTP_PATH) {
      reply(res, 404, `no such endpoint ${path}; the MCP endpoint is ${MCP_HTTP_PATH}`);
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req);
      if (!read.ok) {
        reply(res, 400, `the request body is not JSON: ${read.why}`);
        return;
      }
      body = read.value;
    }
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) {
      await known.handleRequest(req, res, body);
      return;
    }
    if (typeof sessionId === 'string') {
      reply(res, 404, `unknown session ${sessionId}; initialize again`);
      return;
    }
    if (!isInitializeRequest(body)) {
      reply(res, 400, 'no mcp-session-id header: the first request of a session must be initialize');
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await options.server.createSession().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(new GaiError('CONFIG', `--http ${options.port}: cannot listen on ${options.host} (${error.code ?? errorMessage(error)})`)),
    );
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${MCP_HTTP_PATH}`,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections(); // open SSE streams would keep close() waiting
      await closed;
    },
  };
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; why: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, why: `over ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, why: errorMessage(error) };
  }
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
