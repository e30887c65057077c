// GAI's language model tools for VS Code, without VS Code: what prepareInvocation asks the person
// ("Click **Save** in *gedit*", none for reading), and the call through the agent's real runtime
// (VS Code's confirmation is the approval; the tool profile and app permissions still refuse).
import { strict as assert } from 'node:assert';
import { SafetyMonitor } from '../../src/safety/safetyMonitor';
import { UnavailableInterrupts } from '../../src/platform/platformInterrupts';
import { NullLogger } from '../../src/common/logger';
import { AppPermissionGuard } from '../../src/safety/appPermissions';
import { MemoryAppPermissionStore } from '../../src/safety/appPermissionStore';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import type { DesktopServices } from '../../src/desktop/desktopServices';
import { ToolPolicy, type ToolProfile } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { specOfLmTool, type LmToolSpec } from '../../src/vscode/lm/lmToolsCatalog';
import { lmResultText, LmToolsRunner, type LmToolParts } from '../../src/vscode/lm/lmToolsRunner';
import { createFakeDesktop, makeServices, ocrWords, window, type FakeDesktop } from '../support/fakeDesktop';

function spec(name: string): LmToolSpec {
  const found = specOfLmTool(name);
  assert.ok(found, `${name} is a GAI language model tool`);
  return found;
}

function rig(options: { profile?: ToolProfile; appsAllow?: string[]; title?: string } = {}): { fake: FakeDesktop; runner: LmToolsRunner; lines: string[]; registry: ToolRegistry; desktop: DesktopServices } {
  const fake = createFakeDesktop({
    width: 800,
    height: 600,
    window: window(options.title ?? 'gedit'),
    analysis: ocrWords([
      { text: 'Save', x: 100, y: 40, w: 60, h: 20 },
      { text: 'Cancel', x: 200, y: 40, w: 80, h: 20 },
    ]),
  });
  const desktop = makeServices(fake);
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(desktop)) registry.register(tool);
  // No approval handler: were the runtime to ask, the call would be DENIED.
  const agentRuntime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: options.profile ?? 'standard' }), logger: new NullLogger() });
  agentRuntime.addGuard(
    new AppPermissionGuard({ windows: fake.windows, store: new MemoryAppPermissionStore(), allow: options.appsAllow ?? ['gedit'], settingNames: { allow: 'gai.apps.allow', deny: 'gai.apps.deny' } }),
  );
  const safety = new SafetyMonitor({ interrupts: new UnavailableInterrupts('test'), settings: { failSafeCorner: false, pauseOnTakeover: false } });
  const parts: LmToolParts = { agentRuntime, desktop, safety };
  const lines: string[] = [];
  return { fake, runner: new LmToolsRunner({ parts: () => Promise.resolve(parts), log: (line) => lines.push(line) }), lines, registry, desktop };
}

const signal = (): AbortSignal => new AbortController().signal;

describe('language model tools: prepareInvocation and invoke', () => {
  it('an action asks with the call in words and the active window: "Click **Save** in *gedit*"', async () => {
    const { runner, fake } = rig();
    const prepared = await runner.prepare(spec('gai_click'), { text: 'Save' });
    assert.equal(prepared.confirmation?.message, 'Click **Save** in *gedit*');
    assert.equal(prepared.confirmation?.title, 'Let GAI act on the desktop?');
    assert.equal(prepared.invocationMessage, 'Clicking');
    assert.equal(fake.input.calls.length, 0, 'preparing acts on nothing');
  });

  it('typing, keys and launching say what exactly; a secret is never shown', async () => {
    const { runner } = rig({ title: 'Login — Firefox' });
    assert.equal((await runner.prepare(spec('gai_type_text'), { text: 'hello', pressEnter: true })).confirmation?.message, 'Type `hello` in *Login — Firefox*, then press **Enter**');
    const secret = (await runner.prepare(spec('gai_type_text'), { text: 'hunter2-very-secret', secret: true })).confirmation?.message ?? '';
    assert.ok(!secret.includes('hunter2'), secret);
    assert.match(secret, /^Type a secret/);
    assert.equal((await runner.prepare(spec('gai_press_key'), { key: 's', modifiers: ['ctrl'] })).confirmation?.message, 'Press **ctrl\\+s** in *Login — Firefox*');
    const launch = await runner.prepare(spec('gai_launch_app'), { appName: 'gedit' });
    assert.equal(launch.confirmation?.title, 'Let GAI start a program?');
    // The standard profile will refuse it: the person reads that before confirming.
    assert.match(launch.confirmation?.message ?? '', /^Launch \*gedit\*\n\nGAI's settings will refuse it: launch_app \(risk "system"\) is not allowed by the "standard" tool profile\.$/);
  });

  it('reading asks nothing', async () => {
    const { runner } = rig();
    for (const name of ['gai_ocr', 'gai_screen_capture', 'gai_get_element_tree']) {
      const prepared = await runner.prepare(spec(name), {});
      assert.equal(prepared.confirmation, undefined, name);
    }
  });

  it('an invalid input still asks (it will be refused) and names the field', async () => {
    const { runner } = rig();
    const prepared = await runner.prepare(spec('gai_scroll'), { direction: 'sideways' });
    assert.match(prepared.confirmation?.message ?? '', /^Run \*\*scroll\*\*\n\nGAI will refuse it: direction: expected one of/);
  });

  it('a confirmed click runs through the runtime without a second prompt, and is logged with who confirmed', async () => {
    const { runner, fake, lines } = rig();
    const result = await runner.run(spec('gai_click'), { text: 'Save' }, signal());
    assert.equal(result.success, true, result.observation);
    const click = fake.input.calls.find((call) => call.type === 'click');
    assert.ok(click, `clicked: ${JSON.stringify(fake.input.calls)}`);
    assert.match(lines.join('\n'), /language model tool click \{"text":"Save"[^}]*\} confirmed-by=vscode result=ok \d+ms: Clicked "Save"/);
  });

  it("GAI's rules still hold: the profile and the app permissions refuse, as results saying why", async () => {
    const readOnly = rig({ profile: 'read-only' });
    const refused = await readOnly.runner.run(spec('gai_click'), { text: 'Save' }, signal());
    assert.equal(refused.success, false);
    assert.equal(refused.code, 'DENIED');
    assert.match(refused.observation, /not allowed by the "read-only" tool profile/);
    assert.equal(readOnly.fake.input.calls.length, 0);

    const otherApp = rig({ appsAllow: [] });
    const denied = await otherApp.runner.run(spec('gai_click'), { text: 'Save' }, signal());
    assert.equal(denied.success, false);
    assert.match(denied.observation, /gedit/);
    assert.equal(otherApp.fake.input.calls.filter((call) => call.type === 'click').length, 0);
  });

  it('OCR text comes back as the JSON GAI gives its own models', async () => {
    const { runner } = rig();
    const result = await runner.run(spec('gai_ocr'), { captureScreen: true }, signal());
    const text = lmResultText(result, false);
    const parsed = JSON.parse(text) as { success: boolean; observation: string; data: unknown };
    assert.equal(parsed.success, true, text);
    assert.match(JSON.stringify(parsed.data), /Save/);
  });

  it('a screenshot says whether its picture goes along', async () => {
    const { runner } = rig();
    const result = await runner.run(spec('gai_screen_capture'), {}, signal());
    assert.equal(result.images?.length, 1);
    assert.match(lmResultText(result, false), /could not be attached: this editor's language model tool results carry text only/);
    assert.match(lmResultText(result, true), /The picture follows as image data\.$/);
  });

  it("a typing tool whose own secrecy check fails: the confirmation shows none of the text", async () => {
    const { runner, registry, desktop } = rig();
    class BrokenCheck extends TypeTextTool {
      override publicInput(): Promise<unknown> {
        return Promise.reject(new Error('the focused field could not be asked'));
      }
    }
    registry.register(new BrokenCheck(desktop));
    const prepared = await runner.prepare(spec('gai_type_text'), { text: 'hunter2' });
    assert.ok(prepared.confirmation);
    assert.ok(!prepared.confirmation.message.includes('hunter2'), prepared.confirmation.message);
    const clicking = await runner.prepare(spec('gai_click'), { text: 'Save' });
    assert.equal(clicking.confirmation?.message, 'Click **Save** in *gedit*', 'a tool that types nothing is shown as it is');
  });

  it('GAI that cannot be built: the call fails as a result that says why, and the action still asks', async () => {
    const runner = new LmToolsRunner({ parts: () => Promise.reject(new Error('Setting gai.maxIterations: expected an integer')), log: () => {} });
    const result = await runner.run(spec('gai_click'), { text: 'Save' }, signal());
    assert.equal(result.success, false);
    assert.match(result.observation, /GAI could not start its tools: Setting gai\.maxIterations/);
    const prepared = await runner.prepare(spec('gai_type_text'), { text: 'pw', secret: true });
    assert.ok(prepared.confirmation);
    assert.ok(!prepared.confirmation.message.includes('`pw`'), prepared.confirmation.message);
  });
});
