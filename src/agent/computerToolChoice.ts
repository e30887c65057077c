import type { ToolDefinition } from '../model/messages';
import { COMPUTER_TOOL_NAME } from '../model/computer/computerActions';

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
 * its native form) and GAI's tools it does not replace, `click` by text only; without, every GAI
 * tool but `computer`.
 */
export function offeredTools(definitions: readonly ToolDefinition[], native: boolean): ToolDefinition[] {
  if (native && definitions.some((tool) => tool.name === COMPUTER_TOOL_NAME)) {
    return definitions.filter((tool) => !REPLACED_BY_NATIVE_COMPUTER.has(tool.name)).map((tool) => (tool.name === 'click' ? clickByText(tool) : tool));
  }
  return definitions.filter((tool) => tool.name !== COMPUTER_TOOL_NAME);
}

/**
 * `click` without its screen coordinates: beside the native tool, whose coordinates are
 * screenshot pixels, a second coordinate system would only invite clicks in the wrong place.
 */
function clickByText(tool: ToolDefinition): ToolDefinition {
  const { x: _x, y: _y, ...properties } = tool.inputSchema.properties ?? {};
  return {
    ...tool,
    description: `${tool.description} Here it clicks by text only: to click at a point, use the computer tool.`,
    inputSchema: { ...tool.inputSchema, properties, ...(tool.inputSchema.required ? { required: tool.inputSchema.required.filter((k) => k !== 'x' && k !== 'y') } : {}) },
  };
}
