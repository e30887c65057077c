// `gai mcp --http`'s bearer token is kept across restarts (a client stores the header it was
// given), in a folder made when missing, readable by its owner alone, until --new-token.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOURCE_MCP_SERVER, startHttp } from '../support/mcpServerProcess';

function serverEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), GAI_BRAIN_DIR: join(home, 'brain'), ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };
}

async function initializeStatus(url: URL, token: string): Promise<number> {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` }, body: JSON.stringify(initialize) });
  await response.body?.cancel();
  return response.status;
}

describe('gai mcp --http: the bearer token kept across restarts (real MCP SDK client)', function () {
  this.timeout(90_000);
  let home: string;
  beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'gai-mcp-token-'))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('--token-file in a folder that does not exist yet: the folder is made (700), the file is its owner\'s (600), and a restart keeps the token', async () => {
    const file = join(home, 'new', 'folder', 'mcp-token');
    const first = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), file);
    const token = first.token;
    try {
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(statSync(join(home, 'new', 'folder')).mode & 0o777, 0o700);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.match(first.stderr(), /new, kept across restarts/);
    } finally {
      await first.stop();
    }
    const second = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), file);
    try {
      assert.equal(second.token, token);
      assert.match(second.stderr(), /the one kept from before; --new-token makes a new one/);
      // A client that stored the header before the restart still gets in.
      const client = await second.connect(token);
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'ocr'));
    } finally {
      await second.stop();
    }
  });

  it('--new-token makes a new one: the old header is refused (401), the new one works', async () => {
    const file = join(home, 'mcp-token');
    const first = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), file);
    const old = first.token;
    await first.stop();
    const second = await startHttp(SOURCE_MCP_SERVER, ['--new-token'], serverEnv(home), file);
    try {
      assert.notEqual(second.token, old);
      assert.equal(readFileSync(file, 'utf8').trim(), second.token);
      assert.equal(await initializeStatus(second.url, old), 401);
      assert.equal(await initializeStatus(second.url, second.token), 200);
    } finally {
      await second.stop();
    }
  });

  it('without --token-file the token is printed and kept in GAI\'s config folder; a kept file others could read is made private, with a warning; one that holds no token is replaced', async () => {
    const first = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), undefined);
    const kept = join(home, 'config', 'gai', 'mcp-token');
    try {
      assert.match(first.stderr(), new RegExp(`bearer token: ${first.token} \\(new, kept across restarts in ${kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.equal(readFileSync(kept, 'utf8').trim(), first.token);
    } finally {
      await first.stop();
    }
    chmodSync(kept, 0o644);
    const second = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), undefined);
    try {
      assert.equal(second.token, first.token);
      assert.equal(statSync(kept).mode & 0o777, 0o600);
      assert.match(second.stderr(), /\[warn\] gai mcp: \S+mcp-token could be read by other users; it is now readable by you alone/);
    } finally {
      await second.stop();
    }
    writeFileSync(kept, 'not a token\n');
    const third = await startHttp(SOURCE_MCP_SERVER, [], serverEnv(home), undefined);
    try {
      assert.match(third.token, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(third.token, first.token);
    } finally {
      await third.stop();
    }
  });
});
