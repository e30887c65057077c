// OpenAI's computer actions (a `computer_call`'s `actions`, or its single `action` on the preview
// tool) as calls of GAI's `computer` tool, whose vocabulary is Anthropic's (see
// tools/desktop/computer/computerActions.ts). Pure: no SDK client, only its types.
//
// One computer_call of N actions becomes N core calls with ids `${call_id}#0` … `#N-1`, in order
// (a scroll on both axes takes two), plus a trailing `screenshot` call when the batch does not end
// with one: the call is answered with ONE screenshot, taken after the batch. The `computer` tool
// is `ordered`, so the runtime stops the batch at its first failure and answers the rest as not run.

import type { ResponseComputerToolCall } from 'openai/resources/responses/responses';
import type { CallConfirmation, ToolCall } from '../messages';
import { limitToolCall } from '../../common/inputLimits';
import { COMPUTER_TOOL_NAME } from '../computer/computerActions';

export type OpenAiComputerAction = NonNullable<ResponseComputerToolCall['action']>;

/**
 * OpenAI's scroll distances are pixels (its guide's harness passes them to a page's scrollBy /
 * Playwright's mouse.wheel); GAI scrolls by wheel steps. Browsers move 100 px per wheel notch on
 * Windows and about 50-100 px on Linux, so 100 px make one step: a 300 px scroll is 3 notches,
 * never fewer than one for a non-zero distance.
 */
export const PIXELS_PER_WHEEL_STEP = 100;
const MAX_WHEEL_STEPS = 100;
const MAX_PATH_POINTS = 100;
/** The preview harness waits about a second for a `wait`; the action carries no duration. */
const WAIT_SECONDS = 1;

const ID_SEPARATOR = '#';

/** The core call id of the `index`-th GAI action of a computer call. */
export function actionCallId(callId: string, index: number): string {
  return `${callId}${ID_SEPARATOR}${index}`;
}

/** The computer call a core call id belongs to, or undefined for ids of other calls. */
export function computerCallIdOf(toolUseId: string): string | undefined {
  const at = toolUseId.lastIndexOf(ID_SEPARATOR);
  return at > 0 && /^\d+$/.test(toolUseId.slice(at + 1)) ? toolUseId.slice(0, at) : undefined;
}

export function actionsOf(call: ResponseComputerToolCall): OpenAiComputerAction[] {
  if (call.actions && call.actions.length > 0) return call.actions as OpenAiComputerAction[];
  return call.action ? [call.action] : [];
}

/**
 * The core calls for one computer call. Its pending safety checks ride on the first call, which
 * the runtime then puts to the person whatever the approval settings.
 */
export function computerCallToToolCalls(call: ResponseComputerToolCall): ToolCall[] {
  const inputs = actionsOf(call).flatMap(toGaiInputs);
  if (inputs.at(-1)?.action !== 'screenshot') inputs.push({ action: 'screenshot' });
  const checks = confirmationsOf(call);
  return inputs.map((input, i) =>
    limitToolCall({
      id: actionCallId(call.call_id, i),
      name: COMPUTER_TOOL_NAME,
      input,
      ...(i === 0 && checks.length > 0 ? { confirm: checks } : {}),
    }),
  );
}

export function confirmationsOf(call: ResponseComputerToolCall): CallConfirmation[] {
  return (call.pending_safety_checks ?? []).map((c) => ({
    id: c.id,
    ...(c.code ? { code: c.code } : {}),
    ...(c.message ? { message: c.message } : {}),
  }));
}

type GaiInput = Record<string, unknown> & { action: string };

/** One OpenAI action as GAI `computer` inputs (usually one; a two-axis scroll gives two). */
export function toGaiInputs(action: OpenAiComputerAction): GaiInput[] {
  switch (action.type) {
    case 'click':
      return [withKeys(clickInput(action), action.keys)];
    case 'double_click':
      return [withKeys({ action: 'double_click', coordinate: point(action.x, action.y) }, action.keys)];
    case 'drag':
      return [withKeys({ action: 'left_click_drag', path: dragPath(action.path) }, action.keys)];
    case 'move':
      return [withKeys({ action: 'mouse_move', coordinate: point(action.x, action.y) }, action.keys)];
    case 'scroll':
      return scrollInputs(action).map((input) => withKeys(input, action.keys));
    case 'keypress':
      return [{ action: 'key', text: keyCombination(action.keys) }];
    case 'type':
      return [{ action: 'type', text: action.text }];
    case 'wait':
      return [{ action: 'wait', duration: WAIT_SECONDS }];
    case 'screenshot':
      return [{ action: 'screenshot' }];
    default: {
      // A newer SDK may know actions this one does not; the tool's validation names the value.
      const unknown = action as { type?: unknown };
      return [{ action: String(unknown.type) }];
    }
  }
}

function clickInput(action: Extract<OpenAiComputerAction, { type: 'click' }>): GaiInput {
  const coordinate = point(action.x, action.y);
  switch (action.button) {
    case 'right':
      return { action: 'right_click', coordinate };
    case 'wheel':
      return { action: 'middle_click', coordinate };
    // GAI has no back/forward mouse buttons; apps bind them to the same keys as their history
    // navigation (alt+left / alt+right), which needs no pointer position.
    case 'back':
      return { action: 'key', text: 'alt+left' };
    case 'forward':
      return { action: 'key', text: 'alt+right' };
    default:
      return { action: 'left_click', coordinate };
  }
}

function scrollInputs(action: Extract<OpenAiComputerAction, { type: 'scroll' }>): GaiInput[] {
  const coordinate = point(action.x, action.y);
  const out: GaiInput[] = [];
  if (action.scroll_y !== 0 || action.scroll_x === 0) {
    out.push({ action: 'scroll', coordinate, scroll_direction: action.scroll_y < 0 ? 'up' : 'down', scroll_amount: wheelSteps(action.scroll_y) });
  }
  if (action.scroll_x !== 0) {
    out.push({ action: 'scroll', coordinate, scroll_direction: action.scroll_x < 0 ? 'left' : 'right', scroll_amount: wheelSteps(action.scroll_x) });
  }
  return out;
}

export function wheelSteps(pixels: number): number {
  if (!Number.isFinite(pixels) || pixels === 0) return 0;
  return Math.min(MAX_WHEEL_STEPS, Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_WHEEL_STEP)));
}

/** Screenshot pixels are whole and not negative; the tool maps them to the screen. */
function point(x: number, y: number): [number, number] {
  return [Math.max(0, Math.round(x)), Math.max(0, Math.round(y))];
}

/** At most MAX_PATH_POINTS points, evenly picked, the first and the last always kept. */
function dragPath(path: Array<{ x: number; y: number }>): Array<[number, number]> {
  const points = path.map((p) => point(p.x, p.y));
  if (points.length <= MAX_PATH_POINTS) return points;
  const step = (points.length - 1) / (MAX_PATH_POINTS - 1);
  return Array.from({ length: MAX_PATH_POINTS }, (_, i) => points[Math.round(i * step)] as [number, number]);
}

function withKeys(input: GaiInput, keys: string[] | null | undefined): GaiInput {
  return keys && keys.length > 0 ? { ...input, text: keyCombination(keys) } : input;
}

/** ["CTRL", "S"] → "ctrl+s"; OpenAI's names (ARROWLEFT, PAGE_DOWN, CMD, " ") in GAI's spelling. */
export function keyCombination(keys: string[]): string {
  return keys.map(keyName).join('+');
}

function keyName(key: string): string {
  if (key === ' ') return 'space';
  if (key === '+') return 'plus';
  if (key.length === 1) return key.toLowerCase();
  return key.trim().toLowerCase().replace(/[_\s]/g, '');
}
