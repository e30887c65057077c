import { strict as assert } from 'node:assert';
import type { ImageBlock, TextBlock } from '../../src/model/messages';
import { MemoryLogger } from '../../src/common/logger';
import { EchoTool } from '../../src/tools/echoTool';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults, toolResultContent } from '../../src/tools/toolResult';
import { ProbeTool } from '../support/probeTools';

const png: ImageBlock = { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB' } };
const jpeg: ImageBlock = { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQSkZJRgABAQ' } };

describe('ToolRegistry', () => {
  let logger: MemoryLogger;
  let registry: ToolRegistry;

  beforeEach(() => {
    logger = new MemoryLogger();
    registry = new ToolRegistry(logger);
  });

  it('registers tools and answers get/getAll/has/count', () => {
    const echo = new EchoTool();
    const probe = new ProbeTool('probe');
    registry.register(echo);
    registry.register(probe);
    assert.equal(registry.count(), 2);
    assert.equal(registry.has('echo'), true);
    assert.equal(registry.has('nope'), false);
    assert.equal(registry.get('probe'), probe);
    assert.equal(registry.get('nope'), undefined);
    assert.deepEqual(registry.getAll(), [echo, probe]);
    assert.deepEqual(logger.lines, []);
  });

  it('warns when a registration overwrites a tool of the same name, and keeps the new one', () => {
    const first = new ProbeTool('dup');
    const second = new ProbeTool('dup');
    registry.register(first);
    registry.register(second);
    assert.deepEqual(logger.lines, ['[warn] Tool dup is already registered. Overwriting.']);
    assert.equal(registry.get('dup'), second);
    assert.equal(registry.count(), 1);
  });

  it('unregisters and clears', () => {
    registry.register(new EchoTool());
    registry.register(new ProbeTool('probe'));
    assert.equal(registry.unregister('echo'), true);
    assert.equal(registry.unregister('echo'), false);
    assert.equal(registry.has('echo'), false);
    assert.equal(registry.count(), 1);
    registry.clear();
    assert.equal(registry.count(), 0);
    assert.deepEqual(registry.getAll(), []);
  });

  describe('execute()', () => {
    it('runs a tool with its validated input and times it', async () => {
      registry.register(new EchoTool());
      const result = await registry.execute({ id: 't1', name: 'echo', input: { message: 'hello' } });
      assert.equal(result.success, true);
      assert.equal(result.observation, 'Echoed "hello".');
      assert.equal((result.data as { echo: string }).echo, 'hello');
      assert.ok(result.durationMs >= 0);
    });

    it('reports an unknown tool as NOT_FOUND and lists the available ones', async () => {
      registry.register(new EchoTool());
      const result = await registry.execute({ id: 't1', name: 'x', input: {} });
      assert.equal(result.success, false);
      assert.equal(result.code, 'NOT_FOUND');
      assert.equal(result.error, 'Tool not found: x');
      assert.equal(result.hint, 'Available tools: echo.');
    });

    it('turns a thrown error into FAILED', async () => {
      registry.register(new ProbeTool('probe'));
      const result = await registry.execute({ id: 't1', name: 'probe', input: { throws: 'disk on fire' } });
      assert.equal(result.success, false);
      assert.equal(result.code, 'FAILED');
      assert.equal(result.error, 'Tool execution failed: disk on fire');
      assert.equal(result.observation, 'probe failed: disk on fire');
    });

    it('rejects invalid input as INVALID_INPUT, naming the field, without calling execute', async () => {
      const probe = new ProbeTool('probe');
      registry.register(probe);
      const result = await registry.execute({ id: 't1', name: 'probe', input: { ms: 'soon', colour: 'red' } });
      assert.equal(result.success, false);
      assert.equal(result.code, 'INVALID_INPUT');
      assert.match(result.error ?? '', /^Invalid input for tool probe: /);
      assert.match(result.error ?? '', /ms: expected an integer/);
      assert.match(result.error ?? '', /colour: unknown field/);
      assert.match(result.observation, /^probe did not run: its input was invalid/);
      assert.equal(probe.calls, 0);
    });

    it('passes the caller\'s signal to the tool', async () => {
      const probe = new ProbeTool('probe');
      registry.register(probe);
      const controller = new AbortController();
      await registry.execute({ id: 't1', name: 'probe', input: {} }, { signal: controller.signal });
      assert.equal(probe.signals[0], controller.signal);
    });
  });

  describe('definitions', () => {
    it('getDefinitions() gives name, description and input schema of every tool', () => {
      registry.register(new EchoTool());
      const definitions = registry.getDefinitions();
      assert.equal(definitions.length, 1);
      const [echo] = definitions;
      assert.equal(echo?.name, 'echo');
      assert.equal(echo?.description, new EchoTool().description);
      assert.deepEqual(echo?.inputSchema, {
        type: 'object',
        additionalProperties: false,
        required: ['message'],
        properties: { message: { type: 'string', description: 'The message to echo back' } },
      });
    });

    it('getOpenAiDefinitions() wraps each definition as a function', () => {
      registry.register(new EchoTool());
      registry.register(new ProbeTool('probe'));
      const definitions = registry.getOpenAiDefinitions();
      assert.deepEqual(
        definitions.map((d) => Object.keys(d)),
        [
          ['type', 'function'],
          ['type', 'function'],
        ],
      );
      const [echo, probe] = definitions;
      assert.deepEqual(echo, {
        type: 'function',
        function: { name: 'echo', description: new EchoTool().description, parameters: new EchoTool().getDefinition().inputSchema },
      });
      assert.equal(probe?.function.name, 'probe');
      assert.deepEqual(Object.keys(probe?.function ?? {}), ['name', 'description', 'parameters']);
    });
  });
});

describe('toolResultContent()', () => {
  it('puts a JSON text block first and the images after it as image blocks', () => {
    const result = { ...ToolResults.success('Took a picture.', { width: 1 }, [png, jpeg]), durationMs: 5 };
    const content = toolResultContent(result);
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'image', 'image'],
    );
    assert.equal(content[1], png);
    assert.equal(content[2], jpeg);
    const text = (content[0] as TextBlock).text;
    assert.deepEqual(JSON.parse(text), { success: true, observation: 'Took a picture.', data: { width: 1 } });
    assert.equal(text.includes(png.source.data), false, 'no base64 in the text');
    assert.equal(text.includes(jpeg.source.data), false, 'no base64 in the text');
    assert.equal(text.includes('images'), false);
  });

  it('gives a failure its code, error and hint', () => {
    const result = ToolResults.failure('NOT_FOUND', 'No button "Save"', { hint: 'Look again.', observation: 'Nothing matched.' });
    const content = toolResultContent(result);
    assert.equal(content.length, 1);
    assert.deepEqual(JSON.parse((content[0] as TextBlock).text), {
      success: false,
      observation: 'Nothing matched.',
      code: 'NOT_FOUND',
      error: 'No button "Save"',
      hint: 'Look again.',
    });
  });

  it('does not send durationMs', () => {
    const text = (toolResultContent({ ...ToolResults.success('ok'), durationMs: 12 })[0] as TextBlock).text;
    assert.equal(text.includes('durationMs'), false);
  });

  it('truncates long data, says how much was cut and stays valid JSON', () => {
    const long = 'x'.repeat(50_000);
    const content = toolResultContent(ToolResults.success('Read a lot.', { text: long }));
    const text = (content[0] as TextBlock).text;
    assert.ok(text.length <= 20_000, `text is ${text.length} characters`);
    const parsed = JSON.parse(text);
    assert.equal(parsed.observation, 'Read a lot.');
    assert.equal(parsed.data.truncated, true);
    assert.equal(parsed.data.originalLength, JSON.stringify({ text: long }).length);
    const whole = JSON.stringify({ text: long });
    assert.ok(String(parsed.data.preview).startsWith(whole.slice(0, 1_000)), 'the preview is the start of the data');
    assert.match(parsed.data.preview, /\(\d+ more characters\)$/, 'and says how much is left out');
  });

  it('leaves a text that fits untouched', () => {
    const content = toolResultContent(ToolResults.success('Short.', { text: 'y'.repeat(1_000) }));
    assert.equal((content[0] as TextBlock).text.includes('truncated'), false);
  });
});
