import { strict as assert } from 'node:assert';
import type { Message } from '../../src/model/messages';
import { EchoTool } from '../../src/tools/echoTool';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { fromLmStreamPart, IMAGE_NOT_SENT, toLmMessages, toLmTools } from '../../src/vscode/lm/lmMessages';
import { ChatMessage, fakeHost, TextPart, ToolCallPart, ToolResultPart } from './lmFakes';

const vocab = fakeHost([]);
const png = { type: 'image' as const, source: { type: 'base64' as const, mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' } };

describe('vscode-lm message and tool mapping', () => {
  const history: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'Open the calculator' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Launching it.' },
        { type: 'tool_use', id: 'call_1', name: 'launch_app', input: { name: 'galculator' } },
        { type: 'tool_use', id: 'call_2', name: 'screen_capture', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '{"success":true,"observation":"Launched galculator."}' }], isError: false },
        { type: 'tool_result', toolUseId: 'call_2', content: [{ type: 'text', text: 'Captured 1280x800.' }, png], isError: false },
        { type: 'text', text: 'and press 7' },
      ],
    },
  ];

  it('maps roles and parts: text, calls with their ids and input, results first in their message', () => {
    const out = toLmMessages(vocab, history) as unknown as ChatMessage[];
    assert.deepEqual(out.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual(out[0]!.content, [new TextPart('Open the calculator')]);
    assert.deepEqual(out[1]!.content, [new TextPart('Launching it.'), new ToolCallPart('call_1', 'launch_app', { name: 'galculator' }), new ToolCallPart('call_2', 'screen_capture', {})]);
    const [first, second, words] = out[2]!.content as [ToolResultPart, ToolResultPart, TextPart];
    assert.ok(first instanceof ToolResultPart && second instanceof ToolResultPart, 'tool results open the user message');
    assert.equal(first.callId, 'call_1');
    assert.deepEqual(first.content, [new TextPart('{"success":true,"observation":"Launched galculator."}')]);
    assert.equal(words.value, 'and press 7');
  });

  it('says in the result that a picture was not sent (1.105 has no image part)', () => {
    const out = toLmMessages(vocab, history) as unknown as ChatMessage[];
    const capture = out[2]!.content[1] as ToolResultPart;
    assert.deepEqual(capture.content, [new TextPart('Captured 1280x800.'), new TextPart(IMAGE_NOT_SENT)]);
    assert.match(IMAGE_NOT_SENT, /not sent/);
    const userPicture = toLmMessages(vocab, [{ role: 'user', content: [{ type: 'text', text: 'look' }, png] }]) as unknown as ChatMessage[];
    assert.deepEqual(userPicture[0]!.content, [new TextPart('look'), new TextPart(IMAGE_NOT_SENT)]);
  });

  it('opens the first user message with the system prompt (the API has no system role), after its results', () => {
    const out = toLmMessages(vocab, history, 'You work the desktop.') as unknown as ChatMessage[];
    assert.deepEqual(out[0]!.content, [new TextPart('You work the desktop.'), new TextPart('Open the calculator')]);
    assert.equal(out[2]!.content.length, 3, 'only the first user message gets it');
    // A trimmed history may open with results: the prompt goes after them.
    const trimmed = toLmMessages(vocab, [history[2]!], 'SYS') as unknown as ChatMessage[];
    assert.ok(trimmed[0]!.content[0] instanceof ToolResultPart);
    assert.deepEqual(trimmed[0]!.content[2], new TextPart('SYS'));
  });

  it('marks a failed result whose text does not say so, and keeps call input an object', () => {
    const out = toLmMessages(vocab, [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'click', input: 'not an object' }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c', content: [{ type: 'text', text: 'timed out' }], isError: true }] },
    ]) as unknown as ChatMessage[];
    assert.deepEqual(out[0]!.content, [new ToolCallPart('c', 'click', { value: 'not an object' })]);
    assert.deepEqual((out[1]!.content[0] as ToolResultPart).content, [new TextPart('[The tool call failed.]'), new TextPart('timed out')]);
  });

  it('offers GAI tools with their name, description and JSON Schema unchanged', () => {
    const registry = new ToolRegistry();
    registry.register(new EchoTool());
    const [definition] = registry.getDefinitions();
    const [tool] = toLmTools(registry.getDefinitions());
    assert.equal(tool!.name, 'echo');
    assert.equal(tool!.description, definition!.description);
    assert.deepEqual(tool!.inputSchema, definition!.inputSchema);
    assert.deepEqual((tool!.inputSchema as { required?: string[] }).required, ['message']);
  });

  it('reads text and tool calls from the response stream and skips parts it does not know', () => {
    assert.deepEqual(fromLmStreamPart(vocab, new TextPart('Hi')), { type: 'text', text: 'Hi' });
    assert.deepEqual(fromLmStreamPart(vocab, new ToolCallPart('id9', 'ocr', { region: null })), { type: 'tool_call', call: { id: 'id9', name: 'ocr', input: { region: null } } });
    assert.deepEqual(fromLmStreamPart(vocab, { value: 'thinking', kind: 'thinking' }), { type: 'other' });
  });
});
