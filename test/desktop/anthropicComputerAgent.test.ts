import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import { LlmManager } from '../../src/model/llmManager';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { ComputerDisplay, toImagePoint, type DisplayGeometry } from '../../src/tools/desktop/computer/computerDisplay';
import { ComputerTool } from '../../src/tools/desktop/computerTool';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply, type ScriptedToolUse } from '../support/scriptedSteps';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { launchFixture, suiteDisplay, type Fixture, type WidgetGeometry } from './support/fixture';

// The whole way on a real X display (Xvfb + openbox): a scripted Claude answers with computer
// toolset member calls in screenshot pixels, the real SDK carries them, the agent runs them
// through the runtime, and the Tk fixture logs what it received.

const display = suiteDisplay();

/** A computer call as each wire form has it: a toolset member, or the single tool's action. */
function call(toolset: boolean, action: string, input: Record<string, unknown> = {}): ScriptedToolUse {
  return toolset ? { name: action, input, toolsetName: 'computer' } : { name: 'computer', input: { action, ...input } };
}

describe('Claude computer toolset through the agent on a real X display (Tk fixture)', function () {
  this.timeout(60_000);
  let rig: DesktopRig;
  let screen: ComputerDisplay;
  let app: Fixture | undefined;
  let server: ScriptedMessagesServer | undefined;

  before(() => {
    rig = createDesktopRig(display.env);
    screen = new ComputerDisplay(rig.services.desktop.screen);
    rig.runtime.registry.register(new ComputerTool(rig.services, screen));
  });
  after(async () => {
    await rig.dispose();
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await server?.close();
    server = undefined;
  });

  const aim = (widget: WidgetGeometry, geometry: DisplayGeometry): [number, number] => {
    const p = toImagePoint({ x: Math.round(widget.x + widget.width / 2), y: Math.round(widget.y + widget.height / 2) }, geometry);
    return [p.x, p.y];
  };

  for (const [model, toolset] of [['claude-opus-5-5', true], ['claude-sonnet-4-6', false]] as const) {
    it(`${model}: a click and typing from the model land in the fixture; a failing call stops the rest of the batch`, async () => {
      app = await launchFixture(display);
      const fixture = app;
      let geometry: DisplayGeometry | undefined;
      server = await ScriptedMessagesServer.start((_request, index) => {
        if (index === 0) return toolReply([call(toolset, 'screenshot')]);
        if (index === 1) {
          return toolReply([
            call(toolset, 'left_click', { coordinate: aim(fixture.widget('name_entry'), geometry!) }),
            call(toolset, 'type', { text: 'native' }),
            call(toolset, 'key', { text: 'no_such_key' }),
            call(toolset, 'left_click', { coordinate: aim(fixture.widget('cancel_button'), geometry!) }),
          ]);
        }
        return textReply('Typed.');
      });
      const provider = new AnthropicProvider({ provider: 'anthropic', model, apiKey: 'test', baseUrl: server.baseUrl, maxRetries: 0 });
      const agent = new Agent(new LlmManager({ default: provider }, { system: 'Work the desktop.' }), rig.runtime, { maxIterations: 4 });
      // The agent sets the model's limits on the display before the first turn; read the geometry the model sees.
      const original = screen.geometry.bind(screen);
      screen.geometry = async () => (geometry = await original());

      const response = await agent.processRequest('Type "native" into the name field');
      assert.equal(response.message, 'Typed.');
      await fixture.waitFor((e) => e.event === 'text' && e.widget === 'name_entry' && e.value === 'native');
      assert.equal(fixture.events().filter((e) => e.event === 'click' && e.widget === 'cancel_button').length, 0, 'the member after the failed key did not run');

      const screenshot = (server.requests[1]!.body.messages as Array<{ content: Array<Record<string, unknown>> }>)[2]!.content[0]!;
      assert.equal(screenshot.toolset_name, toolset ? 'computer' : undefined);
      const image = (screenshot.content as Array<{ type: string; source?: { data: string } }>).find((c) => c.type === 'image');
      const bytes = Buffer.from(image!.source!.data, 'base64');
      assert.deepEqual({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }, geometry!.image);
      const limits = toolset ? { edge: 2576, pixels: 3_600_000 } : { edge: 1568, pixels: 1_150_000 };
      assert.ok(Math.max(geometry!.image.width, geometry!.image.height) <= limits.edge && geometry!.image.width * geometry!.image.height <= limits.pixels);
      if (!toolset) {
        const tool = (server.requests[0]!.body.tools as Array<Record<string, unknown>>).at(-1);
        assert.deepEqual([tool?.display_width_px, tool?.display_height_px], [geometry!.image.width, geometry!.image.height]);
      }
      const last = (server.requests[2]!.body.messages as Array<{ content: Array<Record<string, unknown>> }>)[4]!.content;
      const family = toolset ? 'computer' : undefined;
      assert.deepEqual(last.map((r) => [r.toolset_name, r.is_error]), [[family, false], [family, false], [family, true], [family, true]]);
    });
  }
});
