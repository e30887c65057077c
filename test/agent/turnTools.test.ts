import { strict as assert } from 'node:assert';
import { Type } from '@sinclair/typebox';
import type { ToolDefinition } from '../../src/model/messages';
import type { LlmRequest, NativeComputerUse } from '../../src/model/llmProvider';
import { turnTools } from '../../src/agent/turnTools';
import { offeredBesideNativeComputer, REPLACED_BY_NATIVE_COMPUTER } from '../../src/tools/desktop/computer/computerToolChoice';
import { ComputerDisplay } from '../../src/tools/desktop/computer/computerDisplay';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import type { NativeComputerTool } from '../../src/tools/nativeComputer';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults } from '../../src/tools/toolResult';
import type { ToolResult } from '../../src/tools/toolTypes';
import { toolInput } from '../../src/common/schema';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { createFakeDesktop, makeServices } from '../support/fakeDesktop';

const tool = (name: string, properties: Record<string, unknown> = {}): ToolDefinition => ({
  name,
  description: `${name}.`,
  inputSchema: { type: 'object', properties },
});

const all = [
  tool('click', { x: { type: 'number' }, y: { type: 'number' }, text: { type: 'string' } }),
  tool('ocr'),
  tool('get_element_tree'),
  tool('navigate_to'),
  tool('get_current_node'),
  tool('launch_app'),
  ...[...REPLACED_BY_NATIVE_COMPUTER].map((name) => tool(name)),
  tool('computer'),
];

const SONNET: NativeComputerUse = { tool: 'computer_20251124', imageLimits: { maxLongEdge: 1456, maxPixels: 1_150_000 } };

function desktopRuntime(deny: string[] = []): { runtime: ToolRuntime; display: ComputerDisplay } {
  const fake = createFakeDesktop({ width: 2560, height: 1600 });
  const display = new ComputerDisplay(fake.screen);
  const registry = new ToolRegistry();
  for (const desktopTool of createDesktopTools(makeServices(fake), { computerDisplay: display })) registry.register(desktopTool);
  return { runtime: new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full', deny }) }), display };
}

describe('The tools offered beside the native computer tool (the computer tool chooses them)', () => {
  it('computer and what it does not replace, click by text only', () => {
    const offered = offeredBesideNativeComputer(all);
    assert.deepEqual(offered.map((t) => t.name), ['click', 'ocr', 'get_element_tree', 'navigate_to', 'get_current_node', 'launch_app', 'computer']);
    const click = offered[0]!;
    assert.deepEqual(Object.keys(click.inputSchema.properties ?? {}), ['text']);
    assert.match(click.description, /clicks by text only/);
    // The registry's definition is not changed for the runtime's validation.
    assert.deepEqual(Object.keys(all[0]!.inputSchema.properties ?? {}), ['x', 'y', 'text']);
  });
});

describe("A turn's tools (the agent asks the registry, it knows no tool by name)", () => {
  it('a model with a native computer tool: the computer tool sized to its limits, and what it keeps beside it', async () => {
    const { runtime, display } = desktopRuntime();
    const { tools, computer } = turnTools(runtime, SONNET);
    assert.ok(computer, 'the registered computer tool is the turn native tool');
    assert.equal(computer.name, 'computer');
    assert.ok(tools.some((t) => t.name === 'computer'));
    assert.ok(!tools.some((t) => t.name === 'screen_capture' || t.name === 'type_text'));
    assert.deepEqual(display.limits, SONNET.imageLimits, 'the screenshots follow the model limits');
    // 2560x1600 into 1456 on the long edge, 1.15 MP.
    assert.deepEqual(await computer.displaySize(), { displayWidth: 1356, displayHeight: 848 });
  });

  it('any other model: every tool but the computer tool, and the display is left as it was', () => {
    const { runtime, display } = desktopRuntime();
    const before = display.limits;
    const { tools, computer } = turnTools(runtime, undefined);
    assert.equal(computer, undefined);
    assert.ok(!tools.some((t) => t.name === 'computer'));
    assert.ok(tools.some((t) => t.name === 'screen_capture') && tools.some((t) => t.name === 'type_text'));
    assert.deepEqual(display.limits, before);
  });

  it('a native model without a computer tool registered gets the tools unchanged', () => {
    const fake = createFakeDesktop({ width: 800, height: 600 });
    const registry = new ToolRegistry();
    for (const desktopTool of createDesktopTools(makeServices(fake))) registry.register(desktopTool);
    const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }) });
    assert.deepEqual(turnTools(runtime, SONNET).tools, runtime.getDefinitions());
  });

  it('a tool of any name that can be the native computer tool is found by what it declares', async () => {
    const schema = toolInput({ action: Type.String() });
    const adapted: NativeComputerUse[] = [];
    class DeskTool extends ToolBase<typeof schema> implements NativeComputerTool {
      readonly name = 'desk';
      readonly description = 'A desk.';
      readonly inputSchema = schema;
      readonly risk = 'action' as const;
      override asNativeComputer(): NativeComputerTool {
        return this;
      }
      adaptTo(native: NativeComputerUse): void {
        adapted.push(native);
      }
      displaySize(): Promise<NonNullable<LlmRequest['computer']>> {
        return Promise.resolve({ displayWidth: 100, displayHeight: 50 });
      }
      offeredWith(definitions: readonly ToolDefinition[]): ToolDefinition[] {
        return definitions.filter((definition) => definition.name === this.name);
      }
      execute(): Promise<ToolResult> {
        return Promise.resolve(ToolResults.success('ok'));
      }
    }
    const registry = new ToolRegistry();
    registry.register(new DeskTool());
    for (const desktopTool of createDesktopTools(makeServices(createFakeDesktop({ width: 800, height: 600 })))) registry.register(desktopTool);
    const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }) });
    const native = turnTools(runtime, SONNET);
    assert.deepEqual(native.tools.map((t) => t.name), ['desk']);
    assert.deepEqual(adapted, [SONNET]);
    assert.deepEqual(await native.computer?.displaySize(), { displayWidth: 100, displayHeight: 50 });
    assert.ok(!turnTools(runtime, undefined).tools.some((t) => t.name === 'desk'));
  });

  it('a computer tool the policy does not permit is not offered, not even to a native model', () => {
    const { runtime, display } = desktopRuntime(['computer']);
    const before = display.limits;
    const { tools, computer } = turnTools(runtime, SONNET);
    assert.equal(computer, undefined);
    assert.ok(!tools.some((t) => t.name === 'computer'));
    assert.ok(tools.some((t) => t.name === 'type_text'), 'the GAI tools it would replace stay');
    assert.deepEqual(display.limits, before);
  });
});
