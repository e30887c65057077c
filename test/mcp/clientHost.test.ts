import assert from 'node:assert/strict';
import { MemoryLogger } from '../../src/common/logger';
import { McpClientHost } from '../../src/mcp/client/clientHost';
import { McpClientTool } from '../../src/mcp/client/clientTool';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { echoServerEntry, echoServerFiles, isRunning, waitUntil, type EchoServerFiles } from './mcpTestServer';

// GAI's MCP client against a real stdio MCP server (test/support/mcpEchoServer.mjs), through
// GAI's tool runtime: naming, risk, schema checks, results, timeout, cancel, crashes, shutdown.

describe('MCP client: configured servers as GAI tools', function () {
  this.timeout(30_000);
  let files: EchoServerFiles;
  let host: McpClientHost;
  let registry: ToolRegistry;
  let runtime: ToolRuntime;
  let logger: MemoryLogger;

  async function start(extra: Record<string, unknown> = {}, name = 'notes'): Promise<void> {
    files = echoServerFiles();
    logger = new MemoryLogger();
    host = new McpClientHost([echoServerEntry(name, files, extra)], logger);
    registry = new ToolRegistry(logger);
    runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'standard' }), logger, autoApprove: ['read', 'action'] });
    await host.toolSource(registry).prepare(new AbortController().signal);
  }

  const call = (name: string, input: unknown, signal = new AbortController().signal) => runtime.execute({ id: 'c1', name, input }, signal);

  afterEach(async () => {
    await host.dispose();
    files.remove();
  });

  it('offers every tool under the server prefix, with its JSON Schema and a risk from its annotations', async () => {
    await start({}, 'my notes.v2');
    const names = registry.getAll().map((tool) => tool.name).sort();
    assert.deepEqual(names, ['my_notes_v2__crash', 'my_notes_v2__delete_note', 'my_notes_v2__read_note', 'my_notes_v2__refuse', 'my_notes_v2__slow', 'my_notes_v2__who_am_i']);
    const read = registry.get('my_notes_v2__read_note');
    assert.ok(read instanceof McpClientTool);
    assert.equal(read.risk, 'read');
    assert.equal(registry.get('my_notes_v2__delete_note')?.risk, 'action', 'destructiveHint → asks approval');
    assert.equal(registry.get('my_notes_v2__who_am_i')?.risk, 'action', 'no annotations → asks approval');
    const definition = read.getDefinition();
    assert.deepEqual(definition.inputSchema.required, ['title']);
    assert.equal(definition.inputSchema.additionalProperties, false);
    assert.match(definition.description, /MCP server "my notes\.v2".*Reads a note/);
    assert.equal(read.timeoutMs, 60_000, 'seed 003: 60 s by default');
  });

  it('runs a call: text becomes the observation, an image a picture for the model', async () => {
    await start();
    const result = await call('notes__read_note', { title: 'groceries', withPicture: true });
    assert.equal(result.success, true, result.error);
    assert.equal(result.observation, 'Note "groceries": buy milk');
    assert.equal(result.images?.length, 1);
    assert.equal(result.images?.[0]?.source.mediaType, 'image/png');
    assert.deepEqual(files.entries().find((e) => e.tool === 'read_note')?.args, { title: 'groceries', withPicture: true });
  });

  it("checks the input against the server's schema before anything is sent", async () => {
    await start();
    const result = await call('notes__read_note', { title: '', extra: 1 });
    assert.equal(result.success, false);
    assert.equal(result.code, 'INVALID_INPUT');
    assert.match(result.error ?? '', /title/);
    assert.match(result.error ?? '', /additional properties/);
    assert.equal(files.entries().filter((e) => e.tool).length, 0, 'the server never got the call');
  });

  it("a result flagged isError is a failure carrying the server's message", async () => {
    await start();
    const result = await call('notes__refuse', {});
    assert.equal(result.success, false);
    assert.equal(result.code, 'FAILED');
    assert.match(result.error ?? '', /the note store is locked/);
  });

  it("times out after the server's timeoutSeconds and cancels the call on the server", async () => {
    await start({ timeoutSeconds: 0.5 });
    assert.equal(registry.get('notes__slow')?.timeoutMs, 500);
    const started = Date.now();
    const result = await call('notes__slow', { ms: 10_000 });
    assert.equal(result.code, 'TIMEOUT');
    assert.ok(Date.now() - started < 3_000);
    assert.ok(await waitUntil(() => files.entries().some((e) => e.cancelled === 'slow')), 'the server was told to stop');
  });

  it('a cancelled request cancels the call on the server', async () => {
    await start();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await call('notes__slow', { ms: 10_000 }, controller.signal);
    assert.equal(result.code, 'CANCELLED');
    assert.ok(await waitUntil(() => files.entries().some((e) => e.cancelled === 'slow')), 'the server was told to stop');
    const after = await call('notes__slow', { ms: 10 });
    assert.equal(after.observation, 'waited 10 ms', 'the server still answers');
  });

  it('a server that dies is restarted once and reported; a second death leaves it down until the next conversation', async () => {
    await start();
    const [firstPid] = host.pids();
    assert.ok(firstPid);
    const crashed = await call('notes__crash', {});
    assert.equal(crashed.code, 'FAILED');
    assert.match(crashed.error ?? '', /died during notes__crash .*and was restarted/);
    assert.match(crashed.error ?? '', /boom: the test server crashes on purpose/, "the server's last words are reported");
    assert.match(crashed.hint ?? '', /runs again/);
    const [secondPid] = host.pids();
    assert.ok(secondPid && secondPid !== firstPid, 'a new process');
    assert.equal(isRunning(firstPid), false);
    const who = await call('notes__who_am_i', {});
    assert.equal(who.observation, `pid ${secondPid}`);

    const again = await call('notes__crash', {});
    assert.equal(again.code, 'UNAVAILABLE');
    assert.match(again.error ?? '', /died during notes__crash .*stays down until the next conversation/);
    const down = await call('notes__read_note', { title: 'x' });
    assert.equal(down.code, 'UNAVAILABLE');
    assert.match(down.error ?? '', /MCP server "notes" died again/);
    assert.deepEqual(host.pids(), []);

    host.newConversation();
    await host.toolSource(registry).prepare(new AbortController().signal);
    const back = await call('notes__read_note', { title: 'x' });
    assert.equal(back.success, true, back.error);
  });

  it('calls that saw the same death share its one restart', async () => {
    await start();
    const turn = await runtime.executeTurn(
      [
        { id: 'a', name: 'notes__crash', input: {} },
        { id: 'b', name: 'notes__slow', input: { ms: 2_000 } },
      ],
      new AbortController().signal,
    );
    for (const result of turn.results) assert.match(result.error ?? '', /died during .* and was restarted/);
    assert.equal(host.pids().length, 1, 'one new process');
    const after = await call('notes__read_note', { title: 'x' });
    assert.equal(after.success, true, 'not down: that was one death');
  });

  it('a server that died between requests is restarted by the next request and counts as its one restart', async () => {
    await start();
    const source = host.toolSource(registry);
    await source.prepare(new AbortController().signal);
    const [pid] = host.pids();
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    assert.ok(await waitUntil(() => host.pids().length === 0));
    await source.prepare(new AbortController().signal);
    assert.equal(host.pids().length, 1);
    assert.ok(logger.lines.some((line) => /MCP server "notes" died \(it exited\); restarting it once/.test(line)), logger.lines.join('\n'));
    const crashed = await call('notes__crash', {});
    assert.equal(crashed.code, 'UNAVAILABLE', 'the second death in the conversation');
  });

  it('leaves no process behind when disposed', async () => {
    await start();
    const pids = host.pids();
    assert.equal(pids.length, 1);
    await host.dispose();
    for (const pid of pids) assert.ok(await waitUntil(() => !isRunning(pid)), `process ${pid} still runs`);
  });

  it('a server that cannot start is left out until the next conversation, and logged', async () => {
    files = echoServerFiles();
    logger = new MemoryLogger();
    host = new McpClientHost(
      [echoServerEntry('broken', files, { args: ['-e', 'process.exit(7)'] })],
      logger,
    );
    registry = new ToolRegistry(logger);
    await host.toolSource(registry).prepare(new AbortController().signal);
    assert.equal(registry.count(), 0);
    assert.ok(logger.lines.some((line) => /MCP server "broken" could not be started: .*its tools are not offered until the next conversation/.test(line)), logger.lines.join('\n'));
  });
});

describe('MCP client: the app permission guard', () => {
  it('does not ask about the active window for an MCP tool, and still does for a desktop tool', async () => {
    const { AppPermissionGuard } = await import('../../src/safety/appPermissions');
    const { McpServerConnection } = await import('../../src/mcp/client/clientConnection');
    const { isMcpClientTool } = await import('../../src/mcp/client/clientTool');
    const { EchoTool } = await import('../../src/tools/echoTool');
    let looked = 0;
    const windows = {
      activeWindow: () => {
        looked++;
        return Promise.resolve(undefined);
      },
    } as unknown as ConstructorParameters<typeof AppPermissionGuard>[0]['windows'];
    const store = { get: () => undefined, set: () => undefined, all: () => ({}) } as unknown as ConstructorParameters<typeof AppPermissionGuard>[0]['store'];
    const guard = new AppPermissionGuard({ windows, store, settingNames: { allow: 'a', deny: 'd' }, exemptTool: isMcpClientTool });
    const files = echoServerFiles();
    try {
      const connection = new McpServerConnection(echoServerEntry('notes', files), new MemoryLogger());
      const tool = new McpClientTool('notes__delete_note', { name: 'delete_note', inputSchema: { type: 'object' } }, connection);
      const signal = new AbortController().signal;
      assert.equal(await guard.beforeAction({ id: '1', name: tool.name, input: {} }, tool, signal), undefined);
      assert.equal(looked, 0, 'no window looked at for the MCP tool');
      await guard.beforeAction({ id: '2', name: 'echo', input: {} }, new EchoTool(), signal);
      assert.equal(looked, 1, 'the desktop tool is still checked');
    } finally {
      files.remove();
    }
  });
});
