import { strict as assert } from 'node:assert';
import { Type } from '@sinclair/typebox';
import type { ToolResult } from '../../src/tools/toolTypes';
import { limitToolInput } from '../../src/common/inputLimits';
import { toolInput } from '../../src/common/schema';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { MAX_RESULT_FIELD_CHARS, MAX_RESULT_TEXT_CHARS, normalizeResult, toolResultContent, ToolResults } from '../../src/tools/toolResult';
import { deepObject } from './inputLimits.test';

const MEGABYTE = 'M'.repeat(1_000_000);

const echoSchema = toolInput({ text: Type.String(), options: Type.Optional(Type.Object({ depth: Type.Integer() }, { additionalProperties: false })) });

/** Echoes its input into every text of its result, as a careless tool would. */
class LoudTool extends ToolBase<typeof echoSchema> {
  readonly name = 'loud';
  readonly description = 'Fails, repeating its input everywhere.';
  readonly inputSchema = echoSchema;
  readonly risk = 'read' as const;
  async execute(input: { text: string }): Promise<ToolResult> {
    const huge = input.text.repeat(Math.ceil(1_000_000 / input.text.length));
    return ToolResults.failure('FAILED', `failed on ${huge}`, { observation: `tried ${huge}`, hint: `retry ${huge}` });
  }
}

/** Returns a failure without a code, as a hand-built result might. */
class CodelessTool extends ToolBase<typeof echoSchema> {
  readonly name = 'codeless';
  readonly description = 'Fails without a code.';
  readonly inputSchema = echoSchema;
  readonly risk = 'read' as const;
  async execute(): Promise<ToolResult> {
    return { success: false, observation: 'it went wrong', durationMs: 0 } as ToolResult;
  }
}

function payload(result: ToolResult): { text: string; json: Record<string, unknown> } {
  const block = toolResultContent(result)[0];
  assert.equal(block?.type, 'text');
  const text = block.type === 'text' ? block.text : '';
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

describe('bounded results and validation of hostile input', () => {
  const registry = new ToolRegistry();
  registry.register(new LoudTool());
  registry.register(new CodelessTool());

  it('a 5,000-deep input is a clean INVALID_INPUT naming the field and the limit, not a stack overflow', async () => {
    const result = await registry.execute({ id: '1', name: 'loud', input: { text: 'x', options: deepObject(5_000) } });
    assert.equal(result.code, 'INVALID_INPUT');
    assert.match(result.error ?? '', /input\.options\.a\.a.*: nested deeper than 32 levels/);
    const validation = new LoudTool().validateInput({ text: 'x', options: deepObject(100_000) });
    assert.ok(!validation.ok && /nested deeper than 32 levels/.test(validation.errors[0] ?? ''));
  });

  it('the stand-in made by a provider reports its problem through validation', async () => {
    const result = await registry.execute({ id: '2', name: 'loud', input: limitToolInput({ text: MEGABYTE }) });
    assert.equal(result.code, 'INVALID_INPUT');
    assert.match(result.error ?? '', /input\.text: text of 1000000 characters is longer than the limit of 20000/);
    assert.ok(result.error!.length < 500);
  });

  it('an error echoing a megabyte three times is bounded in every field and in the text the model gets', async () => {
    const result = await registry.execute({ id: '3', name: 'loud', input: { text: 'abc' } });
    assert.equal(result.code, 'FAILED');
    for (const field of [result.error, result.observation, result.hint]) {
      assert.ok((field ?? '').length <= MAX_RESULT_FIELD_CHARS + 40, `bounded: ${(field ?? '').length}`);
      assert.match(field ?? '', /more characters\)$/, 'says that it was cut');
    }
    const { text, json } = payload(result);
    assert.ok(text.length <= MAX_RESULT_TEXT_CHARS);
    assert.equal(json.code, 'FAILED');
    assert.ok(text.startsWith('{"success":false,"code":"FAILED",'), 'the code is at the start, whatever follows');
  });

  it('absurd unknown field names and many problems give a short invalid-input list', async () => {
    const input: Record<string, unknown> = { text: true };
    for (let i = 0; i < 150; i++) input[`${'w'.repeat(15_000 / 150 - 5)}${i}`] = i;
    const result = await registry.execute({ id: '4', name: 'loud', input });
    assert.equal(result.code, 'INVALID_INPUT');
    assert.ok(result.error!.length < 2_100, `bounded: ${result.error!.length}`);
    assert.match(result.error ?? '', /and \d+ more problem\(s\)/);
    assert.match(result.error ?? '', /text: expected a string, got boolean true/);
  });

  it('a failure without a code leaves the tool as FAILED with an error', async () => {
    const result = await registry.execute({ id: '5', name: 'codeless', input: { text: 'x' } });
    assert.equal(result.success, false);
    assert.equal(result.code, 'FAILED');
    assert.equal(result.error, 'it went wrong');
    assert.equal(payload({ success: false, observation: 'x', durationMs: 0 }).json.code, 'FAILED', 'also when built by hand');
  });

  it('toolResultContent stays under its cap and parseable in every case', () => {
    const cases: ToolResult[] = [
      ToolResults.success('ok', { blob: MEGABYTE }),
      ToolResults.success('ok', { quotes: '"\\'.repeat(200_000) }),
      ToolResults.success('ok', { nul: '\u0000'.repeat(100_000) }),
      ToolResults.success('ok', deepObject(10_000)),
      { success: false, code: 'FAILED', error: '\u0000'.repeat(1_000_000), observation: '\u0001'.repeat(1_000_000), hint: '\u0002'.repeat(1_000_000), durationMs: 0 },
      { success: true, observation: MEGABYTE, durationMs: 0 },
    ];
    for (const result of cases) {
      const { text, json } = payload(result);
      assert.ok(text.length <= MAX_RESULT_TEXT_CHARS, `${text.length} characters`);
      assert.equal(json.success, result.success);
    }
  });

  it('normalizeResult keeps a good result as it is', () => {
    const good = ToolResults.failure('DENIED', 'Denied: click', { hint: 'ask' });
    assert.deepEqual(normalizeResult(good), good);
    const success = ToolResults.success('Pressed.', { n: 1 });
    assert.deepEqual(normalizeResult(success), success);
  });
});
