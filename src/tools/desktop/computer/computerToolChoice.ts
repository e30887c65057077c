import type { ToolDefinition } from '../../../model/messages';

/**
 * GAI tools whose work the native computer tool does (screenshots, pointer, keys, scrolling,
 * waiting). Offering both would give the model two ways to do one thing in two coordinate
 * systems. `click` stays: its click by text needs no screenshot. The computer tool knows the
 * vocabulary it covers, so this list lives with it, not with the agent.
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
 * The tools a turn offers beside the native computer tool: GAI's tools it does not replace,
 * `click` by text only; the computer tool itself stays as it is (the provider sends it in its
 * native form).
 */
export function offeredBesideNativeComputer(definitions: readonly ToolDefinition[]): ToolDefinition[] {
  return definitions.filter((tool) => !REPLACED_BY_NATIVE_COMPUTER.has(tool.name)).map((tool) => (tool.name === 'click' ? clickByText(tool) : tool));
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
