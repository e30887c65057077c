import { strict as assert } from 'node:assert';
import type { ResponseComputerToolCall } from 'openai/resources/responses/responses';
import { GaiError } from '../../src/common/errors';
import type { ProviderConfig } from '../../src/model/modelConfig';
import { computerCallIdOf, computerCallToToolCalls, keyCombination, wheelSteps } from '../../src/model/providers/openaiComputerActions';
import { openAiComputerToolFor, openAiNativeComputerFor } from '../../src/model/providers/openaiComputerModels';
import { usesResponsesApi } from '../../src/model/providers/providerFactory';
import { toResponsesInput } from '../../src/model/providers/openaiResponsesInput';
import { SCREENSHOT_STUB } from '../../src/model/conversation';
import { resolveLlmConfig } from '../../src/model/llmConfig';
import { yesApproval } from '../../src/cli/terminalApproval';
import { computerInputSchema } from '../../src/model/computer/computerActions';
import { compileValidator } from '../../src/common/schema';

function computerCall(actions: ResponseComputerToolCall['actions'], checks: ResponseComputerToolCall['pending_safety_checks'] = []): ResponseComputerToolCall {
  return { type: 'computer_call', id: 'cu_1', call_id: 'call_c1', actions, pending_safety_checks: checks, status: 'completed' };
}

describe('OpenAI computer actions as GAI computer calls', () => {
  it('turns a batch into ordered calls of the computer tool, ending in a screenshot, every input valid for the tool', () => {
    const calls = computerCallToToolCalls(computerCall([
      { type: 'click', button: 'right', x: 10.4, y: 20.6 },
      { type: 'double_click', x: 5, y: 6, keys: null },
      { type: 'drag', path: [{ x: 1, y: 2 }, { x: 30, y: 40 }] },
      { type: 'keypress', keys: ['CTRL', 'S'] },
      { type: 'move', x: 7, y: 8 },
      { type: 'scroll', x: 100, y: 200, scroll_x: 0, scroll_y: -300 },
      { type: 'type', text: 'hello' },
      { type: 'wait' },
      { type: 'click', button: 'left', x: 1, y: 1, keys: ['SHIFT'] },
      { type: 'click', button: 'wheel', x: 2, y: 2 },
    ]));
    assert.deepEqual(calls.map((c) => c.input), [
      { action: 'right_click', coordinate: [10, 21] },
      { action: 'double_click', coordinate: [5, 6] },
      { action: 'left_click_drag', path: [[1, 2], [30, 40]] },
      { action: 'key', text: 'ctrl+s' },
      { action: 'mouse_move', coordinate: [7, 8] },
      { action: 'scroll', coordinate: [100, 200], scroll_direction: 'up', scroll_amount: 3 },
      { action: 'type', text: 'hello' },
      { action: 'wait', duration: 1 },
      { action: 'left_click', coordinate: [1, 1], text: 'shift' },
      { action: 'middle_click', coordinate: [2, 2] },
      { action: 'screenshot' },
    ]);
    assert.deepEqual(calls.map((c) => c.id), calls.map((_, i) => `call_c1#${i}`));
    assert.ok(calls.every((c) => c.name === 'computer'));
    assert.ok(calls.every((c) => computerCallIdOf(c.id) === 'call_c1'));
    const validator = compileValidator(computerInputSchema);
    for (const call of calls) assert.ok(validator.validate(call.input).ok, JSON.stringify(call.input));
  });

  it('adds no second screenshot when the batch ends with one, and takes the single action of the preview tool', () => {
    const batch = computerCallToToolCalls(computerCall([{ type: 'type', text: 'x' }, { type: 'screenshot' }]));
    assert.deepEqual(batch.map((c) => (c.input as { action: string }).action), ['type', 'screenshot']);
    const single = computerCallToToolCalls({ type: 'computer_call', id: 'cu', call_id: 'c9', action: { type: 'screenshot' }, pending_safety_checks: [], status: 'completed' });
    assert.deepEqual(single.map((c) => c.id), ['c9#0']);
  });

  it('scrolls 100 px per wheel step, at least one for any distance, on both axes when both move', () => {
    assert.equal(wheelSteps(0), 0);
    assert.equal(wheelSteps(20), 1);
    assert.equal(wheelSteps(-250), 3);
    assert.equal(wheelSteps(1e9), 100);
    const calls = computerCallToToolCalls(computerCall([{ type: 'scroll', x: 1, y: 2, scroll_x: 200, scroll_y: 500 }]));
    assert.deepEqual(calls.slice(0, 2).map((c) => c.input), [
      { action: 'scroll', coordinate: [1, 2], scroll_direction: 'down', scroll_amount: 5 },
      { action: 'scroll', coordinate: [1, 2], scroll_direction: 'right', scroll_amount: 2 },
    ]);
  });

  it('spells OpenAI key names the way GAI parses them', () => {
    assert.equal(keyCombination(['CTRL', 'SHIFT', 'T']), 'ctrl+shift+t');
    assert.equal(keyCombination(['ENTER']), 'enter');
    assert.equal(keyCombination(['ARROWLEFT']), 'arrowleft');
    assert.equal(keyCombination(['PAGE_DOWN']), 'pagedown');
    assert.equal(keyCombination(['CTRL', '+']), 'ctrl+plus');
    assert.equal(keyCombination([' ']), 'space');
  });

  it('puts the pending safety checks on the first call only', () => {
    const calls = computerCallToToolCalls(computerCall([{ type: 'click', button: 'left', x: 1, y: 1 }], [{ id: 'cs_1', code: 'malicious_instructions', message: 'Odd text' }]));
    assert.deepEqual(calls[0]?.confirm, [{ id: 'cs_1', code: 'malicious_instructions', message: 'Odd text' }]);
    assert.equal(calls[1]?.confirm, undefined);
  });

  it('a --yes run never confirms a safety check: without a terminal it is denied', async () => {
    const handler = yesApproval(undefined);
    const call = { id: 'x', name: 'computer', input: {} };
    assert.equal(await handler({ call, risk: 'action', summary: 's', kind: 'safety-check' }, new AbortController().signal), 'deny');
    assert.equal(await handler({ call, risk: 'action', summary: 's' }, new AbortController().signal), 'approve');
  });
});

describe('OpenAI computer models and the choice of API', () => {
  it('gives gpt-5.4 and later the computer tool, the preview model computer_use_preview, others none', () => {
    assert.equal(openAiComputerToolFor('gpt-5.4'), 'computer');
    assert.equal(openAiComputerToolFor('gpt-5.4-mini-2026-03-05'), 'computer');
    assert.equal(openAiComputerToolFor('openai/gpt-5.5'), 'computer');
    assert.equal(openAiComputerToolFor('computer-use-preview-2025-03-11'), 'computer_use_preview');
    assert.equal(openAiComputerToolFor('gpt-5'), undefined);
    assert.equal(openAiComputerToolFor('gpt-5.2'), undefined);
    assert.equal(openAiComputerToolFor('gpt-4.1'), undefined);
    assert.equal(openAiNativeComputerFor('gpt-5.4', 'gai-tools'), undefined);
    assert.deepEqual(openAiNativeComputerFor('computer-use-preview')?.imageLimits, { maxLongEdge: 1366, maxPixels: 1366 * 768 });
    assert.throws(() => openAiNativeComputerFor('gpt-4.1', 'native'), (e: unknown) => e instanceof GaiError && e.code === 'CONFIG' && /computerUse is "native"/.test(e.message));
  });

  it('uses the Responses API for OpenAI computer models on OpenAI, or when asked; chat completions for everything else', () => {
    const config = (c: Partial<ProviderConfig>): ProviderConfig => ({ provider: 'openai', model: 'gpt-5.4', apiKey: 'k', ...c });
    assert.equal(usesResponsesApi(config({})), true);
    assert.equal(usesResponsesApi(config({ model: 'gpt-4.1' })), false);
    assert.equal(usesResponsesApi(config({ model: 'gpt-4.1', api: 'responses' })), true);
    assert.equal(usesResponsesApi(config({ api: 'chat-completions' })), false);
    assert.equal(usesResponsesApi(config({ computerUse: 'gai-tools' })), false);
    assert.equal(usesResponsesApi(config({ baseUrl: 'http://localhost:1234/v1' })), false, 'LM Studio and vLLM keep chat completions');
    assert.equal(usesResponsesApi(config({ baseUrl: 'http://proxy.local/v1', computerUse: 'native' })), true);
    assert.equal(usesResponsesApi(config({ provider: 'ollama', api: undefined })), false);
    assert.equal(usesResponsesApi(config({ provider: 'google', model: 'gemini-2.5-flash' })), false);
  });

  it('takes llm.api from the settings and refuses responses for a chat-completions provider', () => {
    assert.equal(resolveLlmConfig({ provider: 'openai', apiKey: 'k', api: 'responses' }, {}).default.api, 'responses');
    assert.throws(() => resolveLlmConfig({ provider: 'ollama', model: 'm', api: 'responses' }, {}), /api: "responses" .* needs provider "openai"/);
  });
});

describe('toResponsesInput: computer calls without a screenshot', () => {
  it('sends a turn as text, without its reasoning, when no screenshot is left to answer it with (pruned)', () => {
    const call = computerCall([{ type: 'click', button: 'left', x: 1, y: 2 }]);
    const [first, second] = computerCallToToolCalls(call);
    const items = toResponsesInput([
      { role: 'user', content: [{ type: 'text', text: 'Go' }, { type: 'text', text: SCREENSHOT_STUB }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: first!.id, name: 'computer', input: first!.input, wire: { format: 'openai-responses', items: [{ type: 'reasoning', id: 'rs_1', summary: [] }, call] } },
          { type: 'tool_use', id: second!.id, name: 'computer', input: second!.input },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: first!.id, content: [{ type: 'text', text: '{"success":true,"observation":"Clicked."}' }], isError: false },
          { type: 'tool_result', toolUseId: second!.id, content: [{ type: 'text', text: SCREENSHOT_STUB }], isError: false },
        ],
      },
    ]);
    assert.ok(!items.some((i) => 'type' in i && (i.type === 'computer_call' || i.type === 'computer_call_output' || i.type === 'reasoning')));
    assert.deepEqual(items[1], { role: 'assistant', content: '[computer actions call_c1: [{"type":"click","button":"left","x":1,"y":2}]]' });
    assert.match(JSON.stringify(items[2]), /results of computer actions call_c1: call_c1#0: .*Clicked/);
  });
});

describe('toResponsesInput: another provider\'s computer calls', () => {
  it('sends an Anthropic computer call and its result as text, other calls as function_call items', () => {
    const items = toResponsesInput([
      { role: 'user', content: [{ type: 'text', text: 'Go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'computer', input: { action: 'screenshot' } }, { type: 'tool_use', id: 'toolu_2', name: 'click', input: { text: 'OK' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: 'Screenshot taken.' }], isError: false },
          { type: 'tool_result', toolUseId: 'toolu_2', content: [{ type: 'text', text: 'Clicked.' }], isError: false },
        ],
      },
    ]);
    assert.deepEqual(items.slice(1), [
      { role: 'assistant', content: '[computer action toolu_1: {"action":"screenshot"}]' },
      { type: 'function_call', call_id: 'toolu_2', name: 'click', arguments: '{"text":"OK"}' },
      { type: 'function_call_output', call_id: 'toolu_2', output: 'Clicked.' },
      { role: 'user', content: [{ type: 'input_text', text: '[results of computer actions toolu_1: toolu_1: Screenshot taken.]' }] },
    ]);
  });
});
