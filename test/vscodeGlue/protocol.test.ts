import { strict as assert } from 'node:assert';
import { MAX_CHAT_INPUT } from '../../src/shared/protocol';
import { parseWebviewMessage } from '../../src/vscode/chat/messageValidation';

describe('webview → host protocol validation', () => {
  const valid: unknown[] = [
    { type: 'ready' },
    { type: 'send', text: 'open the calculator' },
    { type: 'stop' },
    { type: 'newConversation' },
    { type: 'approval', callId: 'toolu_1', decision: 'approve' },
    { type: 'approval', callId: 'toolu_1', decision: 'deny' },
    { type: 'approval', callId: 'toolu_1', decision: 'always' },
    { type: 'revokeTool', name: 'click' },
  ];
  for (const message of valid) {
    it(`accepts ${JSON.stringify(message)}`, () => {
      const parsed = parseWebviewMessage(message);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      assert.deepEqual(parsed.message, message);
    });
  }

  const invalid: [string, unknown, RegExp][] = [
    ['null', null, /expected an object/],
    ['a string', 'send', /expected an object/],
    ['an array', [{ type: 'stop' }], /an array/],
    ['no type', { text: 'hi' }, /no string "type"/],
    ['an unknown type', { type: 'runShell', command: 'rm -rf /' }, /unknown message type "runShell"/],
    ['a prototype key as type', { type: 'constructor' }, /unknown message type/],
    ['send without text', { type: 'send' }, /"send" message: text: required field/],
    ['revokeTool without a name', { type: 'revokeTool' }, /"revokeTool" message: name: required field/],
    ['revokeTool with an empty name', { type: 'revokeTool', name: '' }, /"revokeTool" message: name/],
    ['revokeTool with a long name', { type: 'revokeTool', name: 'x'.repeat(101) }, /"revokeTool" message: name/],
    ['revokeTool with more fields', { type: 'revokeTool', name: 'click', all: true }, /"revokeTool" message/],
    ['send with empty text', { type: 'send', text: '' }, /text: must have at least 1/],
    ['send with a number', { type: 'send', text: 5 }, /text: expected/],
    ['send with too much text', { type: 'send', text: 'x'.repeat(MAX_CHAT_INPUT + 1) }, new RegExp(`text: .*limit of ${MAX_CHAT_INPUT}`)],
    ['an extra field', { type: 'stop', now: true }, /now: unknown field/],
    ['a bad decision', { type: 'approval', callId: 'a', decision: 'maybe' }, /decision/],
    ['approval without callId', { type: 'approval', decision: 'approve' }, /callId: required field/],
  ];
  for (const [what, message, error] of invalid) {
    it(`rejects ${what} with a clear error, without throwing`, () => {
      const parsed = parseWebviewMessage(message);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.error, error);
    });
  }
});
