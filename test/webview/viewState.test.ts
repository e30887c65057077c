// The webview's state: how host messages change it, and what is saved with setState.
import { strict as assert } from 'node:assert';
import type { ChatEntry, ScreenPicture } from '../../src/shared/protocol';
import { applyHostMessage, emptyState, restoreState, SAVED_PICTURES, stateForSaving } from '../../src/webview/viewState';

const picture = (n: number): ScreenPicture => ({ src: `data:image/jpeg;base64,AAA${n}`, width: 10, height: 10, boxes: [], points: [] });

describe('webview view state', () => {
  it('applies state, entry, appendText, running and usage messages and says what changed', () => {
    const state = emptyState();
    const usage = { requestInput: 1, requestOutput: 2, sessionInput: 3, sessionOutput: 4 };
    assert.deepEqual(applyHostMessage(state, { type: 'state', entries: [{ kind: 'user', text: 'hi' }], running: true, usage }), { kind: 'all' });
    assert.deepEqual(applyHostMessage(state, { type: 'entry', index: 1, entry: { kind: 'assistant', text: 'He' } }), { kind: 'entry', index: 1 });
    assert.deepEqual(applyHostMessage(state, { type: 'appendText', index: 1, text: 'llo' }), { kind: 'entry', index: 1 });
    assert.deepEqual(state.entries[1], { kind: 'assistant', text: 'Hello' });
    assert.deepEqual(applyHostMessage(state, { type: 'running', running: false }), { kind: 'controls' });
    assert.deepEqual(applyHostMessage(state, { type: 'usage', usage: { ...usage, sessionOutput: 9 } }), { kind: 'controls' });
    assert.equal(state.running, false);
    assert.equal(state.usage.sessionOutput, 9);
  });

  it('ignores appendText to a missing or non-assistant entry, and absurd indexes', () => {
    const state = emptyState();
    applyHostMessage(state, { type: 'entry', index: 0, entry: { kind: 'user', text: 'hi' } });
    assert.deepEqual(applyHostMessage(state, { type: 'appendText', index: 0, text: 'x' }), { kind: 'none' });
    assert.deepEqual(applyHostMessage(state, { type: 'appendText', index: 5, text: 'x' }), { kind: 'none' });
    assert.deepEqual(applyHostMessage(state, { type: 'entry', index: -1, entry: { kind: 'notice', text: 'x' } }), { kind: 'none' });
    assert.deepEqual(applyHostMessage(state, { type: 'entry', index: 1e9, entry: { kind: 'notice', text: 'x' } }), { kind: 'none' });
    assert.deepEqual(state.entries, [{ kind: 'user', text: 'hi' }]);
  });

  it('does not change an entry object that an earlier save may still hold', () => {
    const state = emptyState();
    applyHostMessage(state, { type: 'entry', index: 0, entry: { kind: 'assistant', text: 'a' } });
    const saved = stateForSaving(state);
    applyHostMessage(state, { type: 'appendText', index: 0, text: 'b' });
    assert.deepEqual(saved.entries[0], { kind: 'assistant', text: 'a' });
  });

  it(`saves pictures of the newest ${SAVED_PICTURES} screen entries only, keeping all text`, () => {
    const state = emptyState();
    const entries: ChatEntry[] = [
      { kind: 'screen', title: 's1', text: 't1', picture: picture(1) },
      { kind: 'user', text: 'u' },
      { kind: 'screen', title: 's2', text: 't2', picture: picture(2) },
      { kind: 'screen', title: 's3', text: 't3' },
      { kind: 'screen', title: 's4', text: 't4', picture: picture(4) },
      { kind: 'screen', title: 's5', text: 't5', picture: picture(5) },
    ];
    applyHostMessage(state, { type: 'state', entries, running: false, usage: state.usage });
    const saved = stateForSaving(state);
    const pictures = saved.entries.map((entry) => (entry.kind === 'screen' ? (entry.picture?.src.slice(-1) ?? '-') : 'u'));
    assert.deepEqual(pictures, ['-', 'u', '-', '-', '4', '5']);
    assert.deepEqual(saved.entries[0], { kind: 'screen', title: 's1', text: 't1' });
    // The live state keeps them all.
    assert.ok(state.entries[0]?.kind === 'screen' && state.entries[0].picture);
    assert.equal(stateForSaving(state, 0).entries.filter((e) => e.kind === 'screen' && e.picture).length, 0);
  });

  it('counts tool cards\' screens after their action with the screen pictures', () => {
    const state = emptyState();
    const card = (id: string, n: number): ChatEntry => ({ kind: 'tool', callId: id, name: 'click', input: '{}', risk: 'action', status: 'done', after: picture(n) });
    const entries: ChatEntry[] = [card('a', 1), { kind: 'screen', title: 's2', text: 't2', picture: picture(2) }, card('c', 3), card('d', 4)];
    applyHostMessage(state, { type: 'state', entries, running: false, usage: state.usage });
    const saved = stateForSaving(state, 2);
    const kept = saved.entries.map((entry) => (entry.kind === 'tool' ? (entry.after?.src.slice(-1) ?? '-') : entry.kind === 'screen' ? (entry.picture?.src.slice(-1) ?? '-') : '?'));
    assert.deepEqual(kept, ['-', '-', '3', '4']);
    assert.equal(saved.entries[0]?.kind === 'tool' && saved.entries[0].status, 'done', 'the card itself is kept');
  });

  it('restores a saved state and rejects what does not look like one', () => {
    const state = emptyState();
    applyHostMessage(state, { type: 'entry', index: 0, entry: { kind: 'user', text: 'hi' } });
    const restored = restoreState(JSON.parse(JSON.stringify(stateForSaving(state))));
    assert.deepEqual(restored, { entries: [{ kind: 'user', text: 'hi' }], running: false, usage: state.usage });
    for (const bad of [undefined, null, 'x', { entries: 'no' }, { entries: [] }]) assert.equal(restoreState(bad), undefined);
    assert.deepEqual(restoreState({ entries: [null, 3, { kind: 'notice', text: 'n' }], usage: {} })?.entries, [{ kind: 'notice', text: 'n' }]);
  });
});
