import { strict as assert } from 'node:assert';
import {
  checkInputLimits,
  cutText,
  limitToolCall,
  limitToolInput,
  previewText,
  previewValue,
  rejectedInputProblem,
  TOOL_INPUT_LIMITS,
} from '../../src/common/inputLimits';

/** `{ a: { a: ... } }` nested `levels` deep, built without recursion. */
export function deepObject(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function deepArray(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('input limits', () => {
  it('accepts ordinary tool input', () => {
    assert.equal(checkInputLimits({ text: 'Save', near: 'File', region: { x: 1, y: 2, width: 3, height: 4 }, keys: ['ctrl', 's'] }), undefined);
    assert.equal(checkInputLimits({ text: 'x'.repeat(10_000) }), undefined, 'type_text takes 10,000 characters');
    assert.equal(checkInputLimits(deepObject(TOOL_INPUT_LIMITS.maxDepth)), undefined, 'exactly at the depth limit');
  });

  it('rejects nesting 200,000 levels deep without overflowing the stack, naming the field', () => {
    for (const value of [deepObject(200_000), deepArray(200_000)]) {
      const problem = checkInputLimits(value);
      assert.ok(problem, 'a problem is reported');
      assert.match(problem, /nested deeper than 32 levels$/);
      assert.ok(problem.length < 300, `the path is bounded: ${problem.length} characters`);
    }
    assert.match(checkInputLimits({ region: { inner: deepObject(40) } }) ?? '', /^input\.region\.inner\.a\.a\.a\.a.*levels\)….*: nested deeper than 32 levels$/);
    assert.match(checkInputLimits(deepArray(33)) ?? '', /^input\[0\]\[0\]/);
  });

  it('rejects long strings, long field names, too many fields, values and characters, with the field and the limit', () => {
    assert.equal(checkInputLimits({ text: 'x'.repeat(1_000_000) }), 'input.text: text of 1000000 characters is longer than the limit of 20000');
    assert.equal(checkInputLimits({ list: [1, 2, 'y'.repeat(20_001)] }), 'input.list[2]: text of 20001 characters is longer than the limit of 20000');
    assert.match(checkInputLimits({ ['k'.repeat(50_000)]: 1 }) ?? '', /^input\["k{39}…"\]: a field name of 50000 characters is longer than the limit of 20000$/);
    const manyFields: Record<string, number> = {};
    for (let i = 0; i < 1_000; i++) manyFields[`f${i}`] = i;
    assert.equal(checkInputLimits({ options: manyFields }), 'input.options: more than 200 fields');
    assert.equal(checkInputLimits({ list: new Array<number>(100_000).fill(0) }), 'input.list: more than 5000 items');
    assert.equal(checkInputLimits({ a: 'x'.repeat(19_000), b: 'x'.repeat(19_000), c: 'x'.repeat(19_000) }), 'input: more than 50000 characters of text in total');
    assert.equal(checkInputLimits({ list: Array.from({ length: 100 }, () => new Array<number>(100).fill(0)) }), 'input: more than 5000 values in total');
  });

  it('quotes and cuts odd field names in the path', () => {
    const problem = checkInputLimits({ ['\u202e\u0000' + 'z'.repeat(500)]: deepObject(40) }) ?? '';
    assert.ok(problem.startsWith('input["\u202e\\u0000zzz'), problem);
    assert.ok(problem.length < 300);
  });

  it('survives cycles (in-process values) through the depth limit', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.match(checkInputLimits(cyclic) ?? '', /nested deeper than 32 levels/);
    assert.ok(previewText(cyclic).length <= 200);
  });

  it('limitToolInput keeps good input as it is and replaces bad input by a small stand-in the validator recognises', () => {
    const good = { text: 'Save' };
    assert.equal(limitToolInput(good), good);
    const standIn = limitToolInput(deepObject(5_000));
    assert.ok(JSON.stringify(standIn).length < 400, 'the stand-in is small and serialisable');
    assert.match(rejectedInputProblem(standIn) ?? '', /^input\.a\.a.*: nested deeper than 32 levels$/);
    assert.equal(limitToolInput(standIn), standIn, 'idempotent');
    assert.equal(rejectedInputProblem({ _inputRejected: 'x', other: 1 }), undefined, 'only the exact stand-in shape');
  });

  it('limitToolCall bounds the name and the id, and is idempotent', () => {
    const call = { id: 'i'.repeat(1_000), name: 'n'.repeat(1_000_000), input: { text: 'x'.repeat(30_000) } };
    const limited = limitToolCall(call);
    assert.ok(limited.name.length <= 128 && limited.id.length <= 256);
    assert.match(rejectedInputProblem(limited.input) ?? '', /^input\.text: text of 30000 characters/);
    assert.deepEqual(limitToolCall(limited), limited);
  });

  it('previewValue copies a bounded, JSON-safe form of anything', () => {
    const preview = previewValue({
      deep: deepObject(100_000),
      long: 'x'.repeat(1_000_000),
      list: new Array<number>(10_000).fill(7),
      odd: [Number.NaN, Infinity, undefined, 10n, Symbol('s'), () => 1],
    });
    const text = JSON.stringify(preview);
    assert.ok(text.length < 10_000, `bounded: ${text.length}`);
    assert.match(text, /nested deeper/);
    assert.match(text, /\(1000000 characters\)/);
    assert.match(text, /9950 more item\(s\)/);
    assert.match(text, /"NaN","Infinity",null,"10n","\[symbol\]","\[function\]"/);
    assert.deepEqual(previewValue({ text: 'Save', at: [1, 2] }), { text: 'Save', at: [1, 2] }, 'small values are copied exactly');
  });

  it('cutText never splits a surrogate pair and keeps within the limit', () => {
    const text = 'ab\u{1F600}cd';
    assert.equal(cutText(text, 4), 'ab…');
    assert.equal(cutText(text, 10), text);
    assert.ok(cutText('x'.repeat(100), 10).length <= 10);
  });
});
