import type { ExecuteOptions } from '../../runtime/toolRuntime';
import type { BrainPath, PathAction } from '../store/brainTypes';
import { describeAction } from './pathActions';
import { isTrusted } from './pathTrust';

// How each replayed step is approved. The person approved navigate_to, and the steps of a path
// learned here were approved one by one when they ran, so those replay without asking. Never
// without asking: the steps of an imported path nobody confirmed, and a step whose label does
// something that cannot be taken back (Delete, Send, Pay, …), whoever learned it.

/** Labels of actions a person wants to see before they happen again. */
export const DEFAULT_CONSEQUENTIAL_LABELS = [
  'Delete', 'Remove', 'Send', 'Pay', 'Buy', 'Purchase', 'Order', 'Submit', 'Confirm', 'Format', 'Erase', 'Wipe',
  'Uninstall', 'Sign out', 'Log out', 'Discard', 'Empty Trash', 'Transfer', 'Publish', 'Overwrite', 'Reset',
];

/** Keys that act on a selection with no undo in many apps (a file manager's Delete). */
const CONSEQUENTIAL_KEYS = new Set(['delete', 'del']);

export type StepApproval = Required<Pick<ExecuteOptions, 'approval'>> & Pick<ExecuteOptions, 'approvalNote' | 'approvalKind'>;

export function stepApproval(path: BrainPath, index: number, action: PathAction, consequentialLabels: readonly string[] = DEFAULT_CONSEQUENTIAL_LABELS): StepApproval {
  const step = `step ${index + 1} of ${path.actions.length} (${describeAction(action)})`;
  if (!isTrusted(path)) {
    return {
      approval: 'required',
      approvalKind: 'untrusted-path',
      approvalNote: `Replaying ${step} of path ${path.id}, which was imported and not confirmed yet (gai brain confirm --path ${path.id}).`,
    };
  }
  const label = consequentialLabel(action, consequentialLabels);
  if (label) {
    return { approval: 'required', approvalKind: 'consequential', approvalNote: `Replaying ${step}: "${label}" may not be undoable, so it asks every time.` };
  }
  return { approval: 'skip' };
}

/** The consequential label a step acts on, if any (whole words, any case). */
export function consequentialLabel(action: PathAction, labels: readonly string[]): string | undefined {
  if (action.tool === 'press_key') {
    const keys = Array.isArray(action.input.key) ? action.input.key : [action.input.key];
    return keys.find((key) => CONSEQUENTIAL_KEYS.has(key.toLowerCase()));
  }
  const text = action.tool === 'click' || action.tool === 'scroll' ? action.input.text : undefined;
  if (text === undefined) return undefined;
  return labels.find((label) => wordPattern(label).test(text));
}

function wordPattern(label: string): RegExp {
  const escaped = label.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu');
}
