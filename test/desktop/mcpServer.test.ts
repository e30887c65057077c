// `gai mcp` (the built dist/mcpServer.js) on the suite display with the pages app, driven by the
// real MCP SDK client over stdio and Streamable HTTP; learning goes through the real Anthropic
// SDK to a scripted Messages API server that counts requests.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ElicitRequestSchema, ToolListChangedNotificationSchema, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { startPagesApp, type PagesApp } from '../support/pagesFixture';
import { BUILT_MCP_SERVER, connectStdio, startHttp, type StdioSession } from '../support/mcpServerProcess';
import { suiteDisplay } from './support/fixture';
import { runBuiltCli } from './support/builtCli';

const display = suiteDisplay();

interface Body {
  success: boolean;
  code?: string;
  observation: string;
  data?: Record<string, unknown>;
}

function bodyOf(result: CallToolResult): Body {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return JSON.parse((first as { text: string }).text) as Body;
}

function homeWith(prefix: string, config: Record<string, unknown>): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(home, 'config', 'gai'), { recursive: true });
  writeFileSync(join(home, 'config', 'gai', 'config.json'), JSON.stringify(config));
  return home;
}

function envFor(home: string, model: ScriptedMessagesServer): NodeJS.ProcessEnv {
  return { ...display.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: 'test-key' };
}

describe('gai mcp on the suite display (real MCP SDK client, pages app)', function () {
  this.timeout(120_000);
  let model: ScriptedMessagesServer;
  let app: PagesApp;
  let home: string;
  let session: StdioSession;
  const call = async (name: string, input: Record<string, unknown> = {}): Promise<CallToolResult> => (await session.client.callTool({ name, arguments: input })) as CallToolResult;

  before(async () => {
    if (!existsSync(BUILT_MCP_SERVER)) throw new Error('dist/mcpServer.js is missing: the test runner builds it before the suites');
    model = await ScriptedMessagesServer.start();
    app = await startPagesApp(display);
    // An MCP client approves for itself; acting still needs the app on the allow list.
    home = homeWith('gai-mcp-desk-', { apps: { allow: ['GaiPages'] } });
    session = await connectStdio(BUILT_MCP_SERVER, [], envFor(home, model));
  });
  after(async () => {
    await session?.close();
    await app?.stop();
    await model?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('ocr reads the fixture, screen_capture and zoom return MCP images, gai://screen/text is the screen text', async () => {
    const ocr = await call('ocr', { captureScreen: true });
    assert.equal(ocr.isError, false, JSON.stringify(ocr));
    const lines = (bodyOf(ocr).data?.elements as Array<{ text: string }>).map((e) => e.text).join('\n');
    assert.match(lines, /Settings/);
    assert.match(lines, /Documents/);

    const capture = await call('screen_capture', { format: 'png' });
    assert.equal(capture.isError, false);
    const image = capture.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    assert.ok(image, 'an image content block');
    assert.equal(image.mimeType, 'image/png');
    assert.equal(Buffer.from(image.data, 'base64').subarray(1, 4).toString(), 'PNG');

    const zoom = await call('zoom', { region: { x: 0, y: 0, width: 200, height: 100 } });
    assert.equal(zoom.isError, false, JSON.stringify(zoom));
    const close = zoom.content.find((c) => c.type === 'image') as { data: string; mimeType: string } | undefined;
    assert.ok(close, 'zoom answers with an image too');
    assert.match(close.mimeType, /^image\/(png|jpeg)$/);
    const pixels = Buffer.from(close.data, 'base64');
    if (close.mimeType === 'image/png') assert.equal(pixels.readUInt32BE(16), 200, 'the region at full resolution');

    const text = await session.client.readResource({ uri: 'gai://screen/text' });
    assert.equal(text.contents[0]?.mimeType, 'text/plain');
    assert.match((text.contents[0] as { text: string }).text, /Settings/);
  });

  it('click by text lands on the fixture', async () => {
    const click = await call('click', { text: 'Settings' });
    assert.equal(click.isError, false, JSON.stringify(click));
    await app.waitForPage('settings');
    await app.control('goto home');
  });

  it('a path learned through navigate_to becomes goto_network_settings (list_changed) and replays with zero model requests', async () => {
    const changed = new Promise<void>((done) => session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => done()));
    model.push(
      toolReply([{ name: 'click', input: { text: 'Settings' } }]),
      toolReply([{ name: 'click', input: { text: 'Network' } }]),
      toolReply([{ name: 'finish_navigation', input: { success: true, summary: 'Network settings shown' } }]),
    );
    const learned = await call('navigate_to', { target: 'Network settings' });
    assert.equal(learned.isError, false, JSON.stringify(learned));
    assert.equal(bodyOf(learned).data?.how, 'learned');
    assert.equal(model.requestCount, 3);
    assert.equal(app.page(), 'network');
    await changed;

    const { tools } = await session.client.listTools();
    const goto = tools.find((t) => t.name === 'goto_network_settings');
    assert.ok(goto, tools.map((t) => t.name).join(', '));
    assert.equal(goto.description, 'Replays a learned path to network settings; no model needed.');

    await app.control('goto home');
    const replayed = await call('goto_network_settings');
    assert.equal(replayed.isError, false, JSON.stringify(replayed));
    const report = bodyOf(replayed).data as { how: string; modelCalls: number; steps: number };
    assert.equal(report.how, 'replayed');
    assert.equal(report.modelCalls, 0);
    assert.equal(report.steps, 2);
    assert.equal(model.requestCount, 3, 'no request reached the model server');
    await app.waitForPage('network');
    await app.control('goto home');
  });

  it('over HTTP with the token: ocr and click work; an app off the allow list is DENIED and says why', async () => {
    const allowed = await startHttp(BUILT_MCP_SERVER, [], envFor(home, model), join(home, 'token'));
    try {
      const client = await allowed.connect();
      const ocr = (await client.callTool({ name: 'ocr', arguments: { captureScreen: true } })) as CallToolResult;
      assert.match(JSON.stringify(bodyOf(ocr).data), /Documents/);
      const click = (await client.callTool({ name: 'click', arguments: { text: 'Documents' } })) as CallToolResult;
      assert.equal(click.isError, false, JSON.stringify(click));
      await app.waitForPage('documents');
      await app.control('goto home');
    } finally {
      await allowed.stop();
    }

    const strangerHome = homeWith('gai-mcp-desk-deny-', {});
    const refused = await startHttp(BUILT_MCP_SERVER, [], envFor(strangerHome, model), join(strangerHome, 'token'));
    try {
      const client = await refused.connect();
      const click = (await client.callTool({ name: 'click', arguments: { text: 'Settings' } })) as CallToolResult;
      assert.equal(click.isError, true);
      const body = bodyOf(click);
      assert.equal(body.code, 'DENIED');
      // The client cannot ask (no elicitation): the refusal names the command that allows the app.
      assert.match(body.observation, /click did NOT run: GAI may not act in GaiPages: the MCP client \(gai-test-http\) cannot ask the person/);
      assert.match(body.observation, /run: gai apps allow gaipages \(kept in .*app-permissions\.json\), or add it to apps\.allow in the config file .*config\.json/);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(app.page(), 'home', 'nothing was clicked');
    } finally {
      await refused.stop();
      rmSync(strangerHome, { recursive: true, force: true });
    }
  });

  it('a client that can ask (elicitation) gets "Allow GAI to act in GaiPages?"; "always" clicks, is kept, and is not asked again', async () => {
    const askingHome = homeWith('gai-mcp-desk-ask-', {});
    const asking = await connectStdio(BUILT_MCP_SERVER, [], envFor(askingHome, model), { capabilities: { elicitation: {} } });
    const asked: ElicitRequest['params'][] = [];
    asking.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { decision: 'always' } };
    });
    try {
      const click = (await asking.client.callTool({ name: 'click', arguments: { text: 'Settings' } })) as CallToolResult;
      assert.equal(click.isError, false, JSON.stringify(click));
      await app.waitForPage('settings');
      assert.equal(asked.length, 1);
      assert.match(asked[0]!.message, /GAI wants to click \{"text":"Settings".*\} in GaiPages \(window ".*"\)\. Allow GAI to act in GaiPages\?/);

      const back = (await asking.client.callTool({ name: 'click', arguments: { text: 'Back' } })) as CallToolResult;
      assert.equal(back.isError, false, JSON.stringify(back));
      await app.waitForPage('home');
      assert.equal(asked.length, 1, 'the kept "always" answered the second click');

      const list = await runBuiltCli(['apps', 'list', '--json'], envFor(askingHome, model));
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual((JSON.parse(list.stdout) as { apps: unknown[] }).apps, [{ app: 'gaipages', decision: 'always' }]);
    } finally {
      await asking.close();
      await app.control('goto home');
      rmSync(askingHome, { recursive: true, force: true });
    }
  });
});
