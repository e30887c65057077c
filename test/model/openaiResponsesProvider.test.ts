import { strict as assert } from 'node:assert';
import { GaiError, type GaiErrorCode } from '../../src/common/errors';
import type { ImageBlock, LlmResponse, LlmStreamChunk, ToolDefinition } from '../../src/model/messages';
import type { RiskLevel, ToolResult } from '../../src/tools/toolTypes';
import { Conversation } from '../../src/model/conversation';
import type { LlmRequest } from '../../src/model/llmProvider';
import { OpenAiResponsesProvider } from '../../src/model/providers/openaiResponsesProvider';
import { computerInputSchema, type ComputerInput } from '../../src/model/computer/computerActions';
import { ToolBase, type ToolContext } from '../../src/tools/toolBase';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults, toolResultContent } from '../../src/tools/toolResult';
import { ToolRuntime, type ApprovalDecision, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { ScriptedResponsesServer, type ResponsesStep } from '../support/scriptedResponsesServer';

const API_KEY = 'sk-proj-scripted0123456789abcdefABCDEF';
const shot = (data: string): ImageBlock => ({ type: 'image', source: { type: 'base64', mediaType: 'image/png', data } });

/** GAI's computer tool as the agent offers it, without a desktop: records actions, fails where told. */
class FakeComputer extends ToolBase<typeof computerInputSchema> {
  readonly name = 'computer';
  readonly description = 'Use the computer';
  readonly inputSchema = computerInputSchema;
  readonly risk: RiskLevel = 'action';
  override readonly ordered = true;
  readonly done: string[] = [];
  private shots = 0;

  constructor(private readonly failOn?: string, private readonly onAction?: (action: string) => void) {
    super();
  }

  override riskFor(input: ComputerInput): RiskLevel {
    return input.action === 'screenshot' ? 'read' : 'action';
  }

  async execute(input: ComputerInput, _context: ToolContext): Promise<ToolResult> {
    this.onAction?.(input.action);
    if (input.action === this.failOn) return ToolResults.failure('FAILED', `${input.action} found no window there`);
    this.done.push(input.action);
    if (input.action === 'screenshot') return ToolResults.success('Screenshot taken.', undefined, [shot(`after${++this.shots}`)]);
    return ToolResults.success(`${input.action} done.`);
  }
}

const clickTool: ToolDefinition = {
  name: 'click',
  description: 'Click a label',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

const computerCall = (actions: unknown[], checks: unknown[] = []): ResponsesStep => ({
  output: [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'computer_call', id: 'cu_1', call_id: 'call_c1', actions, pending_safety_checks: checks, status: 'completed' },
  ],
});
const done: ResponsesStep = { output: [{ type: 'message', id: 'msg_2', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }] };

interface Harness {
  server: ScriptedResponsesServer;
  provider: OpenAiResponsesProvider;
  conversation: Conversation;
  computer: FakeComputer;
  runtime: ToolRuntime;
  tools: ToolDefinition[];
}

const servers: ScriptedResponsesServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function harness(steps: ResponsesStep[], options: { model?: string; computer?: FakeComputer; approve?: (r: ApprovalRequest) => Promise<ApprovalDecision> } = {}): Promise<Harness> {
  const server = await ScriptedResponsesServer.start(steps);
  servers.push(server);
  const provider = new OpenAiResponsesProvider(
    { provider: 'openai', model: options.model ?? 'gpt-5.4', apiKey: API_KEY, baseUrl: server.baseUrl, maxRetries: 0 },
    { environment: 'linux' },
  );
  const computer = options.computer ?? new FakeComputer();
  const registry = new ToolRegistry();
  registry.register(computer);
  // Every risk is auto-approved: only a safety check may still ask.
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'], ...(options.approve ? { requestApproval: options.approve } : {}) });
  const conversation = new Conversation(10);
  conversation.addUserMessage([{ type: 'text', text: 'Save the file' }, shot('before')]);
  return { server, provider, conversation, computer, runtime, tools: [computer.getDefinition(), clickTool] };
}

/** One agent turn by hand: the model's reply into the history, its calls through the runtime, the results back. */
async function turn(h: Harness, signal = new AbortController().signal, stream = false): Promise<LlmResponse> {
  const request: LlmRequest = { system: 'Be careful.', messages: [...h.conversation.messages], tools: h.tools, computer: { displayWidth: 1366, displayHeight: 768 } };
  const response = stream ? await endOf(h.provider.stream(request)) : await h.provider.send(request);
  h.conversation.addAssistantMessage(response.content, response.toolCalls);
  if (response.toolCalls.length === 0) return response;
  const outcome = await h.runtime.executeTurn(response.toolCalls, signal);
  response.toolCalls.forEach((call, i) => {
    const result = outcome.results[i]!;
    h.conversation.addToolResult(call.id, toolResultContent(result), !result.success);
  });
  return response;
}

async function endOf(chunks: AsyncIterable<LlmStreamChunk>): Promise<LlmResponse> {
  for await (const chunk of chunks) if (chunk.type === 'end') return chunk.response;
  throw new Error('no end chunk');
}

type Item = Record<string, unknown> & { type?: string; role?: string };
const inputOf = (h: Harness, index: number): Item[] => h.server.requests[index]!.body.input as Item[];
const outputsOf = (items: Item[]): Item[] => items.filter((i) => i.type === 'computer_call_output');
const notesOf = (items: Item[]): string => items.filter((i) => i.role === 'user').flatMap((i) => (i.content as Array<{ text?: string }>).map((c) => c.text ?? '')).join('\n');

describe('OpenAiResponsesProvider over HTTP (real openai SDK, scripted Responses API)', () => {
  it('sends text and function tools, and answers a function_call with function_call_output (image included)', async () => {
    const h = await harness([
      { output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_f1', name: 'click', arguments: '{"text":"Save"}', status: 'completed' }], usage: { input_tokens: 50, output_tokens: 7, cached_tokens: 20 } },
      done,
    ]);
    h.tools = [clickTool];
    const first = await h.provider.send({ system: 'Be careful.', messages: [...h.conversation.messages], tools: h.tools });
    assert.deepEqual(first.toolCalls.map(({ id, name, input }) => ({ id, name, input })), [{ id: 'call_f1', name: 'click', input: { text: 'Save' } }]);
    assert.equal(first.stopReason, 'tool_use');
    assert.deepEqual(first.usage, { inputTokens: 50, outputTokens: 7, cacheReadTokens: 20 });
    const body = h.server.requests[0]!.body;
    assert.equal(body.instructions, 'Be careful.');
    assert.deepEqual(body.tools, [{ type: 'function', name: 'click', description: 'Click a label', parameters: clickTool.inputSchema, strict: false }]);
    assert.deepEqual(body.input, [{ role: 'user', content: [{ type: 'input_text', text: 'Save the file' }, { type: 'input_image', image_url: 'data:image/png;base64,before', detail: 'auto' }] }]);

    h.conversation.addAssistantMessage(first.content, first.toolCalls);
    h.conversation.addToolResult('call_f1', [{ type: 'text', text: 'Clicked' }, shot('clicked')]);
    const second = await h.provider.send({ messages: [...h.conversation.messages], tools: h.tools });
    assert.equal(second.content, 'Done.');
    assert.equal(second.stopReason, 'end_turn');
    const input = inputOf(h, 1);
    assert.deepEqual(input[1], { type: 'function_call', id: 'fc_1', call_id: 'call_f1', name: 'click', arguments: '{"text":"Save"}', status: 'completed' });
    assert.deepEqual(input[2], {
      type: 'function_call_output',
      call_id: 'call_f1',
      output: [{ type: 'input_text', text: 'Clicked' }, { type: 'input_image', image_url: 'data:image/png;base64,clicked', detail: 'auto' }],
    });
  });

  it('offers the computer tool beside the function tools, and answers a whole batch with one screenshot after it (streamed)', async () => {
    const h = await harness([
      computerCall([{ type: 'click', button: 'left', x: 10, y: 20 }, { type: 'type', text: 'notes' }, { type: 'keypress', keys: ['CTRL', 'S'] }]),
      done,
    ]);
    const response = await turn(h, undefined, true);
    assert.deepEqual(h.server.requests[0]!.body.tools, [
      { type: 'computer' },
      { type: 'function', name: 'click', description: 'Click a label', parameters: clickTool.inputSchema, strict: false },
    ]);
    assert.deepEqual(response.toolCalls.map((c) => c.id), ['call_c1#0', 'call_c1#1', 'call_c1#2', 'call_c1#3']);
    assert.deepEqual(h.computer.done, ['left_click', 'type', 'key', 'screenshot']);

    await turn(h, undefined, true);
    const input = inputOf(h, 1);
    assert.deepEqual(input.slice(1, 3).map((i) => i.type), ['reasoning', 'computer_call'], 'the reasoning item goes back before its call');
    assert.deepEqual(input[1], { type: 'reasoning', id: 'rs_1', summary: [] });
    assert.deepEqual(outputsOf(input), [{ type: 'computer_call_output', call_id: 'call_c1', output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,after1' } }]);
    assert.equal(notesOf(input.slice(3)), '', 'a batch that worked needs no note');
  });

  it('a batch whose 2nd action fails runs nothing after it, and still answers with a screenshot and the failure noted', async () => {
    const h = await harness([
      computerCall([{ type: 'click', button: 'left', x: 10, y: 20 }, { type: 'type', text: 'notes' }, { type: 'keypress', keys: ['CTRL', 'S'] }]),
      done,
    ], { computer: new FakeComputer('type') });
    await turn(h);
    assert.deepEqual(h.computer.done, ['left_click'], 'the key press and the screenshot did not run');
    await turn(h);
    const input = inputOf(h, 1);
    const outputs = outputsOf(input);
    assert.equal(outputs.length, 1);
    assert.deepEqual(outputs[0]?.output, { type: 'computer_screenshot', image_url: 'data:image/png;base64,before' }, 'the last screenshot from before the batch');
    const note = notesOf(input);
    assert.match(note, /call_c1#1 FAILED: type found no window there/);
    assert.match(note, /No screenshot was taken after these actions/);
  });

  it('tells the preview model its display size and environment, with truncation auto', async () => {
    const h = await harness([computerCall([{ type: 'screenshot' }])], { model: 'computer-use-preview' });
    await turn(h);
    const body = h.server.requests[0]!.body;
    assert.deepEqual((body.tools as unknown[])[0], { type: 'computer_use_preview', display_width: 1366, display_height: 768, environment: 'linux' });
    assert.equal(body.truncation, 'auto');
    await assert.rejects(
      h.provider.send({ messages: [...h.conversation.messages], tools: h.tools }),
      (e: unknown) => e instanceof GaiError && e.code === 'CONFIG' && /display size/.test(e.message),
    );
  });

  it('a pending safety check waits for the person even when every risk is auto-approved; approved, the next request acknowledges it', async () => {
    const requests: ApprovalRequest[] = [];
    let ranBeforeAnswer = -1;
    const computer = new FakeComputer();
    const h = await harness([
      computerCall([{ type: 'click', button: 'left', x: 1, y: 2 }], [{ id: 'cs_1', code: 'malicious_instructions', message: 'The page asks to send data.' }]),
      done,
    ], {
      computer,
      approve: async (request) => {
        requests.push(request);
        ranBeforeAnswer = computer.done.length;
        return 'approve';
      },
    });
    await turn(h);
    assert.equal(requests.length, 1, 'asked once, for the first action');
    assert.equal(requests[0]?.kind, 'safety-check');
    assert.match(requests[0]?.note ?? '', /malicious_instructions: The page asks to send data\./);
    assert.equal(ranBeforeAnswer, 0, 'nothing ran before the answer');
    assert.deepEqual(computer.done, ['left_click', 'screenshot']);
    await turn(h);
    assert.deepEqual(outputsOf(inputOf(h, 1))[0]?.acknowledged_safety_checks, [{ id: 'cs_1', code: 'malicious_instructions', message: 'The page asks to send data.' }]);
    assert.ok(!JSON.stringify(h.server.requests[0]!.body).includes('acknowledged_safety_checks'));
  });

  it('a denied safety check runs nothing, and the call goes back as text: no output leaves a check unanswered', async () => {
    const computer = new FakeComputer();
    const h = await harness([
      computerCall([{ type: 'click', button: 'left', x: 1, y: 2 }, { type: 'type', text: 'x' }], [{ id: 'cs_1', code: 'sensitive_domain', message: 'A bank.' }]),
      done,
    ], { computer, approve: async () => 'deny' });
    await turn(h);
    assert.deepEqual(computer.done, []);
    await turn(h);
    const input = inputOf(h, 1);
    assert.deepEqual(outputsOf(input), []);
    assert.ok(!input.some((i) => i.type === 'computer_call' || i.type === 'reasoning'), 'neither the call nor its reasoning goes back');
    assert.ok(!JSON.stringify(input).includes('acknowledged_safety_checks'));
    assert.ok(input.some((i) => i.role === 'assistant' && String(i.content).startsWith('[computer actions call_c1: ')));
    assert.match(notesOf(input), /call_c1#0: .*DENIED.*The person did not confirm the safety checks \(sensitive_domain\), so none of these actions ran\./);
  });

  it('cancelled mid-batch, every action is answered and the next request answers the call once', async () => {
    const controller = new AbortController();
    const computer = new FakeComputer(undefined, (action) => {
      if (action === 'type') controller.abort();
    });
    const h = await harness([computerCall([{ type: 'click', button: 'left', x: 1, y: 2 }, { type: 'type', text: 'x' }, { type: 'wait' }]), done], { computer });
    await turn(h, controller.signal);
    assert.deepEqual(h.conversation.pendingToolUses(), [], 'every call has a result');
    assert.deepEqual(h.conversation.problems(), []);
    assert.ok(!computer.done.includes('wait'));
    h.conversation.addUserMessage('Stop there.');
    await turn(h);
    const input = inputOf(h, 1);
    assert.equal(outputsOf(input).length, 1);
    assert.match(notesOf(input), /Stop there\./);
  });

  it('maps failures to GaiError codes: 401, a stream cut short, a cancelled request', async () => {
    const h = await harness([{ kind: 'error', status: 401, message: `bad key ${API_KEY}` }, { ...done, cutAfterEvents: 2 }, { kind: 'hang' }]);
    const request: LlmRequest = { messages: [...h.conversation.messages], tools: [] };
    const code = (expected: GaiErrorCode) => (e: unknown) => e instanceof GaiError && e.code === expected && !e.message.includes(API_KEY);
    await assert.rejects(h.provider.send(request), code('LLM_AUTH'));
    await assert.rejects(endOf(h.provider.stream(request)), code('LLM_STREAM_INTERRUPTED'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(h.provider.send({ ...request, signal: controller.signal }), code('LLM_CANCELLED'));
  });
});
