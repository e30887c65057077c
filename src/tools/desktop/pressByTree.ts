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

type Found = Extract<TargetResult, { status: 'found' }>;

/** The action done ("click", "press"...), or the failed result that says why nothing was pressed. */
export async function pressByTree(tree: AccessibilityPort | undefined, located: Found, text: string, signal?: AbortSignal): Promise<{ action: string } | { failure: ToolResult }> {
  const ref = located.ref ?? (tree?.perform ? await elementAt(tree, located, text, signal) : undefined);
  if (!ref || !tree?.perform) {
    const where = located.source === 'accessibility' ? "this desktop's accessibility tree offers no actions" : 'it was found by OCR, not in the accessibility tree';
    return {
      failure: ToolResults.failure('FAILED', `Cannot press "${text}" without the pointer: ${where}; nothing was clicked.`, {
        hint: 'Click without via: "accessibility" to use the pointer.',
      }),
    };
  }
  try {
    return { action: await tree.perform(ref, { kind: 'press' }, signal) };
  } catch (error) {
    return {
      failure: ToolResults.failure('FAILED', `Could not press ${quoteScreenText(located.text)} through the accessibility tree (${errorMessage(error)}); nothing was clicked.`, {
        hint: 'Read the screen again, or click with the pointer.',
      }),
    };
  }
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
