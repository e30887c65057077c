import { strict as assert } from 'node:assert';
import { rejectedInputProblem } from '../../src/common/inputLimits';
import { Conversation } from '../../src/model/conversation';
import { fromAnthropicMessage } from '../../src/model/providers/anthropicMessages';
import { fromChatCompletion, ToolCallAccumulator } from '../../src/model/providers/openaiMessages';
import { toAnthropicMessages } from '../../src/model/providers/anthropicMessages';

// What a provider hands on from a model's tool call is bounded before anything else sees it.

const DEEP_JSON = `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;

describe('providers and history bound hostile tool input', () => {
  it('Anthropic: a deeply nested input becomes a stand-in naming the field', () => {
    const message = {
      id: 'm', type: 'message', role: 'assistant', model: 'x', stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'n'.repeat(10_000), input: JSON.parse(DEEP_JSON) as unknown }],
    } as unknown as Parameters<typeof fromAnthropicMessage>[0];
    const call = fromAnthropicMessage(message).toolCalls[0]!;
    assert.match(rejectedInputProblem(call.input) ?? '', /^input\.a\[0\]\[0\].*: nested deeper than 32 levels$/);
    assert.ok(call.name.length <= 128);
  });

  it('OpenAI: unparseable megabyte arguments and deep arguments become stand-ins, whole or streamed', () => {
    const completion = {
      id: 'c', object: 'chat.completion', created: 0, model: 'x',
      choices: [{
        index: 0, finish_reason: 'tool_calls', logprobs: null,
        message: {
          role: 'assistant', content: null, refusal: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'echo', arguments: `{"x": "${'y'.repeat(1_000_000)}` } },
            { id: 'call_2', type: 'function', function: { name: 'echo', arguments: DEEP_JSON } },
          ],
        },
      }],
    } as unknown as Parameters<typeof fromChatCompletion>[0];
    const [raw, deep] = fromChatCompletion(completion, 'x').toolCalls;
    assert.match(rejectedInputProblem(raw?.input) ?? '', /^input\._raw: text of 1000007 characters/);
    assert.match(rejectedInputProblem(deep?.input) ?? '', /nested deeper than 32 levels/);

    const accumulator = new ToolCallAccumulator();
    accumulator.add({ index: 0, id: 'call_3', function: { name: 'echo', arguments: DEEP_JSON.slice(0, 100) } });
    accumulator.add({ index: 0, function: { arguments: DEEP_JSON.slice(100) } });
    assert.match(rejectedInputProblem(accumulator.finish()[0]?.input) ?? '', /nested deeper than 32 levels/);
  });

  it('the history keeps a stand-in and matching ids, so the next request serialises and stays small', () => {
    const conversation = new Conversation();
    conversation.addUserMessage('go');
    const id = 'i'.repeat(1_000);
    conversation.addAssistantMessage('', [{ id, name: 'echo', input: JSON.parse(DEEP_JSON) as unknown }]);
    conversation.addToolResult(id, [{ type: 'text', text: '{"success":false,"code":"INVALID_INPUT"}' }], true);
    assert.deepEqual(conversation.problems(), []);
    const body = JSON.stringify(toAnthropicMessages(conversation.messages));
    assert.ok(body.length < 2_000, `${body.length} characters`);
  });
});
