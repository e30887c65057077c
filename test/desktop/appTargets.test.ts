// The per-app permission is decided for the window an action lands in (issue 18): galculator is
// allowed and active, the fixture (not allowed) is beside it. Clicks and keys toward the fixture
// are DENIED naming it and never reach it (its own log says so); clicks in galculator work. Run
// in process over the runtime `gai mcp` builds (approvals by the client, the app guard and the
// guarded input port), through the built `gai mcp` with a real MCP SDK client, and through the
// agent of the built `gai ask`.
import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { InputPermissionScope, withGuardedInput } from '../../src/desktop/input/guardedInput';
import { AppPermissionGuard, type AppPermissionRequest } from '../../src/safety/appPermissions';
import { JsonFileAppPermissionStore } from '../../src/safety/appPermissionStore';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ComputerDisplay, toImagePoint } from '../../src/tools/desktop/computer/computerDisplay';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';
import type { ToolResult } from '../../src/tools/toolTypes';
import { toolInput } from '../../src/common/schema';
import { ToolRuntime, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { buildApprovalView } from '../../src/vscode/chat/approvalView';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply } from '../support/scriptedSteps';
import { BUILT_MCP_SERVER, connectStdio } from '../support/mcpServerProcess';
import { suiteDisplay } from './support/fixture';
import { galculatorInstalled, startTwoApps, type TwoApps } from './support/twoApps';
import { placeWindow } from './support/realApps/appWindow';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';

const display = suiteDisplay();
const CLI = resolve(__dirname, '../../dist/cli.js');
let counter = 0;

const blindSchema = toolInput({ x: Type.Number(), y: Type.Number() });

/** A tool that cannot say where it acts (no locateTarget): only the input port stands in its way. */
class BlindClickTool extends ToolBase<typeof blindSchema> {
  readonly name = 'blind_click';
  readonly description = 'Clicks a point without saying so first.';
  readonly inputSchema = blindSchema;
  readonly risk = 'action' as const;
  constructor(private readonly services: DesktopServices) {
    super();
  }
  async execute(input: Static<typeof blindSchema>): Promise<ToolResult> {
    await this.services.desktop.input.click(input, 'left', 1);
    return ToolResults.success(`Clicked at (${input.x}, ${input.y}).`);
  }
}

function skipWithoutGalculator(context: Mocha.Context): void {
  if (!galculatorInstalled(display.env)) {
    context.test!.parent!.title += ' (skipped: galculator is not installed; apt-get install galculator)';
    context.skip();
  }
}

async function settle(): Promise<void> {
  // A click that did go out is logged by the fixture well within this.
  await new Promise((r) => setTimeout(r, 400));
}

describe('app permission where the action lands (runtime as gai mcp builds it, galculator allowed)', function () {
  this.timeout(90_000);
  let apps: TwoApps;
  let services: DesktopServices;
  let scope: InputPermissionScope;
  let registry: ToolRegistry;
  let computer: ComputerDisplay;
  let dir: string;

  /** The app guard as the CLI builds it for `gai mcp` (no prompt) or with a person to ask. */
  function runtime(options: { allow?: string[]; ask?: AppPermissionRequest[]; approvals?: ApprovalRequest[]; answer?: 'approve' | 'deny' } = {}): ToolRuntime {
    const guard = new AppPermissionGuard({
      windows: services.desktop.windows,
      store: new JsonFileAppPermissionStore(join(dir, 'app-permissions.json')),
      ...(options.ask ? { prompt: (request: AppPermissionRequest) => (options.ask!.push(request), Promise.resolve(undefined)) } : {}),
      allow: options.allow ?? ['galculator'],
      settingNames: { allow: 'apps.allow in the config file', deny: 'apps.deny in the config file' },
      inputScope: scope,
    });
    const approvals = options.approvals;
    return new ToolRuntime(registry, {
      autoApprove: approvals ? ['read'] : ['read', 'action', 'system'],
      ...(approvals ? { requestApproval: (request: ApprovalRequest) => (approvals.push(request), Promise.resolve(options.answer ?? 'approve')) } : {}),
      guards: [guard],
    });
  }

  async function run(on: ToolRuntime, name: string, input: unknown): Promise<ToolResult> {
    return (await on.executeWithRecovery({ id: `a${++counter}`, name, input }, new AbortController().signal)).result;
  }

  before(async function () {
    skipWithoutGalculator(this);
    scope = new InputPermissionScope();
    services = createDesktopServices(withGuardedInput(createPlatformDesktop({ env: display.env }), scope));
    computer = new ComputerDisplay(services.desktop.screen);
    registry = new ToolRegistry();
    for (const tool of createDesktopTools(services, { computerDisplay: computer })) registry.register(tool);
    registry.register(new BlindClickTool(services));
    apps = await startTwoApps(display);
  });
  after(async () => {
    await apps?.close();
    await services?.desktop.ocr.dispose();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gai-targets-'));
    await apps.activateCalculator();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('click by text on a label in the fixture is DENIED naming the fixture; nothing is clicked', async () => {
    assert.equal(apps.activeClass(), 'Galculator');
    const result = await run(runtime(), 'click', { text: 'Apply' });
    assert.equal(result.code, 'DENIED', JSON.stringify(result));
    assert.match(result.observation, /click did NOT run: GAI may not act in GaiFixture: no one could be asked/);
    await settle();
    assert.equal(apps.clicks(), 0, 'the fixture got no click');
  });

  it('click by point, double and right click, drag into it, scroll over it, the computer tool: all DENIED naming the fixture', async () => {
    const on = runtime();
    const apply = apps.centre('apply_button');
    const inCalculator = { x: apps.calculator.x + 40, y: apps.calculator.y + 200 };
    const geometry = await computer.geometry();
    const shot = toImagePoint(apply, geometry);
    const calls: Array<[string, unknown]> = [
      ['click', apply],
      ['click', { ...apply, clicks: 2 }],
      ['click', { ...apply, button: 'right' }],
      ['drag', { from: inCalculator, to: apply }],
      ['scroll', { direction: 'down', x: apply.x, y: apply.y }],
      ['mouse_move', { to: apply }],
      ['computer', { action: 'left_click', coordinate: [shot.x, shot.y] }],
      ['computer', { action: 'left_click_drag', start_coordinate: [shot.x, shot.y], coordinate: [shot.x + 5, shot.y] }],
    ];
    for (const [name, input] of calls) {
      const result = await run(on, name, input);
      assert.equal(result.code, 'DENIED', `${name} ${JSON.stringify(input)}: ${JSON.stringify(result)}`);
      assert.match(result.observation, /GAI may not act in GaiFixture/, name);
    }
    await settle();
    assert.equal(apps.clicks(), 0, 'the fixture got no click');
    assert.deepEqual(apps.fixture.events().filter((e) => e.event === 'scroll'), [], 'nor a scroll');
  });

  it('a tool that does not say where it acts is stopped at the input port, naming the fixture', async () => {
    const result = await run(runtime(), 'blind_click', apps.centre('cancel_button'));
    assert.equal(result.code, 'DENIED', JSON.stringify(result));
    assert.match(result.observation, /blind_click did NOT run: GAI may not act in GaiFixture: the input would have reached it/);
    await settle();
    assert.equal(apps.clicks(), 0);
  });

  it('typing or pressing keys while the fixture has the focus is refused; no key arrives', async () => {
    await apps.activateFixture();
    const on = runtime();
    for (const [name, input] of [['type_text', { text: 'abc' }], ['press_key', { key: 'enter' }], ['computer', { action: 'type', text: 'abc' }]] as const) {
      const result = await run(on, name, input);
      assert.equal(result.code, 'DENIED', `${name}: ${JSON.stringify(result)}`);
      assert.match(result.observation, /GAI may not act in GaiFixture/);
    }
    await settle();
    assert.equal(apps.keys(), 0, 'the fixture got no key');
  });

  it('a click that lands in galculator works (its display shows the digit)', async () => {
    const result = await run(runtime(), 'click', { text: '7' });
    assert.equal(result.success, true, JSON.stringify(result));
    const point = (result.data as { point: { x: number; y: number } }).point;
    const { x, y, width, height } = apps.calculator;
    assert.ok(point.x >= x && point.x < x + width && point.y >= y && point.y < y + height, `clicked at ${JSON.stringify(point)}, in galculator ${JSON.stringify(apps.calculator)}`);
    const tree = services.desktop.accessibility;
    if (tree && (await tree.available())) {
      const deadline = Date.now() + 5_000;
      let shown = '';
      while (Date.now() < deadline && shown !== '7') {
        shown = (await tree.elements({ fresh: true })).find((e) => e.role === 'text' && e.text)?.text?.trim() ?? '';
        if (shown !== '7') await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(shown, '7', 'galculator got the click');
    }
    assert.equal(apps.clicks(), 0);
  });

  it('the approval names the app under the point, not the active one, and asks about it in the same question', async () => {
    const approvals: ApprovalRequest[] = [];
    const asked: AppPermissionRequest[] = [];
    const result = await run(runtime({ allow: [], ask: asked, approvals, answer: 'deny' }), 'click', apps.centre('apply_button'));
    assert.equal(result.code, 'DENIED', JSON.stringify(result));
    assert.equal(approvals.length, 1);
    assert.match(approvals[0]!.summary, /^click \{.*\} in GaiFixture \(window "GAI Fixture"\)$/);
    assert.equal(approvals[0]!.target?.windows[0]?.appName, 'GaiFixture');
    assert.deepEqual(approvals[0]!.app, { name: 'GaiFixture', key: 'gaifixture', undecided: true });
    const view = await buildApprovalView(approvals[0]!, { desktop: services.desktop, tools: registry, latestReading: () => undefined });
    assert.match(view.text, /^Click at \(\d+, \d+\) in \*GaiFixture\* window \*GAI Fixture\*$/);
    assert.deepEqual(view.app, { name: 'GaiFixture', undecided: true });
    assert.equal(asked.length, 0, 'no second question about the fixture');
    await settle();
    assert.equal(apps.clicks(), 0, 'denied: nothing clicked');
  });

  it("a point on galculator's open menu is galculator's, though the fixture's window lies above galculator's there", async () => {
    // galculator over the fixture, its Edit menu open, then the fixture raised above galculator:
    // the menu (an override-redirect window) stays on top of both, so a click there reaches the menu.
    await placeWindow(apps.calculatorWindow, { x: 200, y: 150, width: 320, height: 400 }, display.env);
    try {
      await apps.activateCalculator();
      const opened = await run(runtime(), 'click', { text: 'Edit' });
      assert.equal(opened.success, true, JSON.stringify(opened));
      const windows = services.desktop.windows;
      let menu: WindowInfo | undefined;
      for (const deadline = Date.now() + 3_000; !menu && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        menu = (await windows.listPopups!()).find((w) => w.appName.toLowerCase() === 'galculator');
      }
      assert.ok(menu, 'the open menu is listed as a galculator popup');
      execFileSync('xdotool', ['windowraise', apps.fixtureWindow], { env: display.env });
      const point = { x: menu.bounds.x + 40, y: menu.bounds.y + Math.round(menu.bounds.height * 0.3) };
      // Without the menu, the point would be judged by the fixture, now the topmost managed window there.
      let beneath: WindowInfo | undefined;
      for (const deadline = Date.now() + 3_000; beneath?.appName !== 'GaiFixture' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        beneath = (await windows.listWindows!()).find((w) => point.x >= w.bounds.x && point.y >= w.bounds.y && point.x < w.bounds.x + w.bounds.width && point.y < w.bounds.y + w.bounds.height);
      }
      assert.equal(beneath?.appName, 'GaiFixture', 'the fixture lies above galculator under the menu');
      const result = await run(runtime(), 'click', point);
      assert.equal(result.success, true, JSON.stringify(result));
      await settle();
      assert.equal(apps.clicks(), 0, 'the click reached the menu, not the fixture');
    } finally {
      execFileSync('xdotool', ['key', 'Escape'], { env: display.env });
      await placeWindow(apps.calculatorWindow, apps.calculator, display.env);
      await apps.activateCalculator();
    }
  });
});

describe('app permission where the action lands, through the built gai mcp and gai ask', function () {
  this.timeout(120_000);
  let apps: TwoApps | undefined;
  let home: string;

  function homeWith(config: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'gai-targets-home-'));
    mkdirSync(join(dir, 'config', 'gai'), { recursive: true });
    writeFileSync(join(dir, 'config', 'gai', 'config.json'), JSON.stringify(config));
    return dir;
  }

  before(function () {
    skipWithoutGalculator(this);
    if (!existsSync(BUILT_MCP_SERVER) || !existsSync(CLI)) throw new Error('dist/ is missing: the test runner builds it before the suites');
  });
  afterEach(async () => {
    await apps?.close();
    apps = undefined;
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('gai mcp: a click on the fixture (by text, by point) is DENIED naming it while galculator is active; a click in galculator works', async () => {
    apps = await startTwoApps(display);
    home = homeWith({ apps: { allow: ['galculator'] } });
    const session = await connectStdio(BUILT_MCP_SERVER, [], { ...display.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') });
    try {
      const call = async (name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: { code?: string; observation: string } }> => {
        const result = (await session.client.callTool({ name, arguments: args })) as CallToolResult;
        const first = result.content[0] as { text: string };
        return { isError: result.isError === true, body: JSON.parse(first.text) as { code?: string; observation: string } };
      };
      for (const args of [{ text: 'Apply' }, apps.centre('cancel_button')]) {
        const denied = await call('click', args);
        assert.equal(denied.isError, true, JSON.stringify(denied));
        assert.equal(denied.body.code, 'DENIED');
        assert.match(denied.body.observation, /GAI may not act in GaiFixture/);
      }
      const inCalculator = await call('click', { x: apps.calculator.x + Math.round(apps.calculator.width / 2), y: apps.calculator.y + Math.round(apps.calculator.height / 2) });
      assert.equal(inCalculator.isError, false, JSON.stringify(inCalculator));
      await settle();
      assert.equal(apps.clicks(), 0, 'the fixture got no click');
    } finally {
      await session.close();
    }
  });

  it('gai ask --yes: the agent clicking a terminal beside the allowed, active galculator is DENIED naming the terminal', async () => {
    // The fixture under a terminal's WM_CLASS: denied by default, whatever --yes grants.
    apps = await startTwoApps(display, { fixtureClass: 'XTerm' });
    home = homeWith({ apps: { allow: ['galculator'] } });
    const server = await ScriptedMessagesServer.start([toolReply([{ name: 'click', input: { text: 'Apply' } }]), textReply('done')]);
    try {
      const env = { ...display.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), ANTHROPIC_BASE_URL: server.baseUrl, ANTHROPIC_API_KEY: 'test-key' };
      await new Promise<void>((done) => execFile(process.execPath, [CLI, 'ask', 'click Apply', '--yes'], { env, timeout: 90_000 }, () => done()));
      assert.equal(server.requests.length, 2, 'the model got the result of its click');
      const results = JSON.stringify(server.requests[1]!.body.messages);
      assert.match(results, /click did NOT run: GAI may not act in XTerm: terminals are denied by default/);
      await settle();
      assert.equal(apps.clicks(), 0, 'the terminal got no click');
    } finally {
      await server.close();
    }
  });
});
