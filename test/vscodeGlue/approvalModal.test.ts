import { strict as assert } from 'node:assert';
import { MODAL_BUTTONS, modalDecision } from '../../src/vscode/chat/approvalModal';

// The approval modal (when the chat is hidden): Enter takes the first button, which must be the
// safe answer; closing it (Cancel, Escape) decides nothing, so the model is not told "denied, do
// not repeat it" for a question the person only put aside. The modal itself is VS Code's.
describe('approval modal answers', () => {
  it('the default button (first, Enter) is Deny; each button decides its own answer', () => {
    assert.equal(MODAL_BUTTONS[0]![0], 'Deny');
    assert.equal(modalDecision('Deny'), 'deny');
    assert.equal(modalDecision('Approve'), 'approve');
    assert.equal(modalDecision('Allow for this conversation'), 'always');
  });

  it('Cancel or Escape (no button) decides nothing: the chat card still asks', () => {
    assert.equal(modalDecision(undefined), undefined);
    assert.equal(modalDecision('Cancel'), undefined);
  });
});
