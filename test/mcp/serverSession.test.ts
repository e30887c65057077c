// GaiMcpServer in process over the SDK's in-memory transport, with small real tools: how calls
// are scheduled and how results become MCP content.
import { strict as assert } from 'node:assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NullLogger } from '../../src/common/logger';
import { GaiMcpServer } from '../../src/mcp/server/server';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { PressTool, SnapTool, WaitTool, type ToolEvent } from '../support/testTools';

async function connected(log: ToolEvent[]): Promise<{ client: Client; server: GaiMcpServer }> {
  const registry = new ToolRegistry();
  registry.register(new PressTool(log, 150));
  registry.register(new WaitTool(log));
  registry.register(new SnapTool());
  const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), autoApprove: ['read', 'action', 'system'] });
  const server = new GaiMcpServer({ runtime, logger: new NullLogger(), version: '0.0.0-test' });
  await server.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.createSession().connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return { client, server };
}

describe('gai mcp: scheduling and content (in-memory transport)', () => {
  it('runs action calls one at a time, as they came, and read calls side by side', async () => {
    const log: ToolEvent[] = [];
    const { client, server } = await connected(log);
    try {
      const results = (await Promise.all([
        client.callTool({ name: 'press', arguments: { label: 'A' } }),
        client.callTool({ name: 'press', arguments: { label: 'B' } }),
        client.callTool({ name: 'wait', arguments: { ms: 200 } }),
        client.callTool({ name: 'wait', arguments: { ms: 200 } }),
      ])) as CallToolResult[];
      assert.deepEqual(results.map((r) => r.isError), [false, false, false, false]);
      const presses = log.filter((e) => e.tool === 'press').map((e) => `${e.phase} ${(e.input as { label: string }).label}`);
      assert.deepEqual(presses, ['start A', 'end A', 'start B', 'end B'], 'the second press waited for the first');
      const waits = log.filter((e) => e.tool === 'wait').map((e) => e.phase);
      assert.deepEqual(waits, ['start', 'start', 'end', 'end'], 'reads did not wait for each other');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a queued action cancelled by the client does not run, and the queue goes on', async () => {
    const log: ToolEvent[] = [];
    const { client, server } = await connected(log);
    try {
      const controller = new AbortController();
      const first = client.callTool({ name: 'press', arguments: { label: 'A' } });
      const second = client.callTool({ name: 'press', arguments: { label: 'B' } }, undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      await assert.rejects(second, /abort/i);
      await first;
      const third = (await client.callTool({ name: 'press', arguments: { label: 'C' } })) as CallToolResult;
      assert.equal(third.isError, false);
      assert.deepEqual(
        log.filter((e) => e.phase === 'start').map((e) => (e.input as { label: string }).label),
        ['A', 'C'],
        'B never started',
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("gives a tool's pictures as MCP image content after the JSON text, and no brain resource without a brain", async () => {
    const { client, server } = await connected([]);
    try {
      const snap = (await client.callTool({ name: 'snap', arguments: {} })) as CallToolResult;
      assert.equal(snap.content[0]?.type, 'text');
      assert.equal((JSON.parse((snap.content[0] as { text: string }).text) as { success: boolean }).success, true);
      const image = snap.content[1] as { type: string; mimeType: string; data: string };
      assert.equal(image.type, 'image');
      assert.equal(image.mimeType, 'image/png');
      assert.equal(Buffer.from(image.data, 'base64').subarray(1, 4).toString(), 'PNG');
      const { resources } = await client.listResources();
      assert.deepEqual(resources.map((r) => r.uri), ['gai://screen/text']);
      await assert.rejects(client.readResource({ uri: 'gai://brain' }), /uri: no resource "gai:\/\/brain"; this server has gai:\/\/screen\/text/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
