import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { terminalApproval } from '../../src/cli/terminalApproval';
import type { ToolCall } from '../../src/model/messages';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { ChatSession } from '../../src/vscode/chat/chatSession';
import { createFakeDesktop, makeServices, type FakeDesktop } from '../support/fakeDesktop';

// Issue 11: invisible and control characters in what the model asks to type are shown escaped
// wherever a person approves or sees the call; what is typed is unchanged.

const HIDDEN = '\u202eabc\u200b\x1b[31m';
/** Any character the person could not see, or that would act on a terminal or reorder text. */
// eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
const RAW_INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

function typeCall(input: Record<string, unknown>): ToolCall {
  return { id: 'call_1', name: 'type_text', input };
}

function runtimeAsking(fake: FakeDesktop, requests: ApprovalRequest[], answer: 'approve' | 'deny' = 'approve'): ToolRuntime {
  const registry = new ToolRegistry();
  registry.register(new TypeTextTool(makeServices(fake)));
  return new ToolRuntime(registry, {
    requestApproval: async (request) => {
      requests.push(request);
      return answer;
    },
  });
}

describe('approvals show invisible characters escaped', () => {
  it('the runtime asks with a summary that shows every character, and types the text unchanged', async () => {
    const fake = createFakeDesktop();
    const requests: ApprovalRequest[] = [];
    const outcome = await runtimeAsking(fake, requests).executeTurn([typeCall({ text: HIDDEN, delay: 0 })], new AbortController().signal);
    assert.equal(requests.length, 1);
    const summary = requests[0]!.summary;
    assert.ok(summary.startsWith('type_text {"text":"\\u202eabc\\u200b\\u001b[31m",'), summary);
    assert.doesNotMatch(summary, RAW_INVISIBLE);
    assert.deepEqual(fake.input.calls, [{ type: 'type', text: HIDDEN, delayMs: 0 }], 'the text typed is the one asked for');
    // The result the card shows after the call escapes them too.
    assert.match(outcome.results[0]?.observation ?? '', /"\\u202eabc\\u200b\\x1b\[31m"/);
    assert.doesNotMatch(outcome.results[0]?.observation ?? '', RAW_INVISIBLE);
  });

  it('a denial names the call with the escapes', async () => {
    const outcome = await runtimeAsking(createFakeDesktop(), [], 'deny').executeTurn([typeCall({ text: HIDDEN })], new AbortController().signal);
    assert.equal(outcome.results[0]?.code, 'DENIED');
    assert.match(outcome.results[0]?.observation ?? '', /\\u202eabc\\u200b\\u001b\[31m/);
    assert.doesNotMatch(outcome.results[0]?.observation ?? '', RAW_INVISIBLE);
  });

  it('a secret stays masked: masking comes first, escaping only shows what is left', async () => {
    const requests: ApprovalRequest[] = [];
    await runtimeAsking(createFakeDesktop(), requests).executeTurn([typeCall({ text: `${HIDDEN}hunter2-horse`, secret: true, delay: 0 })], new AbortController().signal);
    const summary = requests[0]!.summary;
    assert.doesNotMatch(summary, /hunter2|abc/);
    assert.match(summary, /•/);
    assert.doesNotMatch(summary, RAW_INVISIBLE);
  });

  it("the CLI's approval prompt shows the escapes, and the note too", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
    const requests: ApprovalRequest[] = [];
    await runtimeAsking(createFakeDesktop(), requests).executeTurn([typeCall({ text: HIDDEN })], new AbortController().signal);
    const request = { ...requests[0]!, note: `a step of a path\u202e named "evil"\x1b[2J` };
    const answer = terminalApproval(input, output)(request, new AbortController().signal);
    setImmediate(() => input.write('n\n'));
    assert.equal(await answer, 'deny');
    assert.match(printed, /Allow action tool type_text \{"text":"\\u202eabc\\u200b\\u001b\[31m",[^}]*\}\? \[y\]es/);
    assert.match(printed, /a step of a path\\u202e named "evil"\\x1b\[2J\n/);
    // eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
    assert.doesNotMatch(printed, /[\u202e\u200b\x1b]/, 'no raw invisible or escape character reaches the terminal');
  });

  it("the VS Code chat card's input shows the escapes as text", async () => {
    const requests: ApprovalRequest[] = [];
    await runtimeAsking(createFakeDesktop(), requests).executeTurn([typeCall({ text: HIDDEN })], new AbortController().signal);
    const chat = new ChatSession(() => {});
    void chat.waitForApproval(requests[0]!, new AbortController().signal);
    const entry = chat.entries[0];
    assert.ok(entry?.kind === 'tool');
    assert.match(entry.input, /"text": "\\u202eabc\\u200b\\u001b\[31m"/);
    assert.doesNotMatch(entry.input.replace(/\n/g, ' '), RAW_INVISIBLE);
    chat.denyPending();
  });

  it("the chat card's result shows invisible characters of an observation escaped, keeping its lines", () => {
    const chat = new ChatSession(() => {});
    const call = { id: 'call_2', name: 'click', input: { text: 'Save' } };
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    chat.handle({ type: 'tool_finished', call, result: { success: true, observation: 'Clicked "\u202eevas"\nnext line', durationMs: 1 } });
    const entry = chat.entries[0];
    assert.ok(entry?.kind === 'tool');
    assert.equal(entry.observation, 'Clicked "\\u202eevas"\nnext line');
  });
});
