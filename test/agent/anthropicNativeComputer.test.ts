import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import type { ComputerUseMode } from '../../src/model/modelConfig';
import { LlmManager } from '../../src/model/llmManager';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { ComputerDisplay } from '../../src/tools/desktop/computer/computerDisplay';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { createFakeDesktop, makeServices, type FakeDesktop } from '../support/fakeDesktop';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply, type Script, type ScriptedToolUse } from '../support/scriptedSteps';

// Claude working the desktop through its own computer tool: the real agent, runtime and tools on
// an in-memory desktop, the real @anthropic-ai/sdk against a scripted Messages API.

type WireBlock = Record<string, unknown>;

interface Run {
  server: ScriptedMessagesServer;
  fake: FakeDesktop;
  agent: Agent;
}

const servers: ScriptedMessagesServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(model: string, script: Script, screen: { width: number; height: number }, computerUse: ComputerUseMode = 'auto'): Promise<Run> {
  const server = await ScriptedMessagesServer.start(script);
  servers.push(server);
  const fake = createFakeDesktop(screen);
  const display = new ComputerDisplay(fake.screen);
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(makeServices(fake), { computerDisplay: display })) registry.register(tool);
  const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), autoApprove: ['read', 'action', 'system'] });
  const provider = new AnthropicProvider({ provider: 'anthropic', model, apiKey: 'test', baseUrl: server.baseUrl, maxRetries: 0, computerUse });
  const agent = new Agent(new LlmManager({ default: provider }, { system: 'Work the desktop.' }), runtime, { maxIterations: 5 });
  return { server, fake, agent };
}

/** A toolset member call, as Claude sends it. */
const member = (name: string, input: unknown = {}): ScriptedToolUse => ({ name, input, toolsetName: 'computer' });

const results = (body: Record<string, unknown>): WireBlock[] =>
  (body.messages as Array<{ content: WireBlock[] | string }>).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []));

const textOf = (block: WireBlock | undefined): string =>
  ((block?.content as WireBlock[] | undefined) ?? []).filter((c) => c.type === 'text').map((c) => String(c.text)).join('');

/** Width and height from a base64 PNG's header. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('Agent with a Claude model on its native computer tool', function () {
  this.timeout(20_000);

  it('toolset: a screenshot within the limits, a click mapped to the screen, a failed member stops the batch', async () => {
    const run = await start('claude-opus-5-5', [
      toolReply([member('screenshot')]),
      toolReply([member('left_click', { coordinate: [1200, 750], text: 'shift' }), member('left_click', { coordinate: [5000, 10] }), member('type', { text: 'hello' })]),
      textReply('Done.'),
    ], { width: 2560, height: 1600 });
    const response = await run.agent.processRequest('Click the middle');
    assert.equal(response.message, 'Done.');

    // 2560x1600 scaled into 3.6 MP is 2400x1500: (1200, 750) is the screen's (1280, 800).
    const clicks = run.fake.input.calls.filter((c) => c.type === 'click');
    assert.deepEqual(clicks.map((c) => c.type === 'click' && [c.at, c.modifiers]), [[{ x: 1280, y: 800 }, ['shift']]]);
    assert.ok(!run.fake.input.calls.some((c) => c.type === 'type'), 'the member after the failed one did not run');

    const [first, second, third] = run.server.requests;
    const tools = first!.body.tools as WireBlock[];
    assert.deepEqual(tools.at(-1), { type: 'computer_toolset_20260801', cache_control: { type: 'ephemeral' } });
    const names = tools.flatMap((t) => (t.name ? [String(t.name)] : []));
    for (const kept of ['click', 'ocr', 'get_element_tree', 'launch_app']) assert.ok(names.includes(kept), `${kept} stays beside the toolset`);
    for (const replaced of ['screen_capture', 'type_text', 'press_key', 'scroll', 'zoom', 'wait', 'computer']) assert.ok(!names.includes(replaced), `${replaced} is not a JSON tool here`);

    const shot = results(second!.body)[0]!;
    assert.equal(shot.toolset_name, 'computer');
    const image = (shot.content as WireBlock[]).find((c) => c.type === 'image') as { source: { data: string } } | undefined;
    assert.ok(image, 'the screenshot went to the model');
    const size = pngSize(image.source.data);
    assert.deepEqual(size, { width: 2400, height: 1500 });
    assert.ok(size.width <= 2576 && size.width * size.height <= 3_600_000);

    const batch = results(third!.body).slice(1);
    assert.deepEqual(batch.map((r) => [r.toolset_name, r.is_error]), [['computer', false], ['computer', true], ['computer', true]]);
    assert.match(textOf(batch[1]), /outside the 2400x1500 screenshot/);
    assert.match(textOf(batch[2]), /not (been )?run|not executed/i);
    // The history sends the member calls back in their own form.
    const calls = (third!.body.messages as Array<{ role: string; content: WireBlock[] }>)[3]!.content;
    assert.deepEqual(calls.map((b) => [b.name, b.toolset_name]), [['left_click', 'computer'], ['left_click', 'computer'], ['type', 'computer']]);
    assert.deepEqual(calls[0]?.input, { coordinate: [1200, 750], text: 'shift' });
  });

  it('computer_20251124: told the screenshot size, with its beta header; its click lands on the screen point', async () => {
    const run = await start('claude-sonnet-4-6', [
      toolReply([{ name: 'computer', input: { action: 'left_click', coordinate: [714, 402] } }]),
      textReply('Clicked.'),
    ], { width: 1920, height: 1080 });
    await run.agent.processRequest('Click the middle');
    for (const recorded of run.server.requests) {
      assert.equal(recorded.headers['anthropic-beta'], 'computer-use-2025-11-24');
      assert.deepEqual((recorded.body.tools as WireBlock[]).at(-1), {
        type: 'computer_20251124', name: 'computer', display_width_px: 1429, display_height_px: 804, enable_zoom: true, cache_control: { type: 'ephemeral' },
      });
    }
    const click = run.fake.input.calls.find((c) => c.type === 'click');
    assert.ok(click?.type === 'click');
    assert.deepEqual(click.at, { x: Math.round((714 * 1920) / 1429), y: Math.round((402 * 1080) / 804) });
    assert.equal(results(run.server.requests[1]!.body)[0]?.toolset_name, undefined);
  });

  it('gai-tools: no native tool and no computer tool, GAI tools as they are', async () => {
    const run = await start('claude-sonnet-4-6', [textReply('Nothing to do.')], { width: 1920, height: 1080 }, 'gai-tools');
    await run.agent.processRequest('Look');
    const [request] = run.server.requests;
    assert.equal(request!.headers['anthropic-beta'], undefined);
    const names = (request!.body.tools as WireBlock[]).map((t) => t.name);
    assert.ok(names.includes('screen_capture') && names.includes('type_text'));
    assert.ok(!names.includes('computer'));
  });

  it('a cancel mid-batch answers every member, each with toolset_name, in the next request', async () => {
    let cancelled = false;
    const run = await start('claude-opus-5-5', (request, index) => {
      if (index === 0) return toolReply([member('left_click', { coordinate: [10, 10] }), member('wait', { duration: 5 }), member('left_click', { coordinate: [20, 20] })]);
      return textReply(cancelled ? 'Stopped, as asked.' : 'unexpected');
    }, { width: 1280, height: 800 });
    const off = run.agent.onEvent((event) => {
      if (event.type === 'tool_started' && (event.call.input as { action?: string }).action === 'wait') {
        cancelled = true;
        setTimeout(() => run.agent.cancel(), 20);
      }
    });
    const started = Date.now();
    const first = await run.agent.processRequest('Click twice with a pause');
    off();
    assert.equal(first.stopReason, 'cancelled');
    assert.ok(Date.now() - started < 4_000, 'the wait was cut short');
    assert.equal(run.fake.input.calls.filter((c) => c.type === 'click').length, 1);

    await run.agent.processRequest('What happened?');
    const answered = results(run.server.requests[1]!.body);
    assert.equal(answered.length, 3);
    assert.deepEqual(answered.map((r) => r.toolset_name), ['computer', 'computer', 'computer']);
    assert.deepEqual(answered.map((r) => r.is_error), [false, true, true]);
  });
});
