import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliCaptured, tempDir } from '../support/cliHarness';
import { ScriptedChatServer } from '../support/scriptedChatServer';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import type { RecordedRequest, ScriptStep } from '../support/scriptedSteps';

// A model server that answers 401 and echoes the credentials it was sent (the key in its
// message, every request header in a dump): the key must not reach stdout or stderr in any mode.

const MODEL = 'claude-scripted-test';
/** No known token shape: only its registration as the key in use can redact it. */
const PLAIN_KEY = 'plain-test-key-7Qm2Zx9Lw4Rt8Vn1';
/** An Anthropic-shaped key. */
const SHAPED_KEY = 'sk-ant-api03-scriptedLeakTest0123456789abcdefABCDEF';
const MODES: string[][] = [[], ['--no-stream'], ['--json'], ['-v'], ['--json', '-v']];

function echoingCredentials(status = 401): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const key = String(request.headers['x-api-key'] ?? request.headers.authorization ?? '');
    const auth = String(request.headers.authorization ?? '');
    return {
      kind: 'error',
      status,
      body: {
        type: 'error',
        error: {
          type: 'authentication_error',
          message: `invalid x-api-key ${key}; Authorization: ${auth}; sent headers ${JSON.stringify(request.headers)}`,
        },
      },
    };
  };
}

describe('gai CLI keeps the API key out of its output', function () {
  this.timeout(60_000);
  let dir: { path: string; remove(): void };
  let server: ScriptedMessagesServer | ScriptedChatServer | undefined;

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    dir.remove();
  });

  function assertNoKey(key: string, output: string, what: string): void {
    assert.ok(!output.includes(key), `${what} carries the key:\n${output}`);
    // Not even a long piece of it (a server may echo a truncated key).
    assert.ok(!output.includes(key.slice(0, 16)), `${what} carries part of the key:\n${output}`);
  }

  for (const [label, key, how] of [
    ['a key from ANTHROPIC_API_KEY', PLAIN_KEY, 'env'],
    ['an sk-ant- key from --api-key', SHAPED_KEY, 'flag'],
    ['a key from the config file', PLAIN_KEY, 'config'],
  ] as const) {
    it(`a 401 echoing ${label} leaves no trace of it in any mode, and the error is still clear`, async () => {
      server = await ScriptedMessagesServer.start(echoingCredentials());
      const env: Record<string, string> = { XDG_CONFIG_HOME: dir.path, ANTHROPIC_BASE_URL: server.baseUrl };
      const extra: string[] = [];
      if (how === 'env') env.ANTHROPIC_API_KEY = key;
      if (how === 'flag') extra.push('--api-key', key);
      if (how === 'config') {
        const path = join(dir.path, 'config.json');
        writeFileSync(path, JSON.stringify({ llm: { apiKey: key, maxRetries: 0 } }));
        extra.push('--config', path);
      }
      for (const mode of MODES) {
        const before = server.requestCount;
        const argv = how === 'config' ? [...extra, 'ask', ...mode, '--model', MODEL, 'Hello'] : ['ask', ...mode, ...extra, '--model', MODEL, 'Hello'];
        const { code, stdout, stderr } = await runCliCaptured(argv, env);
        const what = `gai ${argv.join(' ')}`;
        assert.ok(server.requestCount > before, `${what}: the server was not asked`);
        // The server really echoed it: the test would catch a leak.
        const sent: RecordedRequest | undefined = server.requests.at(-1);
        const credential: unknown = sent?.headers['x-api-key'] ?? String(sent?.headers.authorization).replace(/^Bearer /, '');
        assert.equal(credential, key);
        assert.equal(code, 1, `${what}: ${stderr}`);
        assertNoKey(key, stdout + stderr, what);
        assert.match(stderr, /gai: anthropic at .*401/, `${what}: the error still says what happened:\n${stderr}`);
        assert.match(stderr, /\[redacted\]/, what);
      }
    });
  }

  it('an OpenAI-compatible server echoing the key in a 401 leaves no trace of it', async () => {
    server = await ScriptedChatServer.start(echoingCredentials());
    const env = { XDG_CONFIG_HOME: dir.path };
    for (const mode of MODES) {
      const argv = ['ask', ...mode, '--provider', 'openai', '--base-url', `${server.baseUrl}/v1`, '--api-key', PLAIN_KEY, '--model', 'gpt-test', 'Hello'];
      const { code, stdout, stderr } = await runCliCaptured(argv, env);
      assert.equal(server.requests.at(-1)?.headers.authorization, `Bearer ${PLAIN_KEY}`);
      assert.equal(code, 1, stderr);
      assertNoKey(PLAIN_KEY, stdout + stderr, `gai ${argv.join(' ')}`);
      assert.match(stderr, /401/);
    }
  });

  it('redacts the person\'s own patterns from what it prints', async () => {
    server = await ScriptedMessagesServer.start([{ kind: 'error', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'unknown project ACME-482913' } } }]);
    const path = join(dir.path, 'config.json');
    writeFileSync(path, JSON.stringify({ llm: { maxRetries: 0 }, redact: { patterns: ['ACME-[0-9]{6}'] } }));
    const { code, stdout, stderr } = await runCliCaptured(['--config', path, 'ask', '--model', MODEL, 'Hello'], {
      XDG_CONFIG_HOME: dir.path,
      ANTHROPIC_API_KEY: PLAIN_KEY,
      ANTHROPIC_BASE_URL: server.baseUrl,
    });
    assert.equal(code, 1);
    assert.ok(!(stdout + stderr).includes('ACME-482913'), stderr);
    assert.match(stderr, /unknown project \[redacted\]/);
  });

  it('a bad redact pattern in the config file is a usage error naming the field', async () => {
    const path = join(dir.path, 'config.json');
    writeFileSync(path, JSON.stringify({ redact: { patterns: ['ok', '(unclosed'] } }));
    const { code, stderr } = await runCliCaptured(['--config', path, 'tools'], { XDG_CONFIG_HOME: dir.path });
    assert.equal(code, 2);
    assert.match(stderr, /redact\.patterns\[1\]: not a valid regular expression/);
  });
});
