// Brain view → host messages: every inbound message is validated; a malformed one is an error
// value, never an exception.
import { strict as assert } from 'node:assert';
import { MAX_NODE_LABEL } from '../../src/shared/brainProtocol';
import { parseBrainViewMessage } from '../../src/vscode/brain/brainMessages';

describe('brain view → host protocol validation', () => {
  const valid: unknown[] = [
    { type: 'ready' },
    { type: 'refresh' },
    { type: 'forgetNode', key: 'gai-settings::3f2a' },
    { type: 'forgetNode', key: '@launcher' },
    { type: 'forgetPath', id: 'p-0123456789ab' },
    { type: 'renameNode', key: 'gai-settings::3f2a' },
    { type: 'renameNode', key: 'gai-settings::3f2a', label: 'Network settings' },
    { type: 'renameNode', key: 'k', label: 'x'.repeat(MAX_NODE_LABEL) },
    { type: 'thumbnail', key: 'gai-settings::3f2a' },
  ];
  for (const message of valid) {
    it(`accepts ${JSON.stringify(message).slice(0, 80)}`, () => {
      const parsed = parseBrainViewMessage(message);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      assert.deepEqual(parsed.message, message);
    });
  }

  const invalid: [string, unknown, RegExp][] = [
    ['null', null, /expected an object/],
    ['a string', 'refresh', /expected an object/],
    ['an array', [{ type: 'ready' }], /an array/],
    ['no type', { key: 'k' }, /no string "type"/],
    ['an unknown type', { type: 'send', text: 'hi' }, /unknown message type "send"/],
    ['a prototype key as type', { type: '__proto__' }, /unknown message type/],
    ['forgetNode without key', { type: 'forgetNode' }, /"forgetNode" message: key: required field/],
    ['forgetNode with an empty key', { type: 'forgetNode', key: '' }, /key: must have at least 1/],
    ['forgetNode with a number key', { type: 'forgetNode', key: 7 }, /key: expected a string/],
    ['forgetNode with an overlong key', { type: 'forgetNode', key: 'k'.repeat(301) }, /key: must have at most 300/],
    ['forgetPath with a bad id', { type: 'forgetPath', id: '../../etc' }, /id: expected a string/],
    ['renameNode with an empty label', { type: 'renameNode', key: 'k', label: '' }, /label: must have at least 1/],
    ['renameNode with a blank label', { type: 'renameNode', key: 'k', label: '   ' }, /label/],
    ['renameNode with a label too long', { type: 'renameNode', key: 'k', label: 'x'.repeat(MAX_NODE_LABEL + 1) }, /label: must have at most 120/],
    ['an extra field', { type: 'refresh', all: true }, /all: unknown field/],
    ['thumbnail without key', { type: 'thumbnail' }, /"thumbnail" message: key: required field/],
    ['thumbnail with a src of its own', { type: 'thumbnail', key: 'k', src: 'https://evil.example/x.png' }, /src: unknown field/],
  ];
  for (const [what, message, error] of invalid) {
    it(`rejects ${what} with a clear error, without throwing`, () => {
      const parsed = parseBrainViewMessage(message);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.error, error);
    });
  }
});
