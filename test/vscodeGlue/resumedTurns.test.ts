import { strict as assert } from 'node:assert';
import type { ChatEntry } from '../../src/shared/protocol';
import { turnsFromEntries } from '../../src/vscode/chat/resumedTurns';

// A reopened conversation goes on: what the chat kept becomes the model's history, in words.
describe('a reopened conversation as the model history', () => {
  it('requests, replies and the actions between them, in order; errors, notices and pictures left out', () => {
    const entries: ChatEntry[] = [
      { kind: 'user', text: 'add 7 and 8' },
      { kind: 'assistant', text: 'Pressing 7.' },
      { kind: 'tool', callId: 'a', name: 'click', input: '{\n  "text": "7"\n}', risk: 'action', status: 'done', observation: 'Clicked "7" at (1520, 570).', after: { src: 'data:image/jpeg;base64,AAAA', width: 1, height: 1, boxes: [], points: [] } },
      { kind: 'tool', callId: 'b', name: 'click', input: '{\n  "text": "+"\n}', risk: 'action', status: 'denied', observation: 'You denied it; nothing was done.' },
      { kind: 'assistant', text: 'You denied the plus key.' },
      { kind: 'error', text: 'The model server answered 500.' },
      { kind: 'notice', text: '[Cancelled]' },
      { kind: 'user', text: 'try again' },
    ];
    assert.deepEqual(turnsFromEntries(entries), [
      { role: 'user', text: 'add 7 and 8' },
      { role: 'assistant', text: 'Pressing 7.\n[click { "text": "7" }: done. Clicked "7" at (1520, 570).]\n[click { "text": "+" }: denied. You denied it; nothing was done.]\nYou denied the plus key.' },
      { role: 'user', text: 'try again' },
    ]);
  });

  it('keeps the newest turns within its budget and starts with a person\'s turn', () => {
    const entries: ChatEntry[] = [];
    for (let i = 0; i < 200; i++) entries.push({ kind: 'user', text: `request ${i} ${'x'.repeat(400)}` }, { kind: 'assistant', text: `reply ${i} ${'y'.repeat(400)}` });
    const turns = turnsFromEntries(entries);
    assert.ok(turns.length < 400 && turns.length > 50, `${turns.length} turns`);
    assert.equal(turns[0]?.role, 'user');
    assert.match(turns.at(-1)!.text, /^reply 199/);
    assert.ok(turns.reduce((sum, turn) => sum + turn.text.length, 0) <= 60_000);
  });
});
