import { strict as assert } from 'node:assert';
import type { HostMessage } from '../../src/shared/protocol';
import { ChatSession } from '../../src/vscode/chat/chatSession';

const call = { id: 'toolu_1', name: 'click', input: { text: 'Save' } };

describe('chat session: the "thinking" row', () => {
  it('thinks from each iteration to the first text or tool call, and stops when the request ends', () => {
    const posted: HostMessage[] = [];
    const chat = new ChatSession((message) => posted.push(message));
    chat.setRunning(true);
    const before = Date.now();
    chat.handle({ type: 'iteration', iteration: 1, maxIterations: 5 });
    assert.ok(chat.thinkingSince !== undefined && chat.thinkingSince >= before);
    assert.equal((chat.snapshot() as { thinkingSince?: number }).thinkingSince, chat.thinkingSince, 'a view shown again sees the same start');
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    assert.equal(chat.thinkingSince, undefined);
    chat.handle({ type: 'iteration', iteration: 2, maxIterations: 5 });
    assert.notEqual(chat.thinkingSince, undefined);
    chat.handle({ type: 'text_delta', text: 'Done' });
    assert.equal(chat.thinkingSince, undefined);
    chat.handle({ type: 'iteration', iteration: 3, maxIterations: 5 });
    chat.setRunning(false); // cancelled while the model thought
    assert.equal(chat.thinkingSince, undefined);
    const thinking = posted.filter((message) => message.type === 'thinking');
    assert.deepEqual(
      thinking.map((message) => message.type === 'thinking' && message.since !== undefined),
      [true, false, true, false, true, false],
    );
    assert.equal('thinkingSince' in chat.snapshot(), false);
  });

  it('a cancelled request keeps what its finished model calls spent', () => {
    const chat = new ChatSession(() => {});
    chat.beginUsage();
    chat.handle({ type: 'iteration', iteration: 1, maxIterations: 5 });
    chat.countUsage({ inputTokens: 1_000, outputTokens: 50 });
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    chat.countUsage({ inputTokens: 300, outputTokens: 10 }); // the screen reader the tool ran
    chat.handle({ type: 'tool_finished', call, result: { success: false, code: 'CANCELLED', durationMs: 5, observation: 'Cancelled.' } });
    chat.setRunning(false);
    assert.deepEqual(chat.usage, { requestInput: 1_300, requestOutput: 60, sessionInput: 1_300, sessionOutput: 60 });
  });
});
