// The person's choice of how GAI acts on a control it found (gai.input, the config file's
// desktop.input, the CLI's --input): with the pointer, or through the control's accessibility
// action first, which moves no pointer and takes no focus.
import { GaiError } from '../common/errors';

/** `pointer` (the default): every click moves the pointer. `accessibility`: a plain left click by text presses the control through its accessibility action where the tree offers one. */
export const INPUT_CHOICES = ['pointer', 'accessibility'] as const;
export type InputChoice = (typeof INPUT_CHOICES)[number];
export const DEFAULT_INPUT: InputChoice = 'pointer';

export function isInputChoice(value: unknown): value is InputChoice {
  return typeof value === 'string' && (INPUT_CHOICES as readonly string[]).includes(value);
}

/** A flag's or variable's value; undefined stays undefined (the config decides). `where` names it in the error. */
export function parseInputChoice(value: string | undefined, where: string): InputChoice | undefined {
  if (value === undefined) return undefined;
  if (!isInputChoice(value)) throw new GaiError('CONFIG', `${where}: expected one of ${INPUT_CHOICES.join(', ')}, got "${value}"`);
  return value;
}
