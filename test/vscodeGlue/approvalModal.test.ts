import { strict as assert } from 'node:assert';
import { modalButtons, modalDecision } from '../../src/vscode/chat/approvalModal';

// The approval modal (when the chat is hidden): Enter takes the first button, which must be the
// safe answer; closing it (Cancel, Escape) decides nothing, so the model is not told "denied, do
// not repeat it" for a question the person only put aside. The modal itself is VS Code's.
describe('approval modal answers', () => {
  it('the default button (first, Enter) is Deny; each button decides its own answer', () => {
    assert.equal(modalButtons()[0]![0], 'Deny');
    assert.equal(modalDecision('Deny'), 'deny');
    assert.equal(modalDecision('Approve'), 'approve');
    assert.equal(modalDecision('Allow for this conversation'), 'always');
  });

  it('a call landing in an app nobody decided asks about the app in the same question', () => {
    const app = { name: 'galculator', undecided: true };
    assert.deepEqual(modalButtons(app).map(([label]) => label), ['Deny', 'Allow once', 'Allow in galculator for this conversation', 'Always allow in galculator']);
    assert.equal(modalDecision('Allow in galculator for this conversation', app), 'app-conversation');
    assert.equal(modalDecision('Always allow in galculator', app), 'app-always');
    // Once decided, "always" is no longer offered, and a tool-wide grant is not either.
    assert.deepEqual(modalButtons({ name: 'galculator', undecided: false }).map(([, decision]) => decision), ['deny', 'approve', 'app-conversation']);
    assert.equal(modalDecision('Allow for this conversation', app), undefined);
  });

  it('Cancel or Escape (no button) decides nothing: the chat card still asks', () => {
    assert.equal(modalDecision(undefined), undefined);
    assert.equal(modalDecision('Cancel'), undefined);
  });
});
