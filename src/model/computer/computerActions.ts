import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, toolInput } from '../../common/schema';

// The input of GAI's `computer` tool: the action vocabulary of Anthropic's computer tool (its
// toolset members and the `action` values of computer_20250124/20251124), which the providers
// map their wire formats onto. Coordinates are in the pixels of the screenshots the model was
// given (scaled to its image limits); the tool maps them to the screen.

export const COMPUTER_TOOL_NAME = 'computer';

export const COMPUTER_ACTIONS = [
  'screenshot',
  'zoom',
  'cursor_position',
  'mouse_move',
  'left_click',
  'right_click',
  'middle_click',
  'double_click',
  'triple_click',
  'left_click_drag',
  'left_mouse_down',
  'left_mouse_up',
  'scroll',
  'type',
  'key',
  'hold_key',
  'wait',
] as const;

export type ComputerAction = (typeof COMPUTER_ACTIONS)[number];

/** Actions that only look (no input is sent to the desktop). */
export const OBSERVING_ACTIONS: ReadonlySet<ComputerAction> = new Set(['screenshot', 'zoom', 'cursor_position', 'wait']);

const ImagePoint = Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2, description: '(x, y) in screenshot pixels' });

export const computerInputSchema = toolInput({
  action: StringEnum(COMPUTER_ACTIONS, { description: 'What to do' }),
  coordinate: Type.Optional(ImagePoint),
  start_coordinate: Type.Optional(ImagePoint),
  path: Type.Optional(Type.Array(ImagePoint, { minItems: 2, maxItems: 100, description: 'Drag along these points (from the first to the last)' })),
  text: Type.Optional(
    Type.String({ maxLength: 20_000, description: 'type: the text; key / hold_key: a key or combination like "ctrl+s"; clicks and scroll: modifiers held, like "shift"' }),
  ),
  repeat: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'key: times to press it' })),
  duration: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'hold_key / wait: seconds' })),
  scroll_direction: Type.Optional(StringEnum(['up', 'down', 'left', 'right'] as const)),
  scroll_amount: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'scroll: wheel steps' })),
  region: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 4, maxItems: 4, description: 'zoom: [x0, y0, x1, y1] in screenshot pixels' })),
});

export type ComputerInput = Static<typeof computerInputSchema>;
