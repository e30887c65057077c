import { Kind, Type, TypeRegistry, type TObject, type TProperties, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { checkInputLimits, cutText, rejectedInputProblem } from './inputLimits';

// A tool's input schema is declared once with TypeBox: the same object is the JSON Schema
// the model sees and the validator that runs before `execute`.

TypeRegistry.Set<{ enum: unknown[] }>('StringEnum', (schema, value) => schema.enum.includes(value));

/** A string restricted to `values`, sent to the model as a plain JSON Schema `enum`. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ [Kind]: 'StringEnum', type: 'string', enum: [...values], ...options });
}

/** Top-level tool input: an object that rejects unknown fields. */
export function toolInput<T extends TProperties>(properties: T): TObject<T> {
  return Type.Object(properties, { additionalProperties: false });
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

export interface InputValidator<T> {
  validate(input: unknown): ValidationResult<T>;
}

/**
 * Compiles once; `validate` checks the input's size and depth first (the copy and the checks
 * below recurse), then applies schema defaults to a copy and checks everything.
 */
export function compileValidator<S extends TObject>(
  schema: S,
  /** `numbersAsText`: a number given for a string field is taken as its text (tool input from models and MCP clients). */
  options: { numbersAsText?: boolean } = {},
): InputValidator<import('@sinclair/typebox').Static<S>> {
  let check: TypeCheck<S> | undefined;
  return {
    validate(input) {
      check ??= TypeCompiler.Compile(schema);
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        return { ok: false, errors: [`input: expected an object, got ${describeValue(input)}`] };
      }
      const tooBig = rejectedInputProblem(input) ?? checkInputLimits(input);
      if (tooBig) return { ok: false, errors: [tooBig] };
      const defaulted = Value.Default(schema, structuredClone(input));
      const value = options.numbersAsText ? numbersAsText(schema, defaulted) : defaulted;
      if (check.Check(value)) return { ok: true, value };
      return { ok: false, errors: formatErrors(check.Errors(value)) };
    },
  };
}

/**
 * A number given where a string is expected, as text ("7" for a calculator's key): MCP clients
 * (the Inspector's `--tool-arg text=7`) and models send labels that look like numbers as numbers.
 * Only where the field takes strings alone (not in a union, where the number may mean another
 * branch), and for a list of allowed strings only when the text is one of them.
 */
function numbersAsText(schema: TSchema, value: unknown): unknown {
  if (schema.type === 'string' && typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    return Array.isArray(schema.enum) && !schema.enum.includes(text) ? value : text;
  }
  if (schema.type === 'array' && Array.isArray(value) && schema.items) return value.map((item) => numbersAsText(schema.items as TSchema, item));
  if (schema.type === 'object' && value !== null && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    const properties = schema.properties as Record<string, TSchema>;
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) if (properties[key]) object[key] = numbersAsText(properties[key], object[key]);
  }
  return value;
}

/** Problems reported at most; the model fixes the first ones first anyway. */
const MAX_ERRORS = 8;
const MAX_FIELD_CHARS = 80;

function formatErrors(errors: Iterable<ValueError>): string[] {
  const byPath = new Map<string, ValueError>();
  for (const error of errors) {
    const field = error.path === '' ? 'input' : error.path.slice(1).replaceAll('/', '.');
    if (!byPath.has(field)) byPath.set(field, error); // the first error at a path is the most specific
  }
  // Wrong values first: a flood of unknown fields must not hide them.
  const ordered = [...byPath].sort(([, a], [, b]) => Number(isUnknownField(a)) - Number(isUnknownField(b)));
  // An unknown field's name comes from the model and may be absurdly long.
  const messages = ordered.slice(0, MAX_ERRORS).map(([field, error]) => `${cutText(field, MAX_FIELD_CHARS)}: ${explain(error)}`);
  if (ordered.length > MAX_ERRORS) messages.push(`and ${ordered.length - MAX_ERRORS} more problem(s)`);
  return messages;
}

function isUnknownField(error: ValueError): boolean {
  return error.type === ValueErrorType.ObjectAdditionalProperties;
}

function explain(error: ValueError): string {
  const expected = describeSchema(error.schema);
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `required field is missing (expected ${expected})`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unknown field';
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${String(error.schema.minimum)}, got ${describeValue(error.value)}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${String(error.schema.maximum)}, got ${describeValue(error.value)}`;
    case ValueErrorType.StringMinLength:
      return `must have at least ${String(error.schema.minLength)} character(s)`;
    case ValueErrorType.StringMaxLength:
      return `must have at most ${String(error.schema.maxLength)} characters`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${String(error.schema.minItems)} item(s)`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${String(error.schema.maxItems)} items`;
    default:
      return `expected ${expected}, got ${describeValue(error.value)}`;
  }
}

/** A short human description of what a schema accepts, e.g. `one of "up", "down"`. */
export function describeSchema(schema: TSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const branches = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined;
  if (Array.isArray(branches)) {
    if (branches.every((b) => b.const !== undefined)) {
      return `one of ${branches.map((b) => JSON.stringify(b.const)).join(', ')}`;
    }
    return branches.map(describeSchema).join(' or ');
  }
  if (schema.type === 'array') {
    const items = schema.items as TSchema | undefined;
    return items ? `an array of ${describeSchema(items)}` : 'an array';
  }
  if (schema.type === 'integer') return rangeText('an integer', schema);
  if (schema.type === 'number') return rangeText('a number', schema);
  if (typeof schema.type === 'string') return schema.type === 'object' ? 'an object' : `a ${schema.type}`;
  return 'a valid value';
}

function rangeText(base: string, schema: TSchema): string {
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  if (min !== undefined && max !== undefined) return `${base} from ${min} to ${max}`;
  if (min !== undefined) return `${base} >= ${min}`;
  if (max !== undefined) return `${base} <= ${max}`;
  return base;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
