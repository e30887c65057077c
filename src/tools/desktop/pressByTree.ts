import { DesktopUnavailableError, errorMessage } from '../../common/errors';
import { quoteScreenText } from '../../common/screenText';
import { containsPoint } from '../../common/geometry';
import { locateAccessible } from '../../desktop/grounding/accessibleLocator';
import type { AccessibilityPort } from '../../desktop/ports/accessibilityPort';
import type { TargetResult } from '../../desktop/grounding/locateTypes';
import type { ToolResult } from '../toolTypes';
import { ToolResults } from '../toolResult';

// A label found in the accessibility tree pressed through its toolkit's action (AT-SPI Action)
// instead of the pointer: the person's pointer stays where it is, and a button is still pressed
// on a desktop that takes no synthetic input (a Wayland compositor GAI cannot drive).

export type Found = Extract<TargetResult, { status: 'found' }>;

/** The action done ("click", "press"...), or the failed result that says why nothing was pressed. */
export async function pressByTree(tree: AccessibilityPort | undefined, located: Found, text: string, signal?: AbortSignal): Promise<{ action: string } | { failure: ToolResult }> {
  const ref = await elementRef(tree, located, text, signal);
  if (!ref || !tree?.perform) return { failure: cannotPress(text, noElement(tree, located)) };
  try {
    return { action: await tree.perform(ref, { kind: 'press' }, signal) };
  } catch (error) {
    return { failure: notPressed(located, errorMessage(error)) };
  }
}

/**
 * Whether the label can be pressed through the tree, found out without pressing it (the
 * toolkit names the action a press would do): its handle and that action, or why not.
 */
export async function pressable(tree: AccessibilityPort | undefined, located: Found, text: string, signal?: AbortSignal): Promise<{ ref: string; action: string } | { why: string; failure: ToolResult }> {
  const ref = await elementRef(tree, located, text, signal);
  if (!ref || !tree?.perform) return { why: noElement(tree, located), failure: cannotPress(text, noElement(tree, located)) };
  try {
    return { ref, action: await tree.perform(ref, { kind: 'press', dryRun: true }, signal) };
  } catch (error) {
    return { why: errorMessage(error), failure: notPressed(located, errorMessage(error)) };
  }
}

/** The tree's handle of the label: the one it was found by, else the one element under the point that the label names. */
export async function elementRef(tree: AccessibilityPort | undefined, located: Found, text: string, signal?: AbortSignal): Promise<string | undefined> {
  if (located.ref) return located.ref;
  return tree?.perform ? elementAt(tree, located, text, signal) : undefined;
}

/** Why a label has no element to press. */
export function noElement(tree: AccessibilityPort | undefined, located: Found): string {
  if (located.source !== 'accessibility') return 'it was found by OCR, not in the accessibility tree';
  return tree?.perform ? 'its accessibility element gives no handle to act on' : "this desktop's accessibility tree offers no actions";
}

function cannotPress(text: string, why: string): ToolResult {
  return ToolResults.failure('FAILED', `Cannot press "${text}" without the pointer: ${why}; nothing was clicked.`, {
    hint: 'Click without via: "accessibility" to use the pointer.',
  });
}

/** The toolkit would not press it (disabled, gone, no such action). */
export function notPressed(located: Found, why: string): ToolResult {
  return ToolResults.failure('FAILED', `Could not press ${quoteScreenText(located.text)} through the accessibility tree (${why}); nothing was clicked.`, {
    hint: 'Read the screen again, or click with the pointer.',
  });
}

/**
 * The tree's element of a label OCR found (an exact reading wins over the tree): the one element
 * under the point that the label names, when the tree has it.
 */
async function elementAt(tree: AccessibilityPort, located: Found, text: string, signal?: AbortSignal): Promise<string | undefined> {
  const under = (await tree.elements({ activeWindowOnly: false, ...(signal ? { signal } : {}) }).catch(() => [])).filter((e) => e.ref && containsPoint(e.bbox, located.point));
  const found = locateAccessible(under, text);
  return found.status === 'found' ? found.match.ref : undefined;
}

/** Whether a pointer click failed only because this desktop takes no pointer input, so the tree's action may stand in. */
export function pointerUnavailable(error: unknown, plain: boolean): boolean {
  return error instanceof DesktopUnavailableError && plain;
}
