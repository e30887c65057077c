import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryLogger } from '../../src/common/logger';
import { parseMcpServers } from '../../src/mcp/client/clientConfig';
import { McpClientHost } from '../../src/mcp/client/clientHost';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';

// A {url, headers} entry: GAI's client over Streamable HTTP to the real SDK's server transport on
// loopback, sending the configured headers.

describe('MCP client: a Streamable HTTP server', function () {
  this.timeout(20_000);
  let http: HttpServer;
  let url: string;
  const authorizations: Array<string | undefined> = [];

  before(async () => {
    const server = new Server({ name: 'gai-test-http', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }, annotations: { readOnlyHint: true } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const { a, b } = request.params.arguments as { a: number; b: number };
      return { content: [{ type: 'text', text: String(a + b) }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    http = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      if (req.headers.authorization !== 'Bearer sesame') {
        res.writeHead(401).end();
        return;
      }
      void transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  after(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('lists and calls the tools with the configured headers', async () => {
    const entries = parseMcpServers({ calc: { url, headers: { Authorization: 'Bearer sesame' } } }, 'mcpServers');
    const host = new McpClientHost(entries, new MemoryLogger());
    try {
      const registry = new ToolRegistry();
      await host.toolSource(registry).prepare(new AbortController().signal);
      assert.deepEqual(registry.getAll().map((tool) => `${tool.name}:${tool.risk}`), ['calc__add:read']);
      const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'read-only' }) });
      const result = await runtime.execute({ id: '1', name: 'calc__add', input: { a: 2, b: 3 } }, new AbortController().signal);
      assert.equal(result.success, true, result.error);
      assert.equal(result.observation, '5');
      assert.ok(authorizations.length >= 3 && authorizations.every((value) => value === 'Bearer sesame'));
    } finally {
      await host.dispose();
    }
  });

  it('a server that refuses the connection is left out, and its failure is logged', async () => {
    const logger = new MemoryLogger();
    const host = new McpClientHost(parseMcpServers({ calc: { url, headers: { Authorization: 'Bearer wrong' } } }, 'mcpServers'), logger);
    try {
      const registry = new ToolRegistry();
      await host.toolSource(registry).prepare(new AbortController().signal);
      assert.equal(registry.count(), 0);
      assert.ok(logger.lines.some((line) => /MCP server "calc" could not be started: .*\(HTTP 401\); its tools are not offered until the next conversation/.test(line)), logger.lines.join('\n'));
    } finally {
      await host.dispose();
    }
  });
});
