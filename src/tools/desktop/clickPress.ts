// A click by text done through the element's accessibility action, its effect checked, and what
// follows when it did not take: with `via: "accessibility"` the answer says so; with the person's
// "accessibility first" the pointer may click instead, but only once the pointer itself is
// approved (ToolContext.pointerFallback): an approval that said the pointer stays never covers it.
import type { DesktopServices } from '../../desktop/desktopServices';
import { pointerTarget } from '../actionTarget';
import type { ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import type { ToolResult } from '../toolTypes';
import { elementRef, noElement, notPressed, pressByTree, type Found } from './pressByTree';
import { pressAndWatch, type PressOutcome } from './watchedPress';

/**
 * `action`: pressed (and whether anything changed); `pointer`: it did not take and the pointer
 * was approved, so click with it; `result`: the answer, nothing more is done.
 */
export type TreePress = { action: string; data: Record<string, unknown> } | { pointer: true; data: Record<string, unknown> } | { result: ToolResult };

export async function pressViaTree(services: DesktopServices, located: Found, text: string, options: { only: boolean; context: ToolContext }): Promise<TreePress> {
  const { desktop } = services;
  const { signal } = options.context;
  const at = await pointerTarget(desktop.windows, [located.point]);
  const target = 'target' in at ? at.target : undefined;
  const ref = await elementRef(desktop.accessibility, located, text, signal);
  const outcome: PressOutcome | { error: string } = ref ? await pressAndWatch(desktop, ref, target?.windows[0]?.bounds, signal) : { error: noElement(desktop.accessibility, located) };
  if ('action' in outcome && (outcome.took || options.only)) return { action: outcome.action, data: { changed: outcome.took, ...(outcome.seen ? { seen: outcome.seen } : {}) } };
  if ('error' in outcome && options.only) {
    // The same answers as an unchecked press: why nothing was pressed.
    const plain = ref ? { failure: notPressed(located, outcome.error) } : await pressByTree(desktop.accessibility, located, text, signal);
    return { result: 'failure' in plain ? plain.failure : notPressed(located, outcome.error) };
  }
  const tried = 'action' in outcome ? { pressAction: outcome.action, changed: false } : { pressError: outcome.error };
  const what = 'action' in outcome ? `pressing "${text}" through its accessibility action "${outcome.action}" changed nothing` : `"${text}" could not be pressed through accessibility (${outcome.error})`;
  const refused = target && options.context.pointerFallback ? await options.context.pointerFallback({ ...target, element: { box: located.bbox, text: located.text } }) : noApprover();
  if (!refused) return { pointer: true, data: tried };
  if (refused.code === 'CANCELLED') return { result: refused };
  const why = refused.code === 'DENIED' ? 'the pointer was not approved' : (refused.error ?? refused.observation);
  return {
    result: ToolResults.failure(refused.code === 'DENIED' ? 'DENIED' : 'FAILED', `The click on "${text}" did not take: ${what}, and the pointer was not used (${why}).`, {
      observation: `Did NOT take: ${what}; the pointer was not used (${why}).`,
      hint: 'Read the screen to see what is there; to use the pointer, click with via: "pointer" (it is asked about like any pointer click).',
      data: { mode: 'text', text, via: 'accessibility', ...tried, pointerUsed: false },
    }),
  };
}

function noApprover(): ToolResult {
  return ToolResults.failure('FAILED', 'nothing here can approve a pointer click');
}
