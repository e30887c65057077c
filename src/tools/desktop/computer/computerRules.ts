import type { ComputerAction, ComputerInput } from '../../../model/computer/computerActions';
import { parseModifiers, parseXdoKeys } from './xdoKeys';

type Field = Exclude<keyof ComputerInput, 'action'>;

const CLICK: Rule = { optional: ['coordinate', 'text'] };

interface Rule {
  required?: Field[];
  optional?: Field[];
}

/** Which fields each action takes; any other field given is an error naming it. */
const RULES: Record<ComputerAction, Rule> = {
  screenshot: {},
  zoom: { required: ['region'] },
  cursor_position: {},
  mouse_move: { required: ['coordinate'] },
  left_click: CLICK,
  right_click: CLICK,
  middle_click: CLICK,
  double_click: CLICK,
  triple_click: CLICK,
  left_click_drag: { optional: ['start_coordinate', 'coordinate', 'path'] },
  left_mouse_down: { optional: ['coordinate'] },
  left_mouse_up: { optional: ['coordinate'] },
  scroll: { required: ['scroll_direction'], optional: ['coordinate', 'scroll_amount', 'text'] },
  type: { required: ['text'] },
  key: { required: ['text'], optional: ['repeat'] },
  hold_key: { required: ['text', 'duration'] },
  wait: { required: ['duration'] },
};

/** The first rule the schema cannot express that `input` breaks, naming the field; undefined when none. */
export function computerInputProblem(input: ComputerInput): string | undefined {
  const { action } = input;
  const rule = RULES[action];
  for (const field of rule.required ?? []) {
    if (input[field] === undefined) return `${field}: required for ${action}`;
  }
  const allowed = new Set<string>(['action', ...(rule.required ?? []), ...(rule.optional ?? [])]);
  for (const [field, value] of Object.entries(input)) {
    if (value !== undefined && !allowed.has(field)) return `${field}: not used by ${action}`;
  }
  return actionProblem(input);
}

function actionProblem(input: ComputerInput): string | undefined {
  const { action } = input;
  if (action === 'zoom') {
    const [x0, y0, x1, y1] = input.region ?? [];
    if (x0 === undefined || y0 === undefined || x1 === undefined || y1 === undefined || x1 <= x0 || y1 <= y0) {
      return 'region: must be [x0, y0, x1, y1] with x1 > x0 and y1 > y0';
    }
  }
  if (action === 'left_click_drag') {
    if (input.path !== undefined && (input.coordinate !== undefined || input.start_coordinate !== undefined)) {
      return `${input.coordinate !== undefined ? 'coordinate' : 'start_coordinate'}: give either path or start_coordinate and coordinate, not both`;
    }
    if (input.path === undefined && input.coordinate === undefined) return 'coordinate: required for left_click_drag (or give path)';
  }
  if (action === 'type' && input.text === '') return 'text: must not be empty';
  if (action === 'key' || action === 'hold_key') {
    try {
      const combos = parseXdoKeys(input.text ?? '');
      if (action === 'hold_key' && combos.length > 1) return 'text: hold_key holds one key or combination';
    } catch (error) {
      return `text: ${(error as Error).message}`;
    }
  }
  if (input.text !== undefined && (action.endsWith('_click') || action === 'scroll')) {
    try {
      parseModifiers(input.text);
    } catch (error) {
      return `text: ${(error as Error).message} (with ${action}, text names the modifiers held)`;
    }
  }
  return undefined;
}
