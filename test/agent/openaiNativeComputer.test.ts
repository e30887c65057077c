import { strict as assert } from 'node:assert';
import { Agent } from '../../src/agent/agent';
import type { ComputerUseMode } from '../../src/model/modelConfig';
import { LlmManager } from '../../src/model/llmManager';
import { OpenAiResponsesProvider } from '../../src/model/providers/openaiResponsesProvider';
import { ComputerDisplay } from '../../src/tools/desktop/computer/computerDisplay';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { createFakeDesktop, makeServices, type FakeDesktop, type InputCall } from '../support/fakeDesktop';
import { ScriptedResponsesServer, type ResponsesStep } from '../support/scriptedResponsesServer';

// One task — click the field at (300, 200), type "hello", save with ctrl+s — by an OpenAI model
// through its native computer tool and through GAI's function tools, on the real agent, the real
// tools on an in-memory desktop, and the real openai SDK against a scripted Responses API.

const saved: ResponsesStep = { output: [{ type: 'message', id: 'msg_9', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Saved.', annotations: [] }] }] };

interface Run {
  server: ScriptedResponsesServer;
  fake: FakeDesktop;
  agent: Agent;
}

const servers: ScriptedResponsesServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(model: string, computerUse: ComputerUseMode, steps: ResponsesStep[]): Promise<Run> {
  const server = await ScriptedResponsesServer.start(steps);
  servers.push(server);
  const fake = createFakeDesktop({ width: 1920, height: 1080 });
  const display = new ComputerDisplay(fake.screen);
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(makeServices(fake), { computerDisplay: display })) registry.register(tool);
  const runtime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), autoApprove: ['read', 'action', 'system'] });
  const provider = new OpenAiResponsesProvider(
    { provider: 'openai', model, apiKey: 'sk-scripted', baseUrl: server.baseUrl, maxRetries: 0, computerUse },
    { environment: 'linux' },
  );
  const agent = new Agent(new LlmManager({ default: provider }, { system: 'Work the desktop.' }), runtime, { maxIterations: 4 });
  return { server, fake, agent };
}

const typedAndSaved = (calls: InputCall[]): unknown[] =>
  calls.filter((c) => c.type === 'click' || c.type === 'type' || c.type === 'key').map((c) => {
    if (c.type === 'click') return { click: c.at };
    if (c.type === 'type') return { type: c.text };
    return { key: [...c.combo.modifiers, c.combo.key].join('+') };
  });

describe('Agent with an OpenAI model: the same task through native computer use and through GAI tools', function () {
  this.timeout(20_000);

  it('native (gpt-5.4, computer tool): one batch runs on the desktop and is answered by one screenshot', async () => {
    const run = await start('gpt-5.4', 'auto', [
      {
        output: [
          { type: 'reasoning', id: 'rs_1', summary: [] },
          {
            type: 'computer_call', id: 'cu_1', call_id: 'call_1', status: 'completed', pending_safety_checks: [],
            actions: [{ type: 'click', button: 'left', x: 300, y: 200 }, { type: 'type', text: 'hello' }, { type: 'keypress', keys: ['CTRL', 'S'] }],
          },
        ],
      },
      saved,
    ]);
    const response = await run.agent.processRequest('Write hello in the field and save');
    assert.equal(response.message, 'Saved.');
    assert.deepEqual(typedAndSaved(run.fake.input.calls), [{ click: { x: 300, y: 200 } }, { type: 'hello' }, { key: 'ctrl+s' }]);

    const first = run.server.requests[0]!.body;
    const tools = first.tools as Array<{ type: string; name?: string }>;
    assert.deepEqual(tools.filter((t) => t.type !== 'function'), [{ type: 'computer' }]);
    const names = tools.flatMap((t) => (t.name ? [t.name] : []));
    for (const replaced of ['screen_capture', 'type_text', 'press_key', 'scroll']) assert.ok(!names.includes(replaced), `${replaced} is not offered beside the native tool`);

    const input = run.server.requests[1]!.body.input as Array<Record<string, unknown>>;
    const outputs = input.filter((i) => i.type === 'computer_call_output');
    assert.equal(outputs.length, 1);
    assert.equal(outputs[0]?.call_id, 'call_1');
    assert.match(String((outputs[0]?.output as { image_url: string }).image_url), /^data:image\/png;base64,iVBOR/);
    assert.ok(input.some((i) => i.type === 'reasoning' && i.id === 'rs_1'));
  });

  it('native (computer-use-preview): told the screenshot size, its points are scaled to the screen', async () => {
    const run = await start('computer-use-preview', 'auto', [
      { output: [{ type: 'computer_call', id: 'cu_1', call_id: 'call_1', status: 'completed', pending_safety_checks: [], action: { type: 'click', button: 'left', x: 683, y: 384 } }] },
      saved,
    ]);
    await run.agent.processRequest('Click the middle');
    const tool = (run.server.requests[0]!.body.tools as Array<Record<string, unknown>>).find((t) => t.type === 'computer_use_preview');
    assert.ok(tool);
    const width = Number(tool.display_width);
    const height = Number(tool.display_height);
    assert.ok(width <= 1366 && height <= 768 && Math.abs(width / height - 16 / 9) < 0.01, `${width}x${height}`);
    const click = run.fake.input.calls.find((c) => c.type === 'click');
    assert.ok(click?.type === 'click');
    assert.ok(Math.abs(click.at.x - Math.round((683 * 1920) / width)) <= 2 && Math.abs(click.at.y - Math.round((384 * 1080) / height)) <= 2, JSON.stringify(click.at));
  });

  it('gai-tools (gpt-5.4 with computerUse gai-tools): the same task by function calls over the Responses API', async () => {
    const call = (id: string, name: string, args: unknown) => ({ type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name, arguments: JSON.stringify(args), status: 'completed' });
    const run = await start('gpt-5.4', 'gai-tools', [
      { output: [call('a', 'click', { x: 300, y: 200 }), call('b', 'type_text', { text: 'hello', delay: 0 }), call('c', 'press_key', { key: 'ctrl+s' })] },
      saved,
    ]);
    const response = await run.agent.processRequest('Write hello in the field and save');
    assert.equal(response.message, 'Saved.');
    assert.deepEqual(typedAndSaved(run.fake.input.calls), [{ click: { x: 300, y: 200 } }, { type: 'hello' }, { key: 'ctrl+s' }]);
    const tools = run.server.requests[0]!.body.tools as Array<{ type: string; name?: string }>;
    assert.ok(tools.every((t) => t.type === 'function'));
    assert.ok(!tools.some((t) => t.name === 'computer'));
    const input = run.server.requests[1]!.body.input as Array<Record<string, unknown>>;
    assert.deepEqual(input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id), ['call_a', 'call_b', 'call_c']);
  });
});
