import type { ToolDefinition } from '../core/types';
import { COMPUTER_TOOL_NAME } from '../tools/desktop/computer/computerActions';

/**
 * GAI tools whose work the native computer tool does (screenshots, pointer, keys, scrolling,
 * waiting). Offering both would give the model two ways to do one thing in two coordinate
 * systems. `click` stays: its click by text needs no screenshot.
 */
export const REPLACED_BY_NATIVE_COMPUTER: ReadonlySet<string> = new Set([
  'screen_capture',
  'type_text',
  'press_key',
  'scroll',
  'tab_navigate',
  'drag',
  'mouse_move',
  'hold_key',
  'wait',
  'zoom',
  'cursor_position',
]);

/**
 * The tools a turn offers: with a native computer tool, `computer` (which the provider sends in
 * its native form) and GAI's tools it does not replace; without, every GAI tool but `computer`.
 */
export function offeredTools(definitions: readonly ToolDefinition[], native: boolean): ToolDefinition[] {
  if (native && definitions.some((tool) => tool.name === COMPUTER_TOOL_NAME)) {
    return definitions.filter((tool) => !REPLACED_BY_NATIVE_COMPUTER.has(tool.name));
  }
  return definitions.filter((tool) => tool.name !== COMPUTER_TOOL_NAME);
}
