import { strict as assert } from 'node:assert';
import type { HostMessage } from '../../src/shared/protocol';
import { ChatSession } from '../../src/vscode/chat/chatSession';
import { deniedInWords, withTextRead } from '../../src/vscode/chat/cardWords';
import { screenTextBlock } from '../../src/common/screenText';
import { ToolResults } from '../../src/tools/toolResult';

const call = { id: 'toolu_1', name: 'click', input: { text: 'Save' } };

describe('chat session (host side of the chat view)', () => {
  it('streams text into one assistant entry and tracks a tool card through its states', () => {
    const posted: HostMessage[] = [];
    const chat = new ChatSession((message) => posted.push(message));
    chat.countUsage({ inputTokens: 200, outputTokens: 30 }); // an earlier request
    chat.beginUsage();
    chat.addUser('save the file');
    chat.handle({ type: 'text_delta', text: 'Click' });
    chat.handle({ type: 'text_delta', text: 'ing Save.' });
    chat.handle({ type: 'assistant_message', text: 'Clicking Save.', toolCalls: [call] });
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    chat.handle({ type: 'tool_finished', call, result: { success: true, durationMs: 42, observation: 'Clicked "Save" at (10, 20).' } });
    // Every model call is counted once (the agent's turn, a screen reader's call); the agent's own usage event adds nothing.
    chat.countUsage({ inputTokens: 60, outputTokens: 15 });
    chat.countUsage({ inputTokens: 40, outputTokens: 5 });
    chat.handle({ type: 'usage', request: { inputTokens: 100, outputTokens: 20 }, session: { inputTokens: 300, outputTokens: 50 } });

    assert.deepEqual(chat.entries, [
      { kind: 'user', text: 'save the file' },
      { kind: 'assistant', text: 'Clicking Save.' },
      { kind: 'tool', callId: 'toolu_1', name: 'click', input: '{\n  "text": "Save"\n}', risk: 'action', status: 'done', durationMs: 42, observation: 'Clicked "Save" at (10, 20).' },
    ]);
    assert.deepEqual(chat.usage, { requestInput: 100, requestOutput: 20, sessionInput: 300, sessionOutput: 50 });
    assert.deepEqual(posted.filter((m) => m.type === 'appendText').map((m) => (m.type === 'appendText' ? m.text : '')), ['Click', 'ing Save.']);
    assert.deepEqual(chat.snapshot(), { type: 'state', entries: chat.entries, running: false, usage: chat.usage });
  });

  it('shows the approval even when the runtime asks before tool_started has arrived', async () => {
    const chat = new ChatSession(() => {});
    const signal = new AbortController().signal;
    const answer = chat.waitForApproval({ call, risk: 'action', summary: 'click "Save"' }, signal);
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    assert.equal(chat.entries[0]?.kind === 'tool' && chat.entries[0].status, 'awaiting_approval');
    assert.equal(chat.answerApproval(call.id, 'approve'), true);
    assert.equal(await answer, 'approve');
    chat.handle({ type: 'approval_resolved', call, decision: 'approve' });
    assert.equal(chat.entries[0]?.kind === 'tool' && chat.entries[0].status, 'running');
  });

  it("the agent's call asked about before its events arrive: the card comes after the words that lead up to it", async () => {
    const chat = new ChatSession(() => {});
    chat.addUser('add 7 and 8');
    // Heard at once from the agent (its listener), while the stream still carries the lead-in.
    chat.callStarting(call.id);
    const app = { name: 'galculator', key: 'galculator', undecided: true };
    const answer = chat.waitForApproval({ call, risk: 'action', summary: 'click "+"', app }, new AbortController().signal, { text: 'Click **+**', app: { name: 'galculator', undecided: true } });
    assert.equal(chat.entries.length, 1, 'the card jumped ahead of the words');
    assert.equal(chat.showsCall(call.id), true);
    chat.handle({ type: 'text_delta', text: 'Now the plus key.' });
    chat.handle({ type: 'assistant_message', text: 'Now the plus key.', toolCalls: [call] });
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    assert.deepEqual(chat.entries.map((e) => e.kind), ['user', 'assistant', 'tool']);
    const card = chat.entries[2];
    assert.ok(card?.kind === 'tool');
    assert.equal(card.status, 'awaiting_approval');
    assert.deepEqual(card.approval, { text: 'Click **+**', app: { name: 'galculator', undecided: true } });
    // An app answer is taken only because this card asked about the app.
    assert.equal(chat.answerApproval(call.id, 'app-conversation'), true);
    assert.equal(await answer, 'app-conversation');
  });

  it('an app answer on a card that named no app is refused (stale or forged)', () => {
    const chat = new ChatSession(() => {});
    void chat.waitForApproval({ call, risk: 'action', summary: '' }, new AbortController().signal, { text: 'Click **Save**' });
    assert.equal(chat.answerApproval(call.id, 'app-always'), false);
    assert.equal(chat.pendingApprovals, 1);
    chat.denyPending();
  });

  it('resolves an approval from the webview once, and ignores stale or forged answers', async () => {
    const chat = new ChatSession(() => {});
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    const decision = chat.waitForApproval({ call, risk: 'action', summary: 'click {"text":"Save"}' }, new AbortController().signal);
    assert.equal(chat.entries[0]?.kind === 'tool' && chat.entries[0].status, 'awaiting_approval');
    assert.equal(chat.answerApproval('someone-else', 'approve'), false);
    assert.equal(chat.answerApproval('toolu_1', 'always'), true);
    assert.equal(await decision, 'always');
    assert.equal(chat.answerApproval('toolu_1', 'approve'), false);
    assert.equal(chat.pendingApprovals, 0);
  });

  it('denies a pending approval when the request is cancelled or the conversation cleared', async () => {
    const chat = new ChatSession(() => {});
    const controller = new AbortController();
    const cancelled = chat.waitForApproval({ call, risk: 'action', summary: '' }, controller.signal);
    controller.abort();
    assert.equal(await cancelled, 'deny');
    const cleared = chat.waitForApproval({ call: { ...call, id: 'toolu_2' }, risk: 'action', summary: '' }, new AbortController().signal);
    chat.clear();
    assert.equal(await cleared, 'deny');
    assert.deepEqual(chat.entries, []);
  });

  it('a denied call is said in words on its card, not in the model\'s form of the call (which still goes to the model)', async () => {
    const chat = new ChatSession(() => {});
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    const denied = ToolResults.denied('click', 'click {"text":"Save"}');
    assert.match(denied.observation, /click \{"text":"Save"\}/, 'the model is told which call did not run');
    const answer = chat.waitForApproval({ call, risk: 'action', summary: 'click {"text":"Save"}' }, new AbortController().signal);
    chat.answerApproval(call.id, 'deny');
    await answer;
    chat.handle({ type: 'approval_resolved', call, decision: 'deny' });
    chat.handle({ type: 'tool_finished', call, result: { ...denied, durationMs: 1 } });
    const card = chat.entries[0];
    assert.equal(card?.kind === 'tool' && card.status, 'denied');
    assert.equal(card?.kind === 'tool' && card.observation, 'You denied it; nothing was done.');
    // Refused by a rule, not by the person: the reason, without the call's JSON.
    assert.equal(deniedInWords(ToolResults.denied('click', 'click {"text":"5"}', 'no one could approve it: the chat is closed').observation, false), 'Not done: no one could approve it: the chat is closed.');
    assert.equal(deniedInWords('click did NOT run: GAI may not act in Terminal: it is in gai.apps.deny.', false), 'Not done: GAI may not act in Terminal: it is in gai.apps.deny.');
  });

  it('a navigation\'s step cards (opened by asking) end when the step ends: not left "waiting for approval"', async () => {
    const chat = new ChatSession(() => {});
    const step = { id: 'replay-1', name: 'click', input: { text: 'Network' } };
    const answered = chat.waitForApproval({ call: step, risk: 'action', summary: 'click {"text":"Network"}', kind: 'untrusted-path' }, new AbortController().signal);
    assert.equal(chat.entries[0]?.kind === 'tool' && chat.entries[0].status, 'awaiting_approval');
    chat.answerApproval(step.id, 'approve');
    await answered;
    assert.equal(chat.entries[0]?.kind === 'tool' && chat.entries[0].status, 'running', 'answered: no longer waiting');
    chat.stepFinished({ ok: true, observation: 'Clicked "Network" at (40, 80).', durationMs: 35 });
    assert.deepEqual(chat.entries[0]?.kind === 'tool' && [chat.entries[0].status, chat.entries[0].observation, chat.entries[0].durationMs], ['done', 'Clicked "Network" at (40, 80).', 35]);
    // A denied step ends at once; a learning agent's call ends with its own event; its other events are not the chat's.
    const denied = chat.waitForApproval({ call: { ...step, id: 'replay-2' }, risk: 'action', summary: '' }, new AbortController().signal);
    chat.answerApproval('replay-2', 'deny');
    await denied;
    assert.deepEqual(chat.entries[1]?.kind === 'tool' && [chat.entries[1].status, chat.entries[1].observation], ['denied', 'You denied it; nothing was done.']);
    const learner = { id: 'learn-1', name: 'click', input: { text: 'Wi-Fi' } };
    const learned = chat.waitForApproval({ call: learner, risk: 'action', summary: '' }, new AbortController().signal);
    chat.answerApproval('learn-1', 'approve');
    await learned;
    chat.followNavigationEvent({ type: 'text_delta', text: 'Now Wi-Fi.' });
    chat.followNavigationEvent({ type: 'tool_finished', call: learner, result: { success: true, durationMs: 20, observation: 'Clicked "Wi-Fi".' } });
    assert.equal(chat.entries.length, 3, 'the learning agent\'s narration is not added to the chat');
    assert.deepEqual(chat.entries[2]?.kind === 'tool' && [chat.entries[2].status, chat.entries[2].observation], ['done', 'Clicked "Wi-Fi".']);
    // Nothing left running to take a later step's end.
    chat.stepFinished({ ok: false, observation: 'late', durationMs: 1 });
    assert.deepEqual(chat.entries.map((e) => (e.kind === 'tool' ? e.status : e.kind)), ['done', 'denied', 'done']);
  });

  it('a screen reading\'s card shows the first lines read, not only how many words', () => {
    const chat = new ChatSession(() => {});
    const ocr = { id: 'o1', name: 'ocr', input: {} };
    chat.handle({ type: 'tool_started', call: ocr, risk: 'read' });
    const fullText = screenTextBlock('Calculator\n15\n\n7 8 9 /\n4 5 6 *', { source: 'ocr', area: 'the screen' });
    chat.handle({ type: 'tool_finished', call: ocr, result: { success: true, durationMs: 30, observation: 'Read 12 word(s) from the screen.', data: { fullText } } });
    assert.equal(chat.entries[0]?.kind === 'tool' && chat.entries[0].observation, 'Read 12 word(s) from the screen.\nCalculator\n15\n7 8 9 /\n4 5 6 *');
    const many = screenTextBlock(Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n'), { source: 'ocr' });
    assert.match(withTextRead('Read 24 word(s).', { fullText: many }), /line 8\n… and 4 more line\(s\)$/);
    assert.equal(withTextRead('Read 0 word(s).', { fullText: screenTextBlock('', { source: 'ocr' }) }), 'Read 0 word(s).\nNo text was read.');
    assert.equal(withTextRead('Clicked "7".', { point: { x: 1, y: 2 } }), 'Clicked "7".');
  });
});
