// `gai mcp` as a process (src/cli/mcpServerMain.ts under tsx) with the real MCP SDK client, over
// stdio and Streamable HTTP. No display: these calls never reach the desktop (echo, wait, a
// click the profile denies); test/desktop/mcpServer.test.ts drives the real fixture.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BrainStore } from '../../src/navigation/store/brainStore';
import { addPath, upsertNode } from '../../src/navigation/store/brainRecords';
import { addRoutine, editRoutine } from '../../src/navigation/store/routineRecords';
import { connectStdio, SOURCE_MCP_SERVER, startHttp, type HttpServer, type StdioSession } from '../support/mcpServerProcess';
import { runCliCaptured } from '../support/cliHarness';
import { homePage, networkPage, nodeFor, pathFor } from '../brain/support/brainFixtures';

function serverEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), GAI_BRAIN_DIR: join(home, 'brain'), ANTHROPIC_API_KEY: '' };
  // Nothing here may reach a display, least of all the person's.
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
}

function textOf(result: CallToolResult): { success: boolean; code?: string; observation: string; hint?: string; data?: unknown } {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return JSON.parse((first as { text: string }).text) as { success: boolean; code?: string; observation: string };
}

/** Resolves at the next tools/list_changed the client receives. */
function nextListChanged(session: StdioSession, timeoutMs = 10_000): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no tools/list_changed within ${timeoutMs} ms\n${session.stderr()}`)), timeoutMs);
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      clearTimeout(timer);
      done();
    });
  });
}

describe('gai mcp over stdio (real MCP SDK client)', function () {
  this.timeout(60_000);
  let home: string;
  let session: StdioSession;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'gai-mcp-'));
    session = await connectStdio(SOURCE_MCP_SERVER, ['--verbose'], serverEnv(home));
  });
  after(async () => {
    await session?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists every GAI tool with its JSON Schema and read-only / destructive hints by risk', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['screen_capture', 'zoom', 'ocr', 'get_element_tree', 'click', 'type_text', 'press_key', 'scroll', 'drag', 'navigate_to', 'get_current_node']) {
      assert.ok(byName.has(name), `${name} is offered`);
    }
    const click = byName.get('click')!;
    assert.equal(click.inputSchema.type, 'object');
    assert.ok(click.inputSchema.properties && 'text' in click.inputSchema.properties, 'the schema has the text field');
    assert.deepEqual(click.annotations, { title: 'Click', readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    assert.equal(byName.get('ocr')?.annotations?.readOnlyHint, true);
    assert.equal(byName.get('ocr')?.annotations?.destructiveHint, false);
    // The standard profile: launching programs (system) needs --profile full.
    assert.equal(byName.has('launch_app'), false);
    assert.equal(tools.some((tool) => tool.name.startsWith('goto_')), false, 'no path learned yet');
  });

  it('answers bad input with an isError result naming the field', async () => {
    const result = (await session.client.callTool({ name: 'wait', arguments: { seconds: 'soon' } })) as CallToolResult;
    assert.equal(result.isError, true);
    const body = textOf(result);
    assert.equal(body.code, 'INVALID_INPUT');
    assert.match(body.observation, /seconds/);
  });

  it('takes a number for a text field as its text, as the Inspector sends `--tool-arg text=7`; a true is still refused', async () => {
    const seven = textOf((await session.client.callTool({ name: 'click', arguments: { text: 7 } })) as CallToolResult);
    assert.notEqual(seven.code, 'INVALID_INPUT', seven.observation);
    assert.doesNotMatch(seven.observation, /expected a string/);
    const yes = textOf((await session.client.callTool({ name: 'click', arguments: { text: true } })) as CallToolResult);
    assert.equal(yes.code, 'INVALID_INPUT');
    assert.match(yes.observation, /text: expected a string, got boolean true/);
  });

  it('a cancelled call ends at once through the runtime, and the server stays usable', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(session.client.callTool({ name: 'wait', arguments: { seconds: 30 } }, undefined, { signal: controller.signal }), /abort/i);
    assert.ok(Date.now() - started < 3_000, 'the client was not kept waiting');
    // The server's runtime saw the cancel: its wait ended well before its 30 s.
    const deadline = Date.now() + 5_000;
    while (!/tool wait CANCELLED/.test(session.stderr()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(session.stderr(), /tool wait CANCELLED: Tool execution cancelled: wait \((\d+\.\d) ms\)/);
    const ms = Number(/tool wait CANCELLED: Tool execution cancelled: wait \((\d+\.\d) ms\)/.exec(session.stderr())?.[1]);
    assert.ok(ms < 2_000, `the wait was cut short (${ms} ms)`);
    const after = (await session.client.callTool({ name: 'wait', arguments: { seconds: 0.05 } })) as CallToolResult;
    assert.equal(after.isError, false);
    assert.match(textOf(after).observation, /Waited 0.05 s/);
  });

  it('a path learned by another process becomes a goto_ tool (list_changed), and goes when forgotten', async () => {
    const { store } = await BrainStore.open(join(home, 'brain'), { writerId: 'other-process' });
    const home0 = nodeFor(homePage());
    const network = nodeFor(networkPage(), undefined, 'Network settings');
    const changed = nextListChanged(session);
    await store.update((draft) => {
      upsertNode(draft, home0);
      upsertNode(draft, network);
      addPath(draft, pathFor({ id: 'p-net', from: home0.key, to: network.key, target: 'Network settings' }));
    });
    await changed;
    const { tools } = await session.client.listTools();
    const tool = tools.find((t) => t.name === 'goto_network_settings');
    assert.ok(tool, tools.map((t) => t.name).join(', '));
    assert.equal(tool.description, 'Replays a learned path to network settings; no model needed.');
    assert.deepEqual(tool.inputSchema.properties, {});
    assert.equal(tool.annotations?.title, 'Go to network settings');

    const brain = await session.client.readResource({ uri: 'gai://brain' });
    const document = JSON.parse((brain.contents[0] as { text: string }).text) as { paths: Array<{ id: string; steps: number }>; tools: Array<{ name: string }> };
    assert.deepEqual(document.paths.map((p) => [p.id, p.steps]), [['p-net', 1]]);
    assert.deepEqual(document.tools.map((t) => t.name), ['goto_network_settings']);

    const input = (await session.client.callTool({ name: 'goto_network_settings', arguments: { target: 'x' } })) as CallToolResult;
    assert.equal(textOf(input).code, 'INVALID_INPUT', 'a path tool takes no input');

    // A long target: a name short enough for the prefix clients put before it (Claude Code's mcp__gai__, 64 in all).
    const target = 'Advanced wireless network connection settings for the office';
    const longer = nextListChanged(session);
    await store.update((draft) => addPath(draft, pathFor({ id: 'p-long', from: network.key, to: home0.key, target })));
    await longer;
    const long = (await session.client.listTools()).tools.find((t) => t.description === `Replays a learned path to ${target.toLowerCase()}; no model needed.`);
    assert.ok(long && long.name.length <= 48 && `mcp__gai__${long.name}`.length <= 64, long?.name);
    assert.match(long.name, /^goto_advanced_wireless_network_connection_[0-9a-f]{6}$/);

    const gone = nextListChanged(session);
    await store.forgetPath('p-net');
    await store.forgetPath('p-long');
    await gone;
    assert.equal((await session.client.listTools()).tools.some((t) => t.name.startsWith('goto_')), false);
  });
  it('a routine recorded in another process becomes a run_ tool with its parameters in the schema; bad values are named; recording without a display says why', async () => {
    const { store } = await BrainStore.open(join(home, 'brain'), { writerId: 'other-process' });
    const changed = nextListChanged(session);
    await store.update((draft, context) => {
      const anchors = { window: { app: 'Mousepad', title: 'notes' }, landmarks: [] };
      addRoutine(draft, { name: 'Replace words', steps: [{ id: 's1', kind: 'key', key: 'r', modifiers: ['ctrl'], anchors }, { id: 's2', kind: 'type', text: 'cat', anchors }] }, context.now);
      editRoutine(draft, 'replace-words', { kind: 'parameter', name: 'find', value: 'cat', description: 'the word to find' }, context.now);
    });
    await changed;
    const { tools } = await session.client.listTools();
    const tool = tools.find((t) => t.name === 'run_replace_words');
    assert.ok(tool, tools.map((t) => t.name).join(', '));
    assert.deepEqual(tool.inputSchema, { type: 'object', properties: { find: { type: 'string', description: 'the word to find' } }, additionalProperties: false });
    assert.match(tool.description ?? '', /^Runs the routine "Replace words" the person recorded \(2 steps\) without a model/);
    assert.ok(tools.some((t) => t.name === 'start_recording') && tools.some((t) => t.name === 'stop_recording'));
    const bad = textOf((await session.client.callTool({ name: 'run_replace_words', arguments: { colour: 'red' } })) as CallToolResult);
    assert.deepEqual([bad.success, bad.code], [false, 'INVALID_INPUT']);
    assert.match(bad.observation, /params\.colour: "Replace words" has no such parameter \(it has find\)/);
    const record = textOf((await session.client.callTool({ name: 'start_recording', arguments: { name: 'Anything' } })) as CallToolResult);
    assert.deepEqual([record.success, record.code], [false, 'UNAVAILABLE']);
    assert.match(record.observation, /^start_recording did not run: Recording could not start: .*DISPLAY/);
    assert.doesNotMatch(record.observation, /Traceback|Xlib\.error|at .*\.ts:/);
    const stop = textOf((await session.client.callTool({ name: 'stop_recording', arguments: {} })) as CallToolResult);
    assert.match(stop.observation, /No recording is under way/);
  });
});

describe('gai mcp policy (read-only profile, real MCP SDK client)', function () {
  this.timeout(60_000);

  it('a click outside the profile fails with DENIED, says why and what to change; it is not listed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gai-mcp-ro-'));
    const session = await connectStdio(SOURCE_MCP_SERVER, ['--profile', 'read-only'], serverEnv(home));
    try {
      const { tools } = await session.client.listTools();
      assert.equal(tools.some((t) => t.name === 'click'), false);
      assert.equal(tools.every((t) => t.annotations?.readOnlyHint === true), true, 'only read tools are offered');
      const result = (await session.client.callTool({ name: 'click', arguments: { text: 'Save' } })) as CallToolResult;
      assert.equal(result.isError, true);
      const body = textOf(result);
      assert.equal(body.code, 'DENIED');
      assert.match(body.observation, /click did NOT run: click \(risk "action"\) is not allowed by the "read-only" tool profile/);
      assert.match(body.hint ?? '', /--profile full/);
    } finally {
      await session.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('gai mcp over Streamable HTTP (real MCP SDK client)', function () {
  this.timeout(60_000);
  let home: string;
  let server: HttpServer;

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'gai-mcp-http-'));
    mkdirSync(join(home, 'config', 'gai'), { recursive: true });
    writeFileSync(join(home, 'config', 'gai', 'config.json'), JSON.stringify({ tools: { profile: 'read-only' } }));
    server = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), join(home, 'token'));
  });
  after(async () => {
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only and keeps the token in a file only its owner reads', () => {
    assert.equal(server.url.hostname, '127.0.0.1');
    assert.equal(server.url.pathname, '/mcp');
    assert.equal(statSync(join(home, 'token')).mode & 0o777, 0o600);
    assert.match(server.stderr(), /bearer token in \S+token \(new, kept across restarts; --new-token makes a new one\)/);
    assert.doesNotMatch(server.stderr(), new RegExp(server.token), 'the token is not printed when it goes to a file');
  });

  it('refuses requests without the token or with a wrong one (401)', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });
    const none = await post({});
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="gai"');
    assert.equal((await post({ Authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await post({ Authorization: `Bearer ${server.token}x` })).status, 401);
    await assert.rejects(server.connect('wrong-token'), /missing or wrong bearer token/);
    const right = await post({ Authorization: `Bearer ${server.token}` });
    assert.equal(right.status, 200);
    await right.body?.cancel();
  });

  it('with the token: lists the tools, runs one, and the config file profile holds (click DENIED)', async () => {
    const client = await server.connect();
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'ocr'));
    assert.equal(tools.some((t) => t.name === 'click'), false, 'tools.profile read-only from the config file');
    const waited = (await client.callTool({ name: 'wait', arguments: { seconds: 0.05 } })) as CallToolResult;
    assert.equal(waited.isError, false);
    const denied = (await client.callTool({ name: 'click', arguments: { text: 'OK' } })) as CallToolResult;
    assert.equal(textOf(denied).code, 'DENIED');
    // Cancel over HTTP too; the session stays usable.
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await assert.rejects(client.callTool({ name: 'wait', arguments: { seconds: 30 } }, undefined, { signal: controller.signal }));
    assert.ok(Date.now() - started < 3_000);
    assert.equal(((await client.callTool({ name: 'wait', arguments: { seconds: 0.05 } })) as CallToolResult).isError, false);
  });
});

describe('gai mcp from the CLI', function () {
  this.timeout(60_000);
  let home: string;
  before(() => (home = mkdtempSync(join(tmpdir(), 'gai-mcp-cli-'))));
  after(() => rmSync(home, { recursive: true, force: true }));

  it('`gai mcp` (src/cli/main.ts) serves the same tools as dist/mcpServer.js', async () => {
    const session = await connectStdio(join(__dirname, '..', '..', 'src', 'cli', 'main.ts'), ['mcp', '--profile', 'read-only'], serverEnv(home));
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('ocr') && names.includes('get_current_node'));
      assert.equal(names.includes('click'), false);
    } finally {
      await session.close();
    }
  });

  it('refuses bad flags naming them (exit 2)', async () => {
    const env = serverEnv(home);
    const port = await runCliCaptured(['mcp', '--http', 'eighty'], env);
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--http: expected a port number from 0 to 65535, got "eighty"/);
    const host = await runCliCaptured(['mcp', '--host', '0.0.0.0'], env);
    assert.equal(host.code, 2);
    assert.match(host.stderr, /--host: only with --http PORT/);
    const profile = await runCliCaptured(['mcp', '--profile', 'everything'], env);
    assert.equal(profile.code, 2);
    assert.match(profile.stderr, /--profile: expected one of read-only, standard, full, got "everything"/);
  });

  it('--host other than loopback listens there only when asked, with a warning', async () => {
    const server = await startHttp(SOURCE_MCP_SERVER, ['--host', '0.0.0.0'], serverEnv(home), join(home, 'token'));
    try {
      assert.equal(server.url.hostname, '0.0.0.0');
      assert.match(server.stderr(), /\[warn\] gai mcp: listening on 0\.0\.0\.0: other machines that reach it can drive this desktop with the token/);
    } finally {
      await server.stop();
    }
  });
});
