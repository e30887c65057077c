import { strict as assert } from 'node:assert';
import { GaiError } from '../../src/common/errors';
import { SecretRedactor } from '../../src/common/redact';
import type { HostMessage } from '../../src/shared/protocol';
import { ChatSession } from '../../src/vscode/chat/chatSession';
import { OutputChannelLogger } from '../../src/vscode/outputLogger';

// The chat shows errors, notices and tool cards; none may carry a key, even when a server echoed it.

const KEY = 'stored-in-secret-storage-0123456789';

describe('chat session redaction', () => {
  it('shows errors, notices, tool inputs and observations without the key, in entries and in what is posted', () => {
    const posted: HostMessage[] = [];
    const redactor = new SecretRedactor({ secrets: [KEY] });
    const chat = new ChatSession((message) => posted.push(message), (text) => redactor.redact(text));
    const call = { id: 'toolu_1', name: 'echo', input: { message: `the key is ${KEY}` } };
    chat.handle({ type: 'tool_started', call, risk: 'read' });
    chat.handle({ type: 'tool_finished', call, result: { success: true, durationMs: 1, observation: `Echoed "the key is ${KEY}".` } });
    chat.handle({ type: 'error', error: new GaiError('LLM_AUTH', `anthropic: 401 {"error":{"message":"invalid x-api-key ${KEY}"}}`) });
    chat.notice(`Navigate: failed with ${KEY}`);
    chat.addScreen('Screen', `token ghp_1234567890abcdefghijABCDEFGHIJ123456 on screen`);

    const everything = JSON.stringify(chat.entries) + JSON.stringify(posted);
    assert.ok(!everything.includes(KEY), everything);
    assert.ok(!everything.includes('ghp_1234567890'), everything);
    assert.equal(chat.entries.filter((e) => JSON.stringify(e).includes('[redacted]')).length, 4, 'the card, the error, the notice and the screen');
    const card = chat.entries[0];
    assert.ok(card?.kind === 'tool');
    assert.match(card.input, /the key is \[redacted\]/);
    assert.equal(card.observation, 'Echoed "the key is [redacted]".');
  });

  it('shows text unchanged without a redactor (tests and tools that need none)', () => {
    const chat = new ChatSession(() => {});
    chat.error('plain words');
    assert.deepEqual(chat.entries, [{ kind: 'error', text: 'plain words' }]);
  });

  it('the output channel gets every line redacted, at every level', () => {
    const lines: string[] = [];
    const channel = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (line: string) => lines.push(`${level} ${line}`)]));
    const logger = new OutputChannelLogger(channel as never, new SecretRedactor({ secrets: [KEY] }));
    logger.debug(`d ${KEY}`);
    logger.info(`i x-api-key: ${KEY}`);
    logger.warn(`w ${KEY}`);
    logger.error(`e ${KEY}`);
    assert.deepEqual(lines, ['debug d [redacted]', 'info i x-api-key: [redacted]', 'warn w [redacted]', 'error e [redacted]']);
  });
});
