// The approval asked in a modal when the chat is not visible (approvalRouter.ts): its buttons,
// the default (Enter) first and the safe one, and what each decides.
import type { ApprovalDecision } from '../../runtime/runtimeTypes';

export const MODAL_BUTTONS: ReadonlyArray<readonly [string, ApprovalDecision]> = [
  ['Deny', 'deny'],
  ['Approve', 'approve'],
  ['Allow for this conversation', 'always'],
];

/** What a button of the modal decides; undefined when it was closed (Cancel, Escape): nothing, the card still asks. */
export function modalDecision(choice: string | undefined): ApprovalDecision | undefined {
  return MODAL_BUTTONS.find(([label]) => label === choice)?.[1];
}
