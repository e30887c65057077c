// The approval asked in a modal when the chat is not visible (approvalRouter.ts): its buttons,
// the default (Enter) first and the safe one, and what each decides. When the call lands in an
// app, the same answers as the card: once, the app for this conversation, always there (first
// time only).
import type { ApprovalApp, ApprovalDecision } from '../../runtime/runtimeTypes';

export function modalButtons(app?: Pick<ApprovalApp, 'name' | 'undecided'>): ReadonlyArray<readonly [string, ApprovalDecision]> {
  if (!app) {
    return [
      ['Deny', 'deny'],
      ['Approve', 'approve'],
      ['Allow for this conversation', 'always'],
    ];
  }
  return [
    ['Deny', 'deny'],
    [app.undecided ? 'Allow once' : 'Approve', 'approve'],
    [`Allow in ${app.name} for this conversation`, 'app-conversation'],
    ...(app.undecided ? [[`Always allow in ${app.name}`, 'app-always'] as const] : []),
  ];
}

/** What a button of the modal decides; undefined when it was closed (Cancel, Escape): nothing, the card still asks. */
export function modalDecision(choice: string | undefined, app?: Pick<ApprovalApp, 'name' | 'undecided'>): ApprovalDecision | undefined {
  return modalButtons(app).find(([label]) => label === choice)?.[1];
}
