import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OpenAiFunctionDefinition, ToolDefinition } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { runCliCaptured, tempDir, type CliRun } from '../support/cliHarness';
import { ScriptedChatServer } from '../support/scriptedChatServer';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply, type ScriptStep } from '../support/scriptedSteps';

const ROOT = resolve(__dirname, '../..');

// The installed Anthropic SDK warns on the console (outside the CLI's streams) for the
// default model, so the scripted runs name a model.
const MODEL = 'claude-scripted-test';
/** What the CLI registers, in order: echo, then the desktop tools. */
const ALL_TOOLS = ['echo', 'smart_screen_reader', 'screen_capture', 'ocr', 'get_element_tree', 'click', 'type_text', 'press_key', 'tab_navigate', 'scroll', 'spotlight', 'launch_app', 'zoom', 'cursor_position', 'mouse_move', 'drag', 'hold_key', 'wait', 'computer', 'navigate_to', 'get_current_node', 'run_routine'];
/** What the default profile (`standard`, as in the extension) shows: no `system` tools. */
const STANDARD_TOOLS = ALL_TOOLS.filter((name) => name !== 'spotlight' && name !== 'launch_app');

interface AskSummary {
  message: string;
  stopReason: string;
  iterations: number;
  usage: { inputTokens: number; outputTokens: number };
  toolCalls: Array<{ id: string; name: string; input: unknown; result: ToolResult }>;
}

/** The model echoes "ping", then answers. */
const echoThenAnswer = (): ScriptStep[] => [
  toolReply([{ name: 'echo', input: { message: 'ping' } }], 'Let me echo.'),
  textReply('The echo said ping.'),
];

describe('gai CLI (in process)', function () {
  this.timeout(20_000);

  let dir: { path: string; remove(): void };
  /** No API keys; the config directory is an empty temp dir, so no user config is read. */
  let baseEnv: Record<string, string>;
  const run = (argv: string[], env: Record<string, string> = baseEnv): Promise<CliRun> => runCliCaptured(argv, env);

  beforeEach(() => {
    dir = tempDir();
    baseEnv = { XDG_CONFIG_HOME: dir.path };
  });
  afterEach(() => dir.remove());

  describe('tools', () => {
    it('lists echo with its risk and description', async () => {
      const { code, stdout, stderr } = await run(['tools']);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^echo +read +Echo a message back unchanged/m);
    });

    it('--json prints the definitions as JSON', async () => {
      const { code, stdout } = await run(['tools', '--json']);
      assert.equal(code, 0);
      const definitions = JSON.parse(stdout) as Array<{ name: string; input_schema: ToolDefinition['inputSchema'] }>;
      assert.deepEqual(definitions.map((d) => d.name), STANDARD_TOOLS);
      assert.equal(definitions[0]?.input_schema.type, 'object');
      assert.deepEqual(definitions[0]?.input_schema.required, ['message']);
    });

    it('--json --format anthropic prints the Anthropic wire shape (input_schema)', async () => {
      const { code, stdout } = await run(['tools', '--json', '--format', 'anthropic']);
      assert.equal(code, 0);
      const [echo] = JSON.parse(stdout) as Array<Record<string, unknown>>;
      assert.deepEqual(Object.keys(echo ?? {}).sort(), ['description', 'input_schema', 'name']);
    });

    it('--json --format openai prints function definitions', async () => {
      const { code, stdout } = await run(['tools', '--json', '--format', 'openai']);
      assert.equal(code, 0);
      const definitions = JSON.parse(stdout) as OpenAiFunctionDefinition[];
      assert.equal(definitions.length, STANDARD_TOOLS.length);
      assert.equal(definitions[0]?.type, 'function');
      assert.equal(definitions[0]?.function.name, 'echo');
      assert.equal(definitions[0]?.function.parameters.type, 'object');
      assert.deepEqual(Object.keys(definitions[0]?.function ?? {}), ['name', 'description', 'parameters']);
    });

    it('--profile nonsense exits 2 naming --profile and the valid profiles', async () => {
      const { code, stdout, stderr } = await run(['tools', '--profile', 'nonsense']);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.equal(stderr, 'gai: --profile: expected one of read-only, standard, full, got "nonsense"\n');
    });

    it('an unknown option exits 2', async () => {
      const { code, stderr } = await run(['tools', '--bogus']);
      assert.equal(code, 2);
      assert.match(stderr, /unknown option '--bogus'/);
    });
  });

  describe('tool', () => {
    it('runs echo, exits 0 and prints the observation and the data', async () => {
      const { code, stdout, stderr } = await run(['tool', 'echo', '--input', '{"message":"hi"}']);
      assert.equal(code, 0, stderr);
      const [first, ...rest] = stdout.split('\n');
      assert.equal(first, 'Echoed "hi".');
      assert.equal((JSON.parse(rest.join('\n')) as { echo: string }).echo, 'hi');
      assert.equal(stderr, '');
    });

    it('--json prints the whole result', async () => {
      const { code, stdout } = await run(['tool', 'echo', '--input', '{"message":"hi"}', '--json']);
      assert.equal(code, 0);
      const result = JSON.parse(stdout) as ToolResult<{ echo: string; timestamp: string }>;
      assert.equal(result.success, true);
      assert.equal(result.observation, 'Echoed "hi".');
      assert.equal(result.data?.echo, 'hi');
      assert.ok(!Number.isNaN(Date.parse(result.data?.timestamp ?? '')));
      assert.equal(typeof result.durationMs, 'number');
    });

    it('bad JSON in --input exits 2 and names --input', async () => {
      const { code, stdout, stderr } = await run(['tool', 'echo', '--input', '{message: hi}']);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, /^gai: --input: not valid JSON \(/);
    });

    it('invalid input exits 2 (bad usage) with INVALID_INPUT and the field', async () => {
      const { code, stdout, stderr } = await run(['tool', 'echo', '--input', '{"message":{"text":42}}']);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, /^INVALID_INPUT: Invalid input for tool echo: message: expected a string, got an object$/m);
      assert.match(stderr, /^hint: Fix the input to match the tool schema/m);
    });

    it('the default input {} is invalid for echo, naming the missing field', async () => {
      const { code, stderr } = await run(['tool', 'echo']);
      assert.equal(code, 2);
      assert.match(stderr, /INVALID_INPUT: .*message: required field is missing/);
    });

    it('an unknown tool exits 2 (bad usage) with NOT_FOUND and the tools of the profile', async () => {
      const { code, stderr } = await run(['tool', 'nope', '--input', '{}']);
      assert.equal(code, 2);
      assert.match(stderr, /^NOT_FOUND: Tool not found: nope$/m);
      assert.match(stderr, new RegExp(`^hint: Available tools: ${STANDARD_TOOLS.join(', ')}\\.$`, 'm'));
    });

    it('--profile nonsense exits 2 naming --profile', async () => {
      const { code, stderr } = await run(['tool', 'echo', '--input', '{"message":"hi"}', '--profile', 'nonsense']);
      assert.equal(code, 2);
      assert.match(stderr, /^gai: --profile: /);
    });
  });

  describe('config file', () => {
    const writeConfig = (content: unknown): string => {
      const path = join(dir.path, 'config.json');
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    };

    it('an invalid field exits 2 naming the field path', async () => {
      const path = writeConfig({ llm: { maxTokens: 0 } });
      const { code, stderr } = await run(['--config', path, 'tools']);
      assert.equal(code, 2);
      assert.equal(stderr, `gai: config file ${path}: llm.maxTokens: must be at least 1, got number 0\n`);
    });

    it('an unknown or mistyped field exits 2 naming each one', async () => {
      const path = writeConfig({ llm: { maxTokenz: 5 }, tools: { profile: 'everything' } });
      const { code, stderr } = await run(['--config', path, 'tools']);
      assert.equal(code, 2);
      assert.match(stderr, /llm\.maxTokenz: unknown field/);
      assert.match(stderr, /tools\.profile: expected one of "read-only", "standard", "full", got "everything"/);
    });

    it('a file that is not JSON exits 2', async () => {
      const path = writeConfig('{ not json');
      const { code, stderr } = await run(['--config', path, 'tools']);
      assert.equal(code, 2);
      assert.match(stderr, /^gai: config file .*: not valid JSON/);
    });

    it('a missing --config file exits 2, a missing default file is fine', async () => {
      const missing = join(dir.path, 'nope.json');
      const explicit = await run(['--config', missing, 'tools']);
      assert.equal(explicit.code, 2);
      assert.match(explicit.stderr, /cannot read it/);
      assert.equal((await run(['tools'])).code, 0);
    });

    it('reads the default file from $XDG_CONFIG_HOME/gai/config.json', async () => {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(dir.path, 'gai'));
      writeFileSync(join(dir.path, 'gai', 'config.json'), JSON.stringify({ tools: { deny: ['*'], allow: ['echo'] } }));
      const { code, stdout } = await run(['tools', '--json']);
      assert.equal(code, 0);
      assert.deepEqual(JSON.parse(stdout), [], 'every tool is on the deny list of the default config');
    });
  });

  describe('ask (Anthropic Messages API)', () => {
    let server: ScriptedMessagesServer;
    const env = (): Record<string, string> => ({ ...baseEnv, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.baseUrl });

    afterEach(async () => server.close());

    it('streams the text to stdout, shows the tool call on stderr and exits 0', async () => {
      server = await ScriptedMessagesServer.start(echoThenAnswer());
      const { code, stdout, stderr } = await run(['ask', '--model', MODEL, 'Echo ping please'], env());
      assert.equal(code, 0, stderr);
      assert.equal(stdout, 'Let me echo.The echo said ping.');
      assert.match(stderr, /→ echo \{"message":"ping"\}\n/);
      assert.match(stderr, / {2}✓ Echoed "ping"\. \(\d+ ms\)\n/);
      assert.match(stderr, /\[2 iteration\(s\) · 20 in \/ 10 out tokens · end_turn\]/);

      assert.equal(server.requestCount, 2);
      const [first, second] = server.requests;
      assert.equal(first?.streamed, true);
      assert.equal(first?.body.model, MODEL);
      assert.equal(first?.headers.authorization, 'Bearer test');
      // `computer` goes only to a model with a native computer tool, which the scripted one is not.
      assert.deepEqual(
        (first?.body.tools as Array<{ name: string }>).map((t) => t.name),
        STANDARD_TOOLS.filter((name) => name !== 'computer'),
      );
      // The second request carries the echo result for the model's tool_use id.
      const messages = second?.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
      const toolUse = messages[1]?.content.find((b) => b.type === 'tool_use');
      const toolResult = messages[2]?.content.find((b) => b.type === 'tool_result');
      assert.ok(toolUse && toolResult);
      assert.equal(toolResult.tool_use_id, toolUse.id);
      assert.equal(toolResult.is_error, false);
    });

    it('--json prints a JSON summary: message, toolCalls, iterations, usage', async () => {
      server = await ScriptedMessagesServer.start(echoThenAnswer());
      const { code, stdout, stderr } = await run(['ask', '--json', '--model', MODEL, 'Echo ping please'], env());
      assert.equal(code, 0, stderr);
      const summary = JSON.parse(stdout) as AskSummary;
      assert.equal(summary.message, 'The echo said ping.');
      assert.equal(summary.stopReason, 'end_turn');
      assert.equal(summary.iterations, 2);
      assert.deepEqual(summary.usage, { inputTokens: 20, outputTokens: 10 });
      assert.equal(summary.toolCalls.length, 1);
      const [echo] = summary.toolCalls;
      assert.equal(echo?.name, 'echo');
      assert.deepEqual(echo?.input, { message: 'ping' });
      assert.equal(echo?.result.success, true);
      assert.equal(echo?.result.observation, 'Echoed "ping".');
      assert.equal(stderr, '', 'nothing is rendered with --json');
    });

    it('--no-stream prints the whole reply', async () => {
      server = await ScriptedMessagesServer.start(echoThenAnswer());
      const { code, stdout } = await run(['ask', '--no-stream', '--model', MODEL, 'Echo ping please'], env());
      assert.equal(code, 0);
      assert.equal(stdout, 'The echo said ping.');
      assert.equal(server.requests.every((r) => !r.streamed), true);
    });

    it('--max-iterations 2 with a model that keeps calling echo exits 3 with [Max iterations reached]', async () => {
      server = await ScriptedMessagesServer.start(() => toolReply([{ name: 'echo', input: { message: 'again' } }], 'Once more.'));
      const { code, stdout } = await run(['ask', '--json', '--max-iterations', '2', '--model', MODEL, 'Loop'], env());
      assert.equal(code, 3);
      const summary = JSON.parse(stdout) as AskSummary;
      assert.equal(summary.stopReason, 'max_iterations');
      assert.equal(summary.iterations, 2);
      assert.ok(summary.message.includes('[Max iterations reached]'), summary.message);
      assert.equal(summary.toolCalls.length, 2);
      assert.equal(server.requestCount, 2);
    });

    it('without --json, the max-iterations stop is shown and exits 3', async () => {
      server = await ScriptedMessagesServer.start(() => toolReply([{ name: 'echo', input: { message: 'again' } }]));
      const streamed = await run(['ask', '--max-iterations', '2', '--model', MODEL, 'Loop'], env());
      assert.equal(streamed.code, 3);
      assert.match(streamed.stderr, /\[2 iteration\(s\) · .* · max_iterations\]/);
      const whole = await run(['ask', '--no-stream', '--max-iterations', '1', '--model', MODEL, 'Loop'], env());
      assert.equal(whole.code, 3);
      assert.ok(whole.stdout.includes('[Max iterations reached]'), whole.stdout);
    });

    it('takes maxIterations from the config file', async () => {
      server = await ScriptedMessagesServer.start(() => toolReply([{ name: 'echo', input: { message: 'again' } }]));
      const path = join(dir.path, 'config.json');
      writeFileSync(path, JSON.stringify({ agent: { maxIterations: 1 }, llm: { model: MODEL } }));
      const { code, stdout } = await run(['--config', path, 'ask', '--json', 'Loop'], env());
      assert.equal(code, 3);
      assert.equal((JSON.parse(stdout) as AskSummary).iterations, 1);
      assert.equal(server.requests[0]?.body.model, MODEL);
    });

    it('a bad --max-iterations exits 2 naming the flag', async () => {
      server = await ScriptedMessagesServer.start([]);
      const { code, stderr } = await run(['ask', '--max-iterations', 'many', 'Loop'], env());
      assert.equal(code, 2);
      assert.match(stderr, /^gai: --max-iterations: expected a whole number from 1 to 1000, got "many"/);
      assert.equal(server.requestCount, 0);
    });

    it('retries a 529 through the SDK and still answers', async () => {
      server = await ScriptedMessagesServer.start([
        { kind: 'error', status: 529, headers: { 'retry-after-ms': '1' } },
        textReply('Hello after a retry.'),
      ]);
      const { code, stdout } = await run(['ask', '--model', MODEL, 'Hi'], env());
      assert.equal(code, 0);
      assert.equal(stdout, 'Hello after a retry.');
      assert.equal(server.requestCount, 2);
    });
  });

  describe('ask (OpenAI chat completions)', () => {
    let server: ScriptedChatServer;
    afterEach(async () => server.close());

    it('--provider openai --base-url --api-key works the same', async () => {
      server = await ScriptedChatServer.start(echoThenAnswer());
      const argv = ['ask', '--provider', 'openai', '--base-url', `${server.baseUrl}/v1`, '--api-key', 'test', 'Echo ping please'];
      const streamed = await run(argv);
      assert.equal(streamed.code, 0, streamed.stderr);
      assert.equal(streamed.stdout, 'Let me echo.The echo said ping.');
      assert.match(streamed.stderr, /→ echo \{"message":"ping"\}\n/);
      assert.equal(server.requests[0]?.path, '/v1/chat/completions');
      assert.equal(server.requests[0]?.headers.authorization, 'Bearer test');
      assert.equal(server.requests[0]?.body.model, 'gpt-4.1');

      server.push(...echoThenAnswer());
      const json = await run([...argv.slice(0, -1), '--json', 'Echo ping please']);
      assert.equal(json.code, 0, json.stderr);
      const summary = JSON.parse(json.stdout) as AskSummary;
      assert.equal(summary.message, 'The echo said ping.');
      assert.equal(summary.iterations, 2);
      assert.deepEqual(
        summary.toolCalls.map((c) => [c.name, c.input, c.result.success]),
        [['echo', { message: 'ping' }, true]],
      );
      assert.deepEqual(summary.usage, { inputTokens: 20, outputTokens: 10 });
    });
  });

  describe('ask without an API key', () => {
    it('exits 2 naming ANTHROPIC_API_KEY', async () => {
      const { code, stdout, stderr } = await run(['ask', 'Hello']);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, /^gai: .*ANTHROPIC_API_KEY/);
    });

    it('exits 2 naming OPENAI_API_KEY for --provider openai', async () => {
      const { code, stderr } = await run(['ask', '--provider', 'openai', 'Hello']);
      assert.equal(code, 2);
      assert.match(stderr, /OPENAI_API_KEY/);
    });

    it('rejects an unknown --provider with exit 2', async () => {
      const { code, stderr } = await run(['ask', '--provider', 'bedrock', 'Hello']);
      assert.equal(code, 2);
      assert.match(stderr, /^gai: provider: expected one of anthropic, openai, ollama, google, vscode-lm, got "bedrock"/);
    });
  });
});

describe('gai CLI (child process)', function () {
  this.timeout(60_000);

  /** The built CLI, building it when missing; falls back to the TypeScript source under tsx. */
  async function cliCommand(): Promise<{ args: string[]; built: boolean }> {
    const cli = join(ROOT, 'dist/cli.js');
    const config = join(ROOT, 'esbuild.config.mjs');
    if (!existsSync(cli) && existsSync(config)) {
      await new Promise<void>((done) => execFile(process.execPath, [config], { cwd: ROOT, timeout: 45_000 }, () => done()));
    }
    if (existsSync(cli)) return { args: [cli], built: true };
    return { args: ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')], built: false };
  }

  it('`tools --json` exits 0 and prints valid JSON', async function () {
    const { args, built } = await cliCommand();
    if (!built && this.test) this.test.title += ' (ran src/cli/main.ts under tsx: dist/cli.js could not be built)';
    const dir = tempDir();
    try {
      const env = { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: dir.path, HOME: dir.path };
      const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = execFile(process.execPath, [...args, 'tools', '--json'], { cwd: ROOT, env, timeout: 30_000 }, (_error, out, err) =>
          done({ code: child.exitCode, stdout: out, stderr: err }),
        );
      });
      assert.equal(code, 0, stderr);
      const definitions = JSON.parse(stdout) as ToolDefinition[];
      assert.ok(Array.isArray(definitions));
      assert.ok(definitions.some((d) => d.name === 'echo'));
    } finally {
      dir.remove();
    }
  });
});
