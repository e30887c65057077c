// One assembly for every front (issue 18): each front's way of asking for a runtime gets the same
// guards in the same order from src/app, and an action in an application the person denied is
// refused through every one of them: the CLI's agent (`gai ask`, `gai tool`), `gai mcp`'s, a
// navigation's (replayed and learned steps run under the host's rules), the extension's agent
// and the @gai chat agent's. The stacks are the real ones; only the desktop is a fake (its
// active window is the edge), and the models are the real SDK over HTTP, or VS Code's API look-alike.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { LanguageModelChat } from 'vscode';
import type { CliIo } from '../../src/common/cliIo';
import { NullLogger } from '../../src/common/logger';
import { SecretRedactor } from '../../src/common/redact';
import type { ToolRuntime } from '../../src/runtime/toolRuntime';
import { MemoryAppPermissionStore } from '../../src/safety/appPermissionStore';
import { CliStack } from '../../src/cli/cliStack';
import type { ConfigFile } from '../../src/cli/cliConfig';
import { buildGaiParts, type GaiParts } from '../../src/vscode/gaiParts';
import { specOfLmTool } from '../../src/vscode/lm/lmToolsCatalog';
import { LmToolsRunner } from '../../src/vscode/lm/lmToolsRunner';
import { parseSettings } from '../../src/vscode/settings';
import { createFakeDesktop, ocrWords, window, type FakeDesktop } from '../support/fakeDesktop';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply } from '../support/scriptedSteps';
import { Type } from '@sinclair/typebox';
import type { DesktopServices } from '../../src/desktop/desktopServices';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';
import type { ToolResult } from '../../src/tools/toolTypes';
import { FakeChatModel, fakeHost, TextPart, ToolCallPart } from '../vscodeGlue/lmFakes';

const GUARDS = ['safety', 'app-permissions'];
const CLICK = { x: 120, y: 50 };

/** A desktop whose active window is gedit, the app the settings deny. */
function geditDesktop(): FakeDesktop {
  return createFakeDesktop({ window: window('gedit'), analysis: ocrWords([{ text: 'Save', x: 100, y: 40, w: 60, h: 20 }, { text: 'Settings', x: 300, y: 40, w: 90, h: 20 }]) });
}

function quietIo(env: Record<string, string | undefined>): CliIo {
  return { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), interactive: false, env };
}

const signal = (): AbortSignal => new AbortController().signal;

/** A tool whose keys land elsewhere than where it started: the focus moves to gedit before it types. */
class FocusMovesTool extends ToolBase<ReturnType<typeof Type.Object>> {
  readonly name = 'focus_moves';
  readonly description = 'Presses Enter after the focus moved.';
  readonly inputSchema = Type.Object({});
  readonly risk = 'action' as const;
  constructor(
    private readonly services: DesktopServices,
    private readonly fake: FakeDesktop,
  ) {
    super();
  }
  async execute(): Promise<ToolResult> {
    this.fake.windows.active = window('gedit');
    await this.services.desktop.input.pressKey({ modifiers: [], key: 'enter' });
    return ToolResults.success('pressed');
  }
}

function assertRefusedInGedit(result: { success: boolean; code?: string; observation: string }, setting: string, fake: FakeDesktop, way: string): void {
  assert.equal(result.success, false, `${way}: the click was refused`);
  assert.equal(result.code, 'DENIED', way);
  assert.match(result.observation, new RegExp(`GAI may not act in gedit: it is in ${setting.replace(/\./g, '\\.')}`), way);
  assert.equal(fake.input.calls.length, 0, `${way}: nothing reached the desktop`);
}

describe('one assembly for every front: the same guards, an app the person denied refused through each', function () {
  this.timeout(30_000);
  let server: ScriptedMessagesServer;
  let dir: string;
  beforeEach(async () => {
    server = await ScriptedMessagesServer.start();
    dir = mkdtempSync(join(tmpdir(), 'gai-assembly-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('the CLI', () => {
    let fake: FakeDesktop;
    let cli: CliStack;
    beforeEach(() => {
      fake = geditDesktop();
      const file: ConfigFile = {
        llm: { provider: 'anthropic', baseUrl: server.baseUrl, apiKey: 'test', model: 'scripted', computerUse: 'gai-tools' },
        apps: { allow: ['mousepad'], deny: ['gedit'] },
        // No stop hotkey or takeover watch: a unit test starts no helper on any display.
        safety: { stopHotkey: 'off', failSafeCorner: false, pauseOnTakeover: false },
      };
      const env = { GAI_BRAIN_DIR: join(dir, 'brain'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir };
      cli = new CliStack({ io: quietIo(env), file, redactor: new SecretRedactor(), logger: new NullLogger(), warm: 'cold', platform: () => fake });
    });
    afterEach(() => cli.dispose());

    it('gai tool and gai mcp: safety, then app permissions; the click in gedit is DENIED naming the config field', async () => {
      const ways: Array<[string, ToolRuntime]> = [
        ['gai tool --yes', cli.runtime({ profile: 'full', yes: true }).runtime],
        ['gai tool (no terminal)', cli.runtime({ profile: 'full' }).runtime],
        ['gai mcp', cli.mcpRuntime('full').runtime],
      ];
      for (const [way, runtime] of ways) {
        assert.deepEqual(runtime.guards.map((g) => g.name), GUARDS, way);
        assert.equal(runtime.guards[0], cli.stack.safety, `${way}: the stack's one safety monitor`);
      }
      const [yes, , mcp] = ways;
      assertRefusedInGedit((await yes![1].executeWithRecovery({ id: 'c1', name: 'click', input: CLICK }, signal())).result, 'apps.deny in the config file', fake, 'gai tool --yes');
      assertRefusedInGedit((await mcp![1].executeWithRecovery({ id: 'c2', name: 'click', input: CLICK }, signal())).result, 'apps.deny in the config file', fake, 'gai mcp');
    });

    it('gai mcp asks about an app nobody decided through its client, and a dismissed question refuses', async () => {
      fake.windows.active = window('galculator');
      const asked: string[] = [];
      const { runtime } = cli.mcpRuntime('full', async (request) => {
        asked.push(request.app);
        return undefined;
      });
      const { result } = await runtime.executeWithRecovery({ id: 'c3', name: 'click', input: CLICK }, signal());
      assert.deepEqual(asked, ['galculator']);
      assert.equal(result.code, 'DENIED');
      assert.equal(fake.input.calls.length, 0);
    });

    it('input that reaches another app in the middle of a call is refused at the assembled input port', async () => {
      fake.windows.active = window('mousepad');
      const { runtime } = cli.runtime({ profile: 'full', yes: true });
      runtime.registry.register(new FocusMovesTool(cli.stack.desktop, fake));
      const { result } = await runtime.executeWithRecovery({ id: 'c4', name: 'focus_moves', input: {} }, signal());
      assert.equal(result.code, 'DENIED', result.observation);
      assert.match(result.observation, /GAI may not act in gedit/);
      assert.equal(fake.input.calls.length, 0, 'the key never reached the desktop');
    });

    it('gai ask: the agent runs on a guarded runtime; the model\'s click in gedit comes back DENIED to the model', async () => {
      const agent = cli.agent({}, { yes: true, profile: 'full' });
      assert.deepEqual(agent.runtime.guards.map((g) => g.name), GUARDS);
      server.push(toolReply([{ name: 'click', input: CLICK }]), textReply('I may not act there.'));
      const response = await agent.processRequest('Click Save');
      assert.equal(response.toolCalls[0]?.result.code, 'DENIED');
      assert.match(JSON.stringify(server.requests[1]?.body), /GAI may not act in gedit: it is in apps\.deny in the config file/);
      assert.equal(fake.input.calls.length, 0);
    });

    it('gai navigate: a learned step in gedit is refused by the host runtime\'s guards, and nothing is learned', async () => {
      const brain = await cli.openBrain(undefined, {}, { yes: true, profile: 'full' });
      server.push(toolReply([{ name: 'click', input: { text: 'Settings' } }]), toolReply([{ name: 'finish_navigation', input: { success: false, summary: 'not allowed there' } }]));
      const report = await brain.navigateTo('Settings page', { signal: signal() });
      assert.equal(report.success, false, report.message);
      assert.equal(report.steps, 0, 'the refused step is not part of any path');
      assert.match(JSON.stringify(server.requests[1]?.body), /GAI may not act in gedit: it is in apps\.deny in the config file/);
      assert.equal(fake.input.calls.length, 0);
    });

    it('gai click (the person\'s own command) keeps its rules: no guard, it acts where the person is', async () => {
      const { runtime } = cli.personRuntime();
      assert.deepEqual(runtime.guards, []);
      const { result } = await runtime.executeWithRecovery({ id: 'p1', name: 'click', input: CLICK }, signal());
      assert.equal(result.success, true, result.observation);
      assert.ok(fake.input.calls.length > 0);
    });
  });

  describe('the extension', () => {
    let fake: FakeDesktop;
    let parts: GaiParts;
    let chatModel: FakeChatModel;
    beforeEach(() => {
      fake = geditDesktop();
      const values: Record<string, unknown> = {
        provider: 'anthropic',
        baseUrl: server.baseUrl,
        'model.default': 'scripted',
        computerUse: 'gai-tools',
        'apps.deny': ['gedit'],
        'safety.stopHotkey': 'off',
        'safety.failSafeCorner': false,
        'safety.pauseOnTakeover': false,
      };
      chatModel = new FakeChatModel('chat-1', 'test', [[new ToolCallPart('lm1', 'click', CLICK)], [new TextPart('I may not act there.')]]);
      parts = buildGaiParts({
        settings: parseSettings((key) => values[key]),
        apiKey: 'test',
        env: {},
        logger: new NullLogger(),
        requestApproval: async () => 'approve',
        brainDir: join(dir, 'brain'),
        redactor: new SecretRedactor(),
        appPermissionStore: new MemoryAppPermissionStore(),
        appPrompt: async () => 'once',
        vscodeLm: fakeHost([chatModel]),
        platform: () => fake,
      });
    });
    afterEach(() => parts.dispose());

    it('the agent\'s runtime, the language model tools\' and the @gai chat agent\'s: safety, then app permissions, the same two guards', () => {
      const chat = parts.createChatAgent(chatModel as unknown as LanguageModelChat, async () => 'approve');
      try {
        for (const runtime of [parts.agentRuntime, parts.agent!.runtime, chat.agent.runtime]) {
          assert.deepEqual(runtime.guards.map((g) => g.name), GUARDS);
          assert.equal(runtime.guards[0], parts.safety);
        }
        assert.equal(chat.agent.runtime.guards[1], parts.agentRuntime.guards[1], 'one app guard: "this conversation" answers hold in both chats');
        assert.deepEqual(parts.commandRuntime.guards, [], 'Read Screen and Click Text keep their rules: the command is the approval');
      } finally {
        chat.release();
      }
    });

    it('the chat agent: the model\'s click in gedit comes back DENIED naming gai.apps.deny', async () => {
      server.push(toolReply([{ name: 'click', input: CLICK }]), textReply('I may not act there.'));
      const response = await parts.agent!.processRequest('Click Save');
      assert.equal(response.toolCalls[0]?.result.code, 'DENIED');
      assert.match(JSON.stringify(server.requests[1]?.body), /GAI may not act in gedit: it is in gai\.apps\.deny/);
      assert.equal(fake.input.calls.length, 0);
    });

    it('a language model tool VS Code confirmed (no GAI prompt) is still refused in gedit', async () => {
      const spec = specOfLmTool('gai_click');
      assert.ok(spec);
      const runner = new LmToolsRunner({ parts: () => Promise.resolve(parts), log: () => {} });
      assertRefusedInGedit(await runner.run(spec, CLICK, signal()), 'gai.apps.deny', fake, 'gai_click');
    });

    it('the @gai chat agent on a VS Code chat model: its click in gedit is DENIED too', async () => {
      const { agent, release } = parts.createChatAgent(chatModel as unknown as LanguageModelChat, async () => 'approve');
      try {
        const response = await agent.processRequest('Click Save');
        assertRefusedInGedit(response.toolCalls[0]!.result, 'gai.apps.deny', fake, '@gai');
      } finally {
        release();
      }
    });

    it('Navigate To: a learned step in gedit is refused under the agent runtime\'s rules', async () => {
      const brain = await parts.brain();
      server.push(toolReply([{ name: 'click', input: { text: 'Settings' } }]), toolReply([{ name: 'finish_navigation', input: { success: false, summary: 'not allowed there' } }]));
      const report = await brain.navigateTo('Settings page', { signal: signal() });
      assert.equal(report.success, false, report.message);
      assert.match(JSON.stringify(server.requests[1]?.body), /GAI may not act in gedit: it is in gai\.apps\.deny/);
      assert.equal(fake.input.calls.length, 0);
    });
  });
});
