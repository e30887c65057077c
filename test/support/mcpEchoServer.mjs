// A small MCP server for the tests of GAI's MCP client, over stdio, with the real SDK's Server.
// Every call is appended to $MCP_ECHO_LOG (one JSON line), so a test sees what really ran.
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

// A 1×1 red PNG.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const TOOLS = [
  {
    name: 'read_note',
    description: 'Reads a note by its title.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string', minLength: 1 }, withPicture: { type: 'boolean' } },
      required: ['title'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'delete_note',
    description: 'Deletes a note for good.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
  {
    name: 'slow',
    description: 'Waits, then answers; stops when the call is cancelled.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'crash',
    description: 'Ends the server process in the middle of the call.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'refuse',
    description: 'Always answers with an error result.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  { name: 'who.am/i', description: 'Says the process id; no annotations.', inputSchema: { type: 'object', properties: {} } },
];

function log(entry) {
  if (process.env.MCP_ECHO_LOG) appendFileSync(process.env.MCP_ECHO_LOG, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
}

const server = new Server({ name: 'gai-test-echo', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = request.params.arguments ?? {};
  log({ tool: request.params.name, args });
  switch (request.params.name) {
    case 'read_note': {
      const content = [{ type: 'text', text: `Note "${args.title}": buy milk` }];
      if (args.withPicture) content.push({ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' });
      return { content };
    }
    case 'delete_note':
      return { content: [{ type: 'text', text: `Deleted "${args.title}"` }] };
    case 'slow':
      return await new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: `waited ${args.ms} ms` }] }), args.ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          log({ cancelled: 'slow' });
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      });
    case 'crash':
      process.stderr.write('boom: the test server crashes on purpose\n');
      process.exit(3);
      break;
    case 'refuse':
      return { isError: true, content: [{ type: 'text', text: 'the note store is locked' }] };
    case 'who.am/i':
      return { content: [{ type: 'text', text: `pid ${process.pid}` }] };
    default:
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
  }
});

await server.connect(new StdioServerTransport());
log({ started: true });
