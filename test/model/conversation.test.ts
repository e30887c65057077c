import { strict as assert } from 'node:assert';
import type { ContentBlock, ImageBlock, Message, TextBlock, ToolResultBlock } from '../../src/model/messages';
import { Conversation, SCREENSHOT_STUB, TRIMMED_NOTE } from '../../src/model/conversation';
import { toAnthropicMessages } from '../../src/model/providers/anthropicMessages';

function shot(n: number): ImageBlock {
  return { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: `png-${n}` } };
}

const text = (t: string): TextBlock => ({ type: 'text', text: t });

/** Every image in the history, newest last, as its data, or STUB where it was pruned. */
function pictures(messages: readonly Message[]): string[] {
  const out: string[] = [];
  const visit = (block: ContentBlock | TextBlock | ImageBlock): void => {
    if (block.type === 'image') out.push(block.source.data);
    else if (block.type === 'text' && block.text === SCREENSHOT_STUB) out.push('STUB');
    else if (block.type === 'tool_result') block.content.forEach(visit);
  };
  for (const message of messages) message.content.forEach(visit);
  return out;
}

describe('Conversation', () => {
  it('alternates roles: a second user message merges into the first', () => {
    const c = new Conversation();
    c.addUserMessage('Open the settings');
    c.addUserMessage([text('and the display page'), shot(1)]);
    assert.equal(c.length, 1);
    assert.deepEqual(c.messages[0], {
      role: 'user',
      content: [text('Open the settings'), text('and the display page'), shot(1)],
    });
    c.addAssistantMessage('Done.');
    c.addUserMessage('Thanks');
    assert.deepEqual(
      c.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(c.problems(), []);
  });

  it('merges two assistant turns as well', () => {
    const c = new Conversation();
    c.addUserMessage('Hi');
    c.addAssistantMessage('One.');
    c.addAssistantMessage('Two.');
    assert.equal(c.length, 2);
    assert.deepEqual(c.messages[1]?.content, [text('One.'), text('Two.')]);
  });

  it('does not let the caller\'s array become the history', () => {
    const c = new Conversation();
    const blocks: Array<TextBlock | ImageBlock> = [text('a')];
    c.addUserMessage(blocks);
    blocks.push(text('b'));
    assert.deepEqual(c.messages[0]?.content, [text('a')]);
  });

  it('records tool calls as tool_use blocks after the text', () => {
    const c = new Conversation();
    c.addUserMessage('Click OK');
    c.addAssistantMessage('Clicking.', [{ id: 'tu_1', name: 'click', input: { text: 'OK' } }]);
    assert.deepEqual(c.messages[1], {
      role: 'assistant',
      content: [text('Clicking.'), { type: 'tool_use', id: 'tu_1', name: 'click', input: { text: 'OK' } }],
    });
  });

  it('does not add an assistant turn with no text and no calls', () => {
    const c = new Conversation();
    c.addUserMessage('Hi');
    c.addAssistantMessage('');
    c.addAssistantMessage('   \n', []);
    assert.equal(c.length, 1);
    assert.deepEqual(c.problems(), []);
  });

  it('drops whitespace-only text but keeps the calls', () => {
    const c = new Conversation();
    c.addUserMessage('Hi');
    c.addAssistantMessage('  ', [{ id: 'tu_1', name: 'look', input: {} }]);
    assert.deepEqual(
      c.messages[1]?.content.map((b) => b.type),
      ['tool_use'],
    );
  });

  it('places tool_result blocks before any text in the user turn, in the order they came', () => {
    const c = new Conversation();
    c.addUserMessage('Look twice');
    c.addAssistantMessage('', [
      { id: 'a', name: 'look', input: {} },
      { id: 'b', name: 'look', input: {} },
    ]);
    c.addToolResult('a', [text('first')]);
    c.addUserMessage('Hurry up');
    c.addToolResult('b', [text('second')], true);
    const user = c.messages[2];
    assert.equal(user?.role, 'user');
    assert.deepEqual(
      user?.content.map((b) => (b.type === 'tool_result' ? `result:${b.toolUseId}` : b.type)),
      ['result:a', 'result:b', 'text'],
    );
    assert.equal((user?.content[1] as ToolResultBlock).isError, true);
    assert.equal((user?.content[0] as ToolResultBlock).isError, false);
    assert.deepEqual(c.problems(), []);
  });

  describe('pending tool uses', () => {
    it('lists the calls of the last assistant turn without a result', () => {
      const c = new Conversation();
      c.addUserMessage('Do three things');
      c.addAssistantMessage('', [
        { id: 'a', name: 'one', input: {} },
        { id: 'b', name: 'two', input: {} },
        { id: 'c', name: 'three', input: {} },
      ]);
      c.addToolResult('b', [text('ok')]);
      assert.deepEqual(
        c.pendingToolUses().map((u) => u.id),
        ['a', 'c'],
      );
    });

    it('problems() reports unanswered calls once a later message exists, and answerPending() fixes them', () => {
      const c = new Conversation();
      c.addUserMessage('Go');
      c.addAssistantMessage('', [
        { id: 'a', name: 'click', input: {} },
        { id: 'b', name: 'type', input: {} },
      ]);
      c.addUserMessage('Stop!');
      assert.deepEqual(c.problems(), ['tool_use a has no tool_result', 'tool_use b has no tool_result']);
      assert.equal(c.answerPending('the request was cancelled'), 2);
      assert.deepEqual(c.pendingToolUses(), []);
      assert.deepEqual(c.problems(), []);
      const user = c.messages[2];
      assert.deepEqual(
        user?.content.map((b) => b.type),
        ['tool_result', 'tool_result', 'text'],
      );
      const result = user?.content[0] as ToolResultBlock;
      assert.equal(result.isError, true);
      assert.deepEqual(JSON.parse((result.content[0] as TextBlock).text), {
        success: false,
        code: 'CANCELLED',
        error: 'click was not run: the request was cancelled',
      });
      assert.equal(c.answerPending('again'), 0, 'nothing left to answer');
    });

    it('answerPending() on a trailing assistant turn makes the history valid for the next request', () => {
      const c = new Conversation();
      c.addUserMessage('Go');
      c.addAssistantMessage('Working', [{ id: 'x', name: 'click', input: {} }]);
      assert.equal(c.pendingToolUses().length, 1);
      c.answerPending('the request ended early');
      c.addUserMessage('Next request');
      assert.deepEqual(c.problems(), []);
      assert.deepEqual(
        c.messages.map((m) => m.role),
        ['user', 'assistant', 'user'],
      );
    });

    it('problems() reports a first message from the assistant', () => {
      const c = new Conversation();
      c.addAssistantMessage('Hello');
      assert.deepEqual(c.problems(), ['the first message is not from the user']);
    });

    it('has nothing pending in an empty conversation, and clear() empties it', () => {
      const c = new Conversation();
      assert.deepEqual(c.pendingToolUses(), []);
      c.addUserMessage('Hi');
      c.clear();
      assert.equal(c.length, 0);
      assert.deepEqual(c.messages, []);
    });
  });

  describe('screenshot pruning', () => {
    it('keeps the newest keepScreenshots user images and stubs the older ones', () => {
      const c = new Conversation(2);
      c.addUserMessage([text('one'), shot(1)]);
      c.addAssistantMessage('ok');
      c.addUserMessage([text('two'), shot(2)]);
      c.addAssistantMessage('ok');
      c.addUserMessage([text('three'), shot(3)]);
      assert.deepEqual(pictures(c.messages), ['STUB', 'png-2', 'png-3']);
      assert.deepEqual(c.messages[0]?.content[1], { type: 'text', text: SCREENSHOT_STUB });
    });

    it('counts images inside tool results, newest kept', () => {
      const c = new Conversation(2);
      c.addUserMessage([text('look'), shot(1)]);
      c.addAssistantMessage('', [
        { id: 'a', name: 'screenshot', input: {} },
        { id: 'b', name: 'screenshot', input: {} },
      ]);
      c.addToolResult('a', [text('first'), shot(2)]);
      assert.deepEqual(pictures(c.messages), ['png-1', 'png-2']);
      c.addToolResult('b', [text('second'), shot(3)]);
      assert.deepEqual(pictures(c.messages), ['STUB', 'png-2', 'png-3']);
      c.addAssistantMessage('', [{ id: 'c', name: 'screenshot', input: {} }]);
      c.addToolResult('c', [text('third'), shot(4), shot(5)]);
      assert.deepEqual(pictures(c.messages), ['STUB', 'STUB', 'STUB', 'png-4', 'png-5']);
      const firstResult = c.messages[2]?.content[0] as ToolResultBlock;
      assert.deepEqual(firstResult.content, [text('first'), { type: 'text', text: SCREENSHOT_STUB }]);
      assert.deepEqual(c.problems(), []);
    });

    it('keeps three screenshots by default', () => {
      const c = new Conversation();
      c.addUserMessage([shot(1), shot(2), shot(3), shot(4), shot(5)]);
      assert.deepEqual(pictures(c.messages), ['STUB', 'STUB', 'png-3', 'png-4', 'png-5']);
    });

    it('does not write the stub into the array a caller passed to addToolResult()', () => {
      const c = new Conversation(1);
      c.addUserMessage('look');
      c.addAssistantMessage('', [
        { id: 'a', name: 'screenshot', input: {} },
        { id: 'b', name: 'screenshot', input: {} },
      ]);
      const mine: Array<TextBlock | ImageBlock> = [text('first'), shot(1)];
      c.addToolResult('a', mine);
      c.addToolResult('b', [text('second'), shot(2)]);
      assert.deepEqual(pictures(c.messages), ['STUB', 'png-2']);
      assert.deepEqual(mine, [text('first'), shot(1)]);
    });

    it('stubs older screenshots a batch at a time: the sent prefix stays byte-identical between prunes', () => {
      /** Turns (1-based) whose request does not start with the previous request's messages, byte for byte. */
      const brokenPrefixes = (c: Conversation, turns: number): number[] => {
        const broken: number[] = [];
        let previous: string[] = [];
        c.addUserMessage('watch the screen');
        for (let turn = 1; turn <= turns; turn++) {
          c.addAssistantMessage('', [{ id: `t${turn}`, name: 'computer', input: { action: 'screenshot' } }]);
          c.addToolResult(`t${turn}`, [text('ok'), shot(turn)]);
          // The wire form without the moving cache breakpoint, message by message.
          const sent = toAnthropicMessages(c.messages).map((m) => JSON.stringify(m).replace(/,"cache_control":\{"type":"ephemeral"\}/g, ''));
          if (sent.slice(0, previous.length).join('\n') !== previous.join('\n')) broken.push(turn);
          previous = sent;
        }
        assert.deepEqual(c.problems(), []);
        return broken;
      };
      const batched = new Conversation(2, undefined, 3);
      assert.deepEqual(brokenPrefixes(batched, 14), [6, 10, 14]);
      assert.deepEqual(pictures(batched.messages).slice(-3), ['STUB', 'png-13', 'png-14']);
      assert.equal(pictures(batched.messages).filter((p) => p !== 'STUB').length, 2);
      // One at a time, every turn after the second changes the prefix.
      assert.deepEqual(brokenPrefixes(new Conversation(2), 6), [3, 4, 5, 6]);
    });

    it('stubs every image with keepScreenshots 0', () => {
      const c = new Conversation(0);
      c.addUserMessage([text('see'), shot(1)]);
      assert.deepEqual(pictures(c.messages), ['STUB']);
    });
  });

  describe('size budget', () => {
    const size = (c: Conversation): number => JSON.stringify(c.messages).length;

    it('keeps a long session within its budget, valid for the APIs, newest turns intact', () => {
      const c = new Conversation(3, 20_000);
      c.addUserMessage('click around a lot');
      for (let i = 0; i < 2_000; i++) {
        c.addAssistantMessage(i % 7 === 0 ? `step ${i}` : '', [{ id: `t${i}`, name: 'click', input: { text: `button ${i}` } }]);
        c.addToolResult(`t${i}`, [text(JSON.stringify({ success: true, observation: `clicked button ${i}`.padEnd(120, '.') }))]);
        if (i % 500 === 499) c.addUserMessage(`and now part ${i}`);
      }
      assert.deepEqual(c.problems(), []);
      assert.ok(size(c) < 30_000, `history is ${size(c)} characters`);
      const first = c.messages[0]!;
      assert.equal(first.role, 'user');
      assert.deepEqual(first.content.slice(0, 2), [text('click around a lot'), text(TRIMMED_NOTE)], 'the request stays, then the note');
      assert.ok(JSON.stringify(c.messages.at(-1)).includes('clicked button 1999'), 'the newest result is kept');
      assert.equal(c.pendingToolUses().length, 0);
    });

    it('never drops an unanswered call of the newest turn', () => {
      const c = new Conversation(3, 2_000);
      c.addUserMessage('go');
      for (let i = 0; i < 50; i++) {
        c.addAssistantMessage('', [{ id: `t${i}`, name: 'click', input: { text: 'x'.repeat(100) } }]);
        c.addToolResult(`t${i}`, [text('ok'.repeat(50))]);
      }
      c.addAssistantMessage('', [{ id: 'last', name: 'click', input: {} }]);
      assert.deepEqual(c.pendingToolUses().map((u) => u.id), ['last']);
      assert.equal(c.answerPending('cancelled'), 1);
      assert.deepEqual(c.problems(), []);
    });

    it('leaves a history under its budget exactly as it was', () => {
      const c = new Conversation(3, 1_000_000);
      c.addUserMessage('hello');
      c.addAssistantMessage('hi', [{ id: 'a', name: 'echo', input: { message: 'x' } }]);
      c.addToolResult('a', [text('x')]);
      assert.equal(c.messages.length, 3);
      assert.deepEqual(c.messages[0]?.content, [text('hello')]);
    });
  });
});
