import { strict as assert } from 'node:assert';
import type { ToolDefinition } from '../../src/model/messages';
import { offeredTools, REPLACED_BY_NATIVE_COMPUTER } from '../../src/agent/computerToolChoice';

const tool = (name: string, properties: Record<string, unknown> = {}): ToolDefinition => ({
  name,
  description: `${name}.`,
  inputSchema: { type: 'object', properties },
});

const all = [
  tool('click', { x: { type: 'number' }, y: { type: 'number' }, text: { type: 'string' } }),
  tool('ocr'),
  tool('get_element_tree'),
  tool('navigate_to'),
  tool('get_current_node'),
  tool('launch_app'),
  ...[...REPLACED_BY_NATIVE_COMPUTER].map((name) => tool(name)),
  tool('computer'),
];

describe('The tools a turn offers', () => {
  it('with a native computer tool: computer and what it does not replace, click by text only', () => {
    const offered = offeredTools(all, true);
    assert.deepEqual(offered.map((t) => t.name), ['click', 'ocr', 'get_element_tree', 'navigate_to', 'get_current_node', 'launch_app', 'computer']);
    const click = offered[0]!;
    assert.deepEqual(Object.keys(click.inputSchema.properties ?? {}), ['text']);
    assert.match(click.description, /clicks by text only/);
    // The registry's definition is not changed for the runtime's validation.
    assert.deepEqual(Object.keys(all[0]!.inputSchema.properties ?? {}), ['x', 'y', 'text']);
  });

  it('without one: every GAI tool but computer', () => {
    const offered = offeredTools(all, false);
    assert.equal(offered.length, all.length - 1);
    assert.ok(!offered.some((t) => t.name === 'computer'));
    assert.ok(offered.some((t) => t.name === 'screen_capture'));
  });

  it('native without a computer tool registered offers the GAI tools unchanged', () => {
    const withoutComputer = all.filter((t) => t.name !== 'computer');
    assert.deepEqual(offeredTools(withoutComputer, true), withoutComputer);
  });
});
