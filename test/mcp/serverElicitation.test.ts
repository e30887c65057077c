// "Allow GAI to act in <app>?" through the MCP client (elicitation/create), issue 18 hole 4:
// GaiMcpServer in process over the SDK's in-memory transport with the real SDK client, the real
// app guard and the CLI's permissions file; only the active window is a fake (no display here).
// test/desktop/mcpServer.test.ts asks the same of the built server on a real window.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { appPermissionsFile } from '../../src/app/gaiFiles';
import { NullLogger } from '../../src/common/logger';
import { GaiMcpServer } from '../../src/mcp/server/server';
import { ElicitationAppPrompt } from '../../src/mcp/server/serverAppPrompt';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { AppPermissionGuard } from '../../src/safety/appPermissions';
import { JsonFileAppPermissionStore } from '../../src/safety/appPermissionStore';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { runCliCaptured } from '../support/cliHarness';
import { FakeWindows, window } from '../support/fakeDesktop';
import { PressTool, type ToolEvent } from '../support/testTools';
import { Type } from '@sinclair/typebox';
import { toolInput } from '../../src/common/schema';
import { ToolBase, type ToolContext } from '../../src/tools/toolBase';
import type { ToolResult } from '../../src/tools/toolTypes';

const stepsSchema = toolInput({ label: Type.String() });

/** Runs a press as a step of its own, through a runtime derived from the host's (as navigate_to's steps do). */
class StepsTool extends ToolBase<typeof stepsSchema> {
  readonly name = 'steps';
  readonly description = 'Presses through a derived runtime.';
  readonly inputSchema = stepsSchema;
  readonly risk = 'read' as const;
  constructor(private readonly inner: () => ToolRuntime) {
    super();
  }
  execute(input: { label: string }, context: ToolContext): Promise<ToolResult> {
    return this.inner().execute({ id: 'step-1', name: 'press', input: { label: input.label } }, context.signal);
  }
}

type Answer = ElicitResult | 'hang';

interface Rig {
  client: Client;
  asked: ElicitRequest['params'][];
  presses: () => string[];
  close(): Promise<void>;
}

describe('gai mcp asks the person through the client whether GAI may act in an app (in-memory transport)', function () {
  this.timeout(20_000);
  let home: string;
  let env: Record<string, string>;
  const windows = new FakeWindows({ ...window('calc — Galculator'), appName: 'Galculator' });

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gai-mcp-ask-'));
    env = { XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  /** A client that answers each question with the next of `answers`; without answers it declares no elicitation. */
  async function connect(answers?: Answer[], timeoutMs = 5_000): Promise<Rig> {
    const log: ToolEvent[] = [];
    const registry = new ToolRegistry();
    registry.register(new PressTool(log));
    registry.register(new StepsTool(() => runtime.derive(registry)));
    const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), autoApprove: ['read', 'action', 'system'] });
    const appPrompt = new ElicitationAppPrompt({ permissionsFile: appPermissionsFile(env), configFile: join(home, 'config', 'gai', 'config.json'), timeoutMs, logger: new NullLogger() });
    runtime.addGuard(
      new AppPermissionGuard({
        windows,
        store: new JsonFileAppPermissionStore(appPermissionsFile(env)),
        prompt: appPrompt.prompt,
        settingNames: { allow: 'apps.allow in the config file', deny: 'apps.deny in the config file' },
      }),
    );
    const server = new GaiMcpServer({ runtime, appPrompt, logger: new NullLogger(), version: '0.0.0-test' });
    await server.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.createSession().connect(serverSide);
    const client = new Client({ name: 'asking-client', version: '1' }, answers ? { capabilities: { elicitation: {} } } : {});
    const asked: ElicitRequest['params'][] = [];
    if (answers) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        const answer = answers.shift() ?? { action: 'cancel' };
        return answer === 'hang' ? new Promise<never>(() => undefined) : answer;
      });
    }
    await client.connect(clientSide);
    return {
      client,
      asked,
      presses: () => log.filter((e) => e.phase === 'start').map((e) => (e.input as { label: string }).label),
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  }

  async function press(rig: Rig, label: string): Promise<{ isError: boolean; code?: string; observation: string }> {
    const result = (await rig.client.callTool({ name: 'press', arguments: { label } })) as CallToolResult;
    const body = JSON.parse((result.content[0] as { text: string }).text) as { code?: string; observation: string };
    return { isError: result.isError === true, ...body };
  }

  async function listed(): Promise<Array<{ app: string; decision: string }>> {
    const run = await runCliCaptured(['apps', 'list', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { apps: Array<{ app: string; decision: string }> }).apps;
  }

  it('asks naming the app and the action; "always" is kept: the next action asks nothing, and gai apps list shows it', async () => {
    const rig = await connect([{ action: 'accept', content: { decision: 'always' } }]);
    try {
      const first = await press(rig, 'A');
      assert.equal(first.isError, false, first.observation);
      assert.equal(rig.asked.length, 1);
      assert.match(rig.asked[0]!.message, /GAI wants to press \{"label":"A"[^}]*\} in Galculator \(window "calc — Galculator"\)\. Allow GAI to act in Galculator\?/);
      const decision = (rig.asked[0] as unknown as { requestedSchema: { properties: { decision: { oneOf: Array<{ const: string }> } } } }).requestedSchema.properties.decision;
      assert.deepEqual(decision.oneOf.map((o) => o.const), ['once', 'always', 'never']);

      const second = await press(rig, 'B');
      assert.equal(second.isError, false);
      assert.equal(rig.asked.length, 1, 'the second action asked nothing');
      assert.deepEqual(rig.presses(), ['A', 'B']);
      assert.deepEqual(await listed(), [{ app: 'galculator', decision: 'always' }]);
    } finally {
      await rig.close();
    }
  });

  it('a step run inside another call (as navigate_to runs its steps) asks the client of that call', async () => {
    const rig = await connect([{ action: 'accept', content: { decision: 'once' } }]);
    try {
      const result = (await rig.client.callTool({ name: 'steps', arguments: { label: 'deep' } })) as CallToolResult;
      assert.equal(result.isError, false, JSON.stringify(result));
      assert.equal(rig.asked.length, 1);
      assert.deepEqual(rig.presses(), ['deep']);
    } finally {
      await rig.close();
    }
  });

  it('"never" denies and is kept; "once" allows this action only', async () => {
    const rig = await connect([{ action: 'accept', content: { decision: 'once' } }, { action: 'accept', content: { decision: 'never' } }]);
    try {
      assert.equal((await press(rig, 'A')).isError, false);
      const refused = await press(rig, 'B');
      assert.equal(refused.code, 'DENIED');
      assert.match(refused.observation, /press did NOT run: GAI may not act in Galculator: the person chose "never"/);
      const again = await press(rig, 'C');
      assert.equal(again.code, 'DENIED');
      assert.equal(rig.asked.length, 2, '"never" was not asked again');
      assert.deepEqual(rig.presses(), ['A']);
      assert.deepEqual(await listed(), [{ app: 'galculator', decision: 'never' }]);
    } finally {
      await rig.close();
    }
  });

  it('decline and cancel deny this action only and keep nothing; the next action asks again', async () => {
    const rig = await connect([{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { decision: 'once' } }]);
    try {
      const declined = await press(rig, 'A');
      assert.equal(declined.code, 'DENIED');
      assert.match(declined.observation, /the person declined \(for this action only; GAI asks again next time\)/);
      assert.match((await press(rig, 'B')).observation, /the person dismissed the question/);
      assert.equal((await press(rig, 'C')).isError, false);
      assert.equal(rig.asked.length, 3);
      assert.deepEqual(rig.presses(), ['C']);
      assert.deepEqual(await listed(), []);
    } finally {
      await rig.close();
    }
  });

  it('a client that does not answer in time: denied, saying so and how to allow the app', async () => {
    const rig = await connect(['hang'], 300);
    try {
      const late = await press(rig, 'A');
      assert.equal(late.code, 'DENIED');
      assert.match(late.observation, /the MCP client did not answer within 0.3 s; to allow it, run: gai apps allow galculator/);
      assert.deepEqual(rig.presses(), []);
    } finally {
      await rig.close();
    }
  });

  it('a client without elicitation: DENIED with the exact gai apps allow command and where the files are; that command allows it', async () => {
    const rig = await connect();
    try {
      const refused = await press(rig, 'A');
      assert.equal(refused.code, 'DENIED');
      assert.match(refused.observation, /the MCP client \(asking-client\) cannot ask the person \(it does not support elicitation\)/);
      assert.ok(refused.observation.includes(`run: gai apps allow galculator (kept in ${appPermissionsFile(env)})`), refused.observation);
      assert.ok(refused.observation.includes(`apps.allow in the config file ${join(home, 'config', 'gai', 'config.json')}`), refused.observation);

      const allowed = await runCliCaptured(['apps', 'allow', 'galculator'], env);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.equal((await press(rig, 'B')).isError, false, 'allowed by the command the message named');
      assert.deepEqual(rig.presses(), ['B']);
    } finally {
      await rig.close();
    }
  });
});
