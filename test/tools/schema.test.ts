import { strict as assert } from 'node:assert';
import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../../src/tools/toolTypes';
import { compileValidator, describeSchema, StringEnum, toolInput } from '../../src/common/schema';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';

// One schema with every construct the tools use: strings, a StringEnum, a ranged integer
// with a default, a union, nested objects (closed), arrays.
const scrollSchema = toolInput({
  text: Type.String({ description: 'What to look for' }),
  direction: StringEnum(['up', 'down', 'left', 'right'] as const, { description: 'Where to scroll' }),
  amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 3 })),
  keys: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  region: Type.Optional(
    Type.Object(
      {
        x: Type.Number(),
        y: Type.Number(),
        size: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
  ),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 2 })),
});

type ScrollInput = Static<typeof scrollSchema>;

class ScrollTool extends ToolBase<typeof scrollSchema> {
  readonly name = 'scroll';
  readonly description = 'Scroll until a text shows.';
  readonly inputSchema = scrollSchema;
  readonly risk = 'action' as const;

  async execute(input: ScrollInput): Promise<ToolResult> {
    return ToolResults.success(`Scrolled ${input.direction}.`);
  }
}

const pointSchema = toolInput({
  x: Type.Optional(Type.Number()),
  y: Type.Optional(Type.Number()),
  text: Type.Optional(Type.String()),
});

/** A tool with a rule the schema cannot express: x and y together, or text. */
class PointTool extends ToolBase<typeof pointSchema> {
  readonly name = 'point';
  readonly description = 'Point at a place.';
  readonly inputSchema = pointSchema;
  readonly risk = 'read' as const;

  async execute(): Promise<ToolResult> {
    return ToolResults.success('Pointed.');
  }

  protected override checkInput(input: Static<typeof pointSchema>): string | undefined {
    if (input.text !== undefined) return undefined;
    if (input.x === undefined || input.y === undefined) return 'x, y: give both x and y, or text';
    return undefined;
  }
}

const validator = compileValidator(scrollSchema);
const valid = { text: 'Total', direction: 'down' };

function errorsOf(input: unknown): string[] {
  const result = validator.validate(input);
  assert.equal(result.ok, false, `expected ${JSON.stringify(input)} to be rejected`);
  return result.ok ? [] : result.errors;
}

/** Every object key and symbol in a value, recursively. */
function symbolKeys(value: unknown): symbol[] {
  if (value === null || typeof value !== 'object') return [];
  const own = Object.getOwnPropertySymbols(value);
  return [...own, ...Object.values(value).flatMap(symbolKeys)];
}

describe('tool input schemas', () => {
  describe('compileValidator().validate()', () => {
    it('accepts a valid input and returns it with defaults applied', () => {
      const result = validator.validate(valid);
      assert.ok(result.ok);
      assert.deepEqual(result.value, { text: 'Total', direction: 'down', amount: 3 });
    });

    it('names the field and the expected type on a wrong type', () => {
      assert.deepEqual(errorsOf({ ...valid, text: true }), ['text: expected a string, got boolean true']);
      assert.deepEqual(errorsOf({ ...valid, region: { x: 'left', y: 1 } }), ['region.x: expected a number, got "left"']);
    });

    it('for tool input, takes a number given for a string as its text ("7" for a key), but not for another branch of a union or outside a list of strings; other inputs (webview messages, files) stay strict', () => {
      assert.deepEqual(errorsOf({ ...valid, text: 7 }), ['text: expected a string, got number 7']);
      const toolValidator = compileValidator(scrollSchema, { numbersAsText: true });
      const toolErrorsOf = (input: unknown): string[] => {
        const result = toolValidator.validate(input);
        return result.ok ? [] : result.errors;
      };
      const taken = toolValidator.validate({ ...valid, text: 7, tags: [1, 2.5] });
      assert.ok(taken.ok);
      assert.equal(taken.value.text, '7');
      assert.deepEqual(taken.value.tags, ['1', '2.5']);
      assert.deepEqual(toolErrorsOf({ ...valid, direction: 3 }), ['direction: expected one of "up", "down", "left", "right", got number 3']);
      assert.deepEqual(toolErrorsOf({ ...valid, text: Number.NaN }), ['text: expected a string, got number NaN']);
    });

    it('reports a missing required field with what was expected', () => {
      assert.deepEqual(errorsOf({ direction: 'up' }), ['text: required field is missing (expected a string)']);
      const nested = errorsOf({ ...valid, region: { x: 1 } });
      assert.deepEqual(nested, ['region.y: required field is missing (expected a number)']);
    });

    it('rejects unknown fields at the top level and nested', () => {
      assert.deepEqual(errorsOf({ ...valid, speed: 5 }), ['speed: unknown field']);
      assert.deepEqual(errorsOf({ ...valid, region: { x: 1, y: 2, z: 3 } }), ['region.z: unknown field']);
      assert.deepEqual(errorsOf({ ...valid, region: { x: 1, y: 2, size: { width: 1, height: 2, depth: 3 } } }), [
        'region.size.depth: unknown field',
      ]);
    });

    it('lists the allowed values for an enum value outside the list', () => {
      assert.deepEqual(errorsOf({ ...valid, direction: 'sideways' }), [
        'direction: expected one of "up", "down", "left", "right", got "sideways"',
      ]);
    });

    it('gives the bound for a number out of range, and the range for a non-integer', () => {
      assert.deepEqual(errorsOf({ ...valid, amount: 0 }), ['amount: must be at least 1, got number 0']);
      assert.deepEqual(errorsOf({ ...valid, amount: 11 }), ['amount: must be at most 10, got number 11']);
      assert.deepEqual(errorsOf({ ...valid, amount: 2.5 }), ['amount: expected an integer from 1 to 10, got number 2.5']);
    });

    it('describes every branch of a union', () => {
      assert.deepEqual(errorsOf({ ...valid, keys: 7 }), ['keys: expected a string or an array of a string, got number 7']);
      assert.deepEqual(errorsOf({ ...valid, keys: [1, 2] }), ['keys: expected a string or an array of a string, got an array']);
      assert.ok(validator.validate({ ...valid, keys: 'ctrl+s' }).ok);
      assert.ok(validator.validate({ ...valid, keys: ['ctrl', 's'] }).ok);
    });

    it('gives the item limit of an array', () => {
      assert.deepEqual(errorsOf({ ...valid, tags: ['a', 'b', 'c'] }), ['tags: must have at most 2 items']);
    });

    it('reports several broken fields at once, one message per field', () => {
      const errors = errorsOf({ text: false, direction: 'back', extra: true });
      assert.equal(errors.length, 3);
      assert.ok(errors.includes('text: expected a string, got boolean false'));
      assert.ok(errors.includes('extra: unknown field'));
      assert.ok(errors.some((e) => e.startsWith('direction: expected one of "up"')));
    });

    it('rejects non-object inputs as a whole', () => {
      assert.deepEqual(errorsOf(null), ['input: expected an object, got null']);
      assert.deepEqual(errorsOf([valid]), ['input: expected an object, got an array']);
      assert.deepEqual(errorsOf('text=Total'), ['input: expected an object, got "text=Total"']);
      assert.deepEqual(errorsOf(12), ['input: expected an object, got number 12']);
      assert.deepEqual(errorsOf(undefined), ['input: expected an object, got nothing']);
    });

    it('applies defaults to a copy and leaves the caller\'s object alone', () => {
      const input = { text: 'Total', direction: 'up', region: { x: 1, y: 2 } };
      const snapshot = structuredClone(input);
      const result = validator.validate(input);
      assert.ok(result.ok);
      assert.equal(result.value.amount, 3);
      assert.deepEqual(input, snapshot);
      assert.equal('amount' in input, false);
      assert.notEqual(result.value, input);
      assert.notEqual(result.value.region, input.region, 'nested objects are copied too');
    });

    it('keeps a given value over the default', () => {
      const result = validator.validate({ ...valid, amount: 7 });
      assert.ok(result.ok);
      assert.equal(result.value.amount, 7);
    });
  });

  describe('describeSchema()', () => {
    it('describes enums, literals unions, arrays and ranges', () => {
      assert.equal(describeSchema(StringEnum(['a', 'b'] as const)), 'one of "a", "b"');
      assert.equal(describeSchema(Type.Union([Type.Literal('x'), Type.Literal('y')])), 'one of "x", "y"');
      assert.equal(describeSchema(Type.Array(Type.Integer())), 'an array of an integer');
      assert.equal(describeSchema(Type.Number({ minimum: 0 })), 'a number >= 0');
      assert.equal(describeSchema(Type.Number({ maximum: 1 })), 'a number <= 1');
      assert.equal(describeSchema(Type.Object({})), 'an object');
    });
  });

  describe('ToolBase', () => {
    it('getDefinition() is plain JSON Schema that survives a JSON round trip', () => {
      const definition = new ScrollTool().getDefinition();
      assert.equal(definition.name, 'scroll');
      assert.equal(definition.description, 'Scroll until a text shows.');
      const schema = definition.inputSchema;
      assert.deepEqual(symbolKeys(schema), [], 'no TypeBox symbols are left');
      assert.deepEqual(JSON.parse(JSON.stringify(definition)), definition);
      assert.equal(schema.type, 'object');
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(schema.required, ['text', 'direction']);
      const properties = schema.properties as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(properties), ['text', 'direction', 'amount', 'keys', 'region', 'tags']);
      assert.deepEqual(properties.direction, {
        type: 'string',
        enum: ['up', 'down', 'left', 'right'],
        description: 'Where to scroll',
      });
      assert.deepEqual(properties.amount, { type: 'integer', minimum: 1, maximum: 10, default: 3 });
      assert.deepEqual(properties.keys, { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
      assert.equal(properties.region?.additionalProperties, false);
      assert.deepEqual(properties.region?.required, ['x', 'y']);
    });

    it('getDefinition() does not share objects with the TypeBox schema', () => {
      const tool = new ScrollTool();
      const definition = tool.getDefinition();
      (definition.inputSchema.properties as Record<string, unknown>).text = 'changed';
      assert.notEqual(tool.getDefinition().inputSchema.properties?.text, 'changed');
    });

    it('validateInput() reports the schema errors of the tool', () => {
      const result = new ScrollTool().validateInput({ text: 'a', direction: 'north' });
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : (result.errors[0] ?? ''), /^direction: expected one of "up", "down", "left", "right"/);
    });

    it('validateInput() reports the cross-field rule of a subclass', () => {
      const tool = new PointTool();
      assert.deepEqual(tool.validateInput({ x: 10 }), { ok: false, errors: ['x, y: give both x and y, or text'] });
      assert.deepEqual(tool.validateInput({ x: 10, y: 20 }), { ok: true, value: { x: 10, y: 20 } });
      assert.deepEqual(tool.validateInput({ text: 'OK' }), { ok: true, value: { text: 'OK' } });
    });

    it('validateInput() checks the schema before the cross-field rule', () => {
      // A wrong type must be reported as such, not hidden behind the cross-field message.
      assert.deepEqual(new PointTool().validateInput({ x: 'ten' }), { ok: false, errors: ['x: expected a number, got "ten"'] });
    });

    it('a tool declares nothing for hosts unless it says so: no screen pictures, no typing, no marks, not a native computer tool', () => {
      const tool = new PointTool();
      assert.equal(tool.showsScreenAfter, false);
      assert.equal(tool.showsScreenRead, false);
      assert.equal(tool.screenshotCoordinates, false);
      assert.equal(tool.typesText({ text: 'OK' }), false);
      assert.deepEqual(tool.screenMarks({ x: 1, y: 2 }, { success: true, durationMs: 0, observation: '', data: { point: { x: 1, y: 2 } } }), []);
      assert.equal(tool.asNativeComputer(), undefined);
    });
  });
});
