import assert from 'node:assert/strict';
import { Agent } from '../../src/agent/agent';
import { LlmManager } from '../../src/model/llmManager';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { MemoryLogger } from '../../src/common/logger';
import { McpClientHost } from '../../src/mcp/client/clientHost';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { toolNamesSent, toolResultsSent } from '../support/agentHarness';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply, type Script } from '../support/scriptedSteps';
import { echoServerEntry, echoServerFiles, isRunning, waitUntil, type EchoServerFiles } from './mcpTestServer';

// GAI's agent (the real @anthropic-ai/sdk against the scripted Messages server) calling the
// tools of a real stdio MCP server, under GAI's approval rules.

describe('MCP client: the agent calls an MCP server', function () {
  this.timeout(30_000);
  let files: EchoServerFiles;
  let model: ScriptedMessagesServer;
  let host: McpClientHost;
  let asked: ApprovalRequest[];

  async function agentWith(script: Script, answer: 'approve' | 'deny' = 'approve'): Promise<Agent> {
    files = echoServerFiles();
    model = await ScriptedMessagesServer.start(script);
    const logger = new MemoryLogger();
    host = new McpClientHost([echoServerEntry('notes', files)], logger);
    const registry = new ToolRegistry(logger);
    asked = [];
    const runtime = new ToolRuntime(registry, {
      policy: new ToolPolicy({ profile: 'standard' }),
      logger,
      autoApprove: ['read'],
      requestApproval: async (request) => {
        asked.push(request);
        return answer;
      },
    });
    const provider = new AnthropicProvider({ provider: 'anthropic', model: 'test-model', apiKey: 'test', baseUrl: model.baseUrl, maxRetries: 0 });
    const llm = new LlmManager({ default: provider }, { system: 'You are a test.' });
    return new Agent(llm, runtime, { logger, toolSources: [host.toolSource(registry)] });
  }

  afterEach(async () => {
    await host.dispose();
    await model.close();
    files.remove();
  });

  it('offers the server tools, runs the read-only one without asking and the destructive one after approval', async () => {
    const agent = await agentWith([
      toolReply([{ name: 'notes__read_note', input: { title: 'groceries' } }]),
      toolReply([{ name: 'notes__delete_note', input: { title: 'groceries' } }]),
      textReply('Read and deleted.'),
    ]);
    const response = await agent.processRequest('read my groceries note, then delete it');
    assert.equal(response.stopReason, 'end_turn');
    const first = model.requests[0]?.body ?? {};
    const offered = toolNamesSent('anthropic', first);
    for (const name of ['notes__read_note', 'notes__delete_note', 'notes__slow', 'notes__who_am_i']) assert.ok(offered.includes(name), `${name} offered: ${offered.join(', ')}`);
    const schema = (first.tools as Array<{ name: string; input_schema: unknown }>).find((tool) => tool.name === 'notes__read_note')?.input_schema;
    assert.deepEqual((schema as { required: string[] }).required, ['title'], "the server's JSON Schema");

    assert.deepEqual(asked.map((request) => request.call.name), ['notes__delete_note'], 'only the destructive tool asked');
    assert.equal(asked[0]?.risk, 'action');
    assert.deepEqual(files.entries().filter((e) => e.tool).map((e) => e.tool), ['read_note', 'delete_note']);
    const results = toolResultsSent('anthropic', model.requests[2]?.body ?? {});
    assert.match(results[0]?.text ?? '', /buy milk/);
    assert.match(results[1]?.text ?? '', /Deleted \\"groceries\\"/);
  });

  it('a denied destructive call never reaches the server', async () => {
    const agent = await agentWith([toolReply([{ name: 'notes__delete_note', input: { title: 'groceries' } }]), textReply('Not deleted.')], 'deny');
    await agent.processRequest('delete my groceries note');
    assert.equal(asked.length, 1);
    assert.deepEqual(files.entries().filter((e) => e.tool), []);
    const results = toolResultsSent('anthropic', model.requests[1]?.body ?? {});
    assert.match(results[0]?.text ?? '', /"code":"DENIED"/);
  });

  it('cancelling the request cancels the running MCP call', async () => {
    const agent = await agentWith([toolReply([{ name: 'notes__slow', input: { ms: 20_000 } }]), textReply('never')]);
    const running = agent.processRequest('wait a long time');
    assert.ok(await waitUntil(() => files.entries().some((e) => e.tool === 'slow')));
    agent.cancel();
    const response = await running;
    assert.equal(response.stopReason, 'cancelled');
    assert.ok(await waitUntil(() => files.entries().some((e) => e.cancelled === 'slow')), 'the server was told to stop');
  });

  it('a crash mid-call reaches the model as "died and was restarted"; disposing leaves no process', async () => {
    const agent = await agentWith([toolReply([{ name: 'notes__crash', input: {} }]), toolReply([{ name: 'notes__who_am_i', input: {} }]), textReply('done')], 'approve');
    await agent.processRequest('crash it');
    const results = toolResultsSent('anthropic', model.requests[1]?.body ?? {});
    assert.match(results[0]?.text ?? '', /died during notes__crash.*was restarted/);
    const pids = host.pids();
    assert.equal(pids.length, 1);
    const who = toolResultsSent('anthropic', model.requests[2]?.body ?? {});
    assert.match(who[1]?.text ?? '', new RegExp(`pid ${pids[0]}`), 'the restarted server answered');
    await host.dispose();
    assert.ok(await waitUntil(() => !isRunning(pids[0] ?? 0)));
  });
});
