import { strict as assert } from 'node:assert';
import { DesktopUnavailableError } from '../../src/common/errors';
import type { AccessibilityPort } from '../../src/desktop/ports/accessibilityPort';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { createFakeDesktop, makeServices, runTool } from '../support/fakeDesktop';

// type_text through the focused field's accessibility interface (via: "accessibility"): no key
// event, the field's own check that it took the text, and the same secrecy as typing.

/** A tree that records the text it was asked to put into the focused field, or refuses with `refuse`. */
function fieldTree(refuse?: string): AccessibilityPort & { inserted: string[] } {
  return {
    name: 'fake-tree',
    inserted: [],
    available: () => Promise.resolve(true),
    elements: () => Promise.resolve([]),
    insertText(text) {
      if (refuse) return Promise.reject(new Error(refuse));
      this.inserted.push(text);
      return Promise.resolve();
    },
  };
}

describe('type_text through the accessibility tree (via: "accessibility")', () => {
  it('puts the text into the focused field with no key pressed, and says so', async () => {
    const fake = createFakeDesktop({});
    const tree = fieldTree();
    fake.accessibility = tree;
    const result = await runTool(new TypeTextTool(makeServices(fake)), { text: 'Ada café ✓', via: 'accessibility' });
    assert.equal(result.success, true, result.error);
    assert.deepEqual(tree.inserted, ['Ada café ✓']);
    assert.deepEqual(fake.input.calls, [], 'no key event');
    assert.match(result.observation, /^Put 10 character\(s\) into the focused field through its accessibility interface \(no key pressed\): "Ada café ✓"\.$/);
    assert.equal((result.data as { via?: string }).via, 'accessibility');
  });

  it('a secret is put in as it is and never shown; a refusal names the field, never the text', async () => {
    const fake = createFakeDesktop({});
    const tree = fieldTree();
    fake.accessibility = tree;
    const secret = await runTool(new TypeTextTool(makeServices(fake)), { text: 'hunter2-pass', via: 'accessibility', secret: true });
    assert.equal(secret.success, true, secret.error);
    assert.deepEqual(tree.inserted, ['hunter2-pass']);
    assert.ok(!JSON.stringify(secret).includes('hunter2'), JSON.stringify(secret));
    fake.accessibility = fieldTree('the focused element (push button) is not an editable text field');
    const refused = await runTool(new TypeTextTool(makeServices(fake)), { text: 'hunter2-pass', via: 'accessibility', secret: true });
    assert.equal(refused.code, 'FAILED');
    assert.match(refused.error ?? '', /Could not put the text into the focused field through the accessibility tree \(the focused element \(push button\) is not an editable text field\); nothing was typed/);
    assert.ok(!JSON.stringify(refused).includes('hunter2'));
    assert.deepEqual(fake.input.calls, []);
  });

  it('where the desktop takes no key input, plain typing puts the text in through the tree; Enter cannot be', async () => {
    const fake = createFakeDesktop({});
    const tree = fieldTree();
    fake.accessibility = tree;
    fake.input.typeText = () => Promise.reject(new DesktopUnavailableError('no key input on this desktop', 'log into an X11 session'));
    const typed = await runTool(new TypeTextTool(makeServices(fake)), { text: 'hello' });
    assert.equal(typed.success, true, typed.error);
    assert.deepEqual(tree.inserted, ['hello']);
    await assert.rejects(runTool(new TypeTextTool(makeServices(fake)), { text: 'hello', pressEnter: true }), DesktopUnavailableError);
    const both = await runTool(new TypeTextTool(makeServices(fake)), { text: 'hello', pressEnter: true, via: 'accessibility' });
    assert.equal(both.code, 'INVALID_INPUT');
    assert.match(both.error ?? '', /pressEnter: Enter is a key press, and via "accessibility" presses none/);
  });
});
