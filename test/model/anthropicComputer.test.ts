import { strict as assert } from 'node:assert';
import { isGaiError } from '../../src/common/errors';
import type { ComputerUseMode } from '../../src/model/modelConfig';
import type { JsonObjectSchema, LlmStreamChunk, Message, ToolDefinition } from '../../src/model/messages';
import type { LlmRequest } from '../../src/model/llmProvider';
import {
  computerToolFor, HIGH_RES_IMAGE_LIMITS, imageLimitsFor, nativeComputerFor, STANDARD_IMAGE_LIMITS,
} from '../../src/model/providers/anthropicComputerModels';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { computerInputSchema } from '../../src/model/computer/computerActions';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { toolReply } from '../support/scriptedSteps';
import { TINY_PNG } from '../support/testTools';

const echo: ToolDefinition = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } };
const computer: ToolDefinition = { name: 'computer', description: 'Use the computer.', inputSchema: computerInputSchema as unknown as JsonObjectSchema };
const display = { displayWidth: 1280, displayHeight: 800 };
const png = { type: 'image' as const, source: { type: 'base64' as const, mediaType: 'image/png' as const, data: TINY_PNG } };

/** A turn that clicked (with a screenshot in its result), echoed, and a click that failed with a screenshot. */
const history: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'click the icon' }] },
  {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_1', name: 'computer', input: { action: 'left_click', coordinate: [10, 20], text: 'shift' } },
      { type: 'tool_use', id: 'toolu_2', name: 'echo', input: { message: 'hi' } },
      { type: 'tool_use', id: 'toolu_3', name: 'computer', input: { action: 'screenshot' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: 'toolu_1', isError: false, content: [{ type: 'text', text: 'Clicked' }, png] },
      { type: 'tool_result', toolUseId: 'toolu_2', isError: false, content: [{ type: 'text', text: 'hi' }] },
      { type: 'tool_result', toolUseId: 'toolu_3', isError: true, content: [{ type: 'text', text: 'Not run: an earlier call failed' }, png] },
    ],
  },
];

type WireBlock = Record<string, unknown>;
const blocks = (body: Record<string, unknown>, index: number): WireBlock[] =>
  ((body.messages as Array<{ content: WireBlock[] }>)[index]?.content ?? []);

describe('Anthropic native computer use', function () {
  describe('the model table', () => {
    it('gives each model family its computer tool, with or without a date or platform prefix', () => {
      const cases: Array<[string, string | undefined]> = [
        ['claude-opus-5-5', 'computer_toolset_20260801'],
        ['claude-haiku-5-5', 'computer_toolset_20260801'],
        ['claude-sonnet-5', 'computer_toolset_20260801'],
        ['claude-opus-4-7', 'computer_20251124'],
        ['claude-opus-4-5-20251101', 'computer_20251124'],
        ['claude-sonnet-4-6', 'computer_20251124'],
        ['claude-sonnet-4-5-20250929', 'computer_20250124'],
        ['claude-haiku-4-5', 'computer_20250124'],
        ['claude-opus-4-1-20250805', 'computer_20250124'],
        ['claude-sonnet-4-20250514', 'computer_20250124'],
        ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'computer_20250124'],
        ['claude-3-5-haiku-20241022', undefined],
        ['claude-opus-4-extra', undefined],
        ['llama3', undefined],
      ];
      for (const [model, tool] of cases) assert.equal(computerToolFor(model), tool, model);
    });

    it('sizes screenshots for the model: 2576 px / 3.6 MP from Opus 4.7 on, 1568 px / 1.15 MP before', () => {
      assert.deepEqual(imageLimitsFor('claude-opus-4-7'), HIGH_RES_IMAGE_LIMITS);
      assert.deepEqual(imageLimitsFor('claude-opus-5-5'), HIGH_RES_IMAGE_LIMITS);
      assert.deepEqual(imageLimitsFor('claude-sonnet-4-6'), STANDARD_IMAGE_LIMITS);
      assert.deepEqual(imageLimitsFor('some-local-model'), STANDARD_IMAGE_LIMITS);
    });

    it('follows computerUse: auto by table, gai-tools never, native insists and names the setting', () => {
      assert.equal(nativeComputerFor('claude-sonnet-4-6', 'auto')?.beta, 'computer-use-2025-11-24');
      assert.equal(nativeComputerFor('claude-haiku-4-5', 'native')?.beta, 'computer-use-2025-01-24');
      assert.equal(nativeComputerFor('claude-opus-5-5', 'native')?.beta, undefined);
      assert.equal(nativeComputerFor('claude-opus-5-5', 'gai-tools'), undefined);
      assert.equal(nativeComputerFor('claude-3-5-haiku-latest', 'auto'), undefined);
      assert.throws(() => nativeComputerFor('claude-3-5-haiku-latest', 'native'), (e: unknown) => isGaiError(e, 'CONFIG') && /computerUse is "native".*claude-3-5-haiku-latest/.test(e.message));
    });
  });

  describe('on the wire', () => {
    let server: ScriptedMessagesServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    const provider = (model: string, computerUse?: ComputerUseMode): AnthropicProvider =>
      new AnthropicProvider({ provider: 'anthropic', model, apiKey: 'test', baseUrl: server!.baseUrl, maxRetries: 0, ...(computerUse ? { computerUse } : {}) });
    const request = (extra: Partial<LlmRequest> = {}): LlmRequest => ({ system: 'sys', messages: history, tools: [echo, computer], computer: display, ...extra });

    it('sends the toolset entry, member calls and toolset_name on their results, and reads member calls as computer calls', async () => {
      const reply = () => toolReply([
        { name: 'left_click', toolsetName: 'computer', input: { coordinate: [640, 400], text: 'ctrl' } },
        { name: 'key', toolsetName: 'computer', input: { text: 'Return', repeat: 2 } },
        { name: 'echo', input: { message: 'x' } },
      ]);
      server = await ScriptedMessagesServer.start([reply(), reply()]);
      const model = provider('claude-opus-5-5');
      assert.equal(model.nativeComputer?.tool, 'computer_toolset_20260801');
      const response = await model.send(request());
      const chunks: LlmStreamChunk[] = [];
      for await (const chunk of model.stream(request())) chunks.push(chunk);
      const streamed = chunks.filter((c) => c.type === 'tool_use').map((c) => (c.type === 'tool_use' ? c.toolCall : undefined));
      for (const calls of [response.toolCalls, streamed]) {
        assert.deepEqual(calls.map((c) => [c?.name, c?.input]), [
          ['computer', { action: 'left_click', coordinate: [640, 400], text: 'ctrl' }],
          ['computer', { action: 'key', text: 'Return', repeat: 2 }],
          ['echo', { message: 'x' }],
        ]);
      }
      for (const recorded of server.requests) {
        const body = recorded.body;
        assert.equal(recorded.headers['anthropic-beta'], undefined, 'the toolset needs no beta header');
        assert.deepEqual(body.tools, [
          { name: 'echo', description: 'Echo.', input_schema: echo.inputSchema },
          { type: 'computer_toolset_20260801', cache_control: { type: 'ephemeral' } },
        ]);
        assert.deepEqual(blocks(body, 1), [
          { type: 'tool_use', id: 'toolu_1', name: 'left_click', input: { coordinate: [10, 20], text: 'shift' }, toolset_name: 'computer' },
          { type: 'tool_use', id: 'toolu_2', name: 'echo', input: { message: 'hi' } },
          { type: 'tool_use', id: 'toolu_3', name: 'screenshot', input: {}, toolset_name: 'computer' },
        ]);
        const results = blocks(body, 2);
        assert.deepEqual(results.map((b) => [b.tool_use_id, b.toolset_name]), [['toolu_1', 'computer'], ['toolu_2', undefined], ['toolu_3', 'computer']]);
        assert.deepEqual((results[0]?.content as WireBlock[]).map((c) => c.type), ['text', 'image']);
        // An is_error result holds text only (the API rejects anything else there).
        assert.deepEqual(results[2]?.content, [{ type: 'text', text: 'Not run: an earlier call failed' }]);
        assert.deepEqual(results[2]?.cache_control, { type: 'ephemeral' }, 'the newest block keeps the cache breakpoint');
        assert.deepEqual((body.system as WireBlock[])[0]?.cache_control, { type: 'ephemeral' });
      }
    });

    for (const [model, tool, beta, zoom] of [
      ['claude-opus-4-6', 'computer_20251124', 'computer-use-2025-11-24', true],
      ['claude-haiku-4-5', 'computer_20250124', 'computer-use-2025-01-24', false],
    ] as const) {
      it(`sends ${tool} with the display size and the ${beta} header for ${model}, calls as they are`, async () => {
        server = await ScriptedMessagesServer.start([
          toolReply([{ name: 'computer', input: { action: 'scroll', coordinate: [5, 6], scroll_direction: 'down', scroll_amount: 3 } }]),
          toolReply([{ name: 'computer', input: { action: 'screenshot' } }]),
        ]);
        const response = await provider(model).send(request());
        assert.deepEqual(response.toolCalls[0]?.input, { action: 'scroll', coordinate: [5, 6], scroll_direction: 'down', scroll_amount: 3 });
        for await (const chunk of provider(model).stream(request())) void chunk;
        for (const recorded of server.requests) {
          assert.equal(recorded.headers['anthropic-beta'], beta);
          assert.deepEqual((recorded.body.tools as WireBlock[])[1], {
            type: tool, name: 'computer', display_width_px: 1280, display_height_px: 800, cache_control: { type: 'ephemeral' }, ...(zoom ? { enable_zoom: true } : {}),
          });
          assert.deepEqual(blocks(recorded.body, 1)[0], { type: 'tool_use', id: 'toolu_1', name: 'computer', input: { action: 'left_click', coordinate: [10, 20], text: 'shift' } });
          assert.equal(blocks(recorded.body, 2)[0]?.toolset_name, undefined);
        }
      });
    }

    it('sends computer as an ordinary tool with gai-tools, and the native tool only when the request offers computer', async () => {
      server = await ScriptedMessagesServer.start([toolReply([{ name: 'echo', input: {} }]), toolReply([{ name: 'echo', input: {} }])]);
      await provider('claude-opus-4-6', 'gai-tools').send(request());
      await provider('claude-opus-4-6').send(request({ tools: [echo] }));
      const [plain, withoutComputer] = server.requests;
      assert.equal(plain?.headers['anthropic-beta'], undefined);
      assert.deepEqual((plain?.body.tools as WireBlock[]).map((t) => t.name), ['echo', 'computer']);
      assert.ok((plain?.body.tools as WireBlock[])[1]?.input_schema, 'a JSON tool');
      assert.equal(withoutComputer?.headers['anthropic-beta'], undefined);
      assert.deepEqual((withoutComputer?.body.tools as WireBlock[]).map((t) => t.name), ['echo']);
    });

    it('fails clearly when a single computer tool is sent without the display size', async () => {
      server = await ScriptedMessagesServer.start([]);
      await assert.rejects(provider('claude-opus-4-6').send(request({ computer: undefined })), /computer_20251124 needs the screenshot size/);
      assert.equal(server.requestCount, 0);
    });

    it('refuses computerUse native for a model without a computer tool, naming the setting', () => {
      assert.throws(() => new AnthropicProvider({ provider: 'anthropic', model: 'claude-3-5-haiku-latest', apiKey: 'k', computerUse: 'native' }), /computerUse is "native"/);
    });
  });
});
