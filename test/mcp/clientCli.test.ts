import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliCaptured, tempDir } from '../support/cliHarness';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply } from '../support/scriptedSteps';
import { ECHO_SERVER, echoServerFiles, isRunning, waitUntil } from './mcpTestServer';

// `gai ask` with mcpServers in the CLI config: the server's tools reach the model, and the
// server process ends with the CLI.

describe('MCP client: mcpServers in the CLI config', function () {
  this.timeout(30_000);
  const dir = tempDir();
  const files = echoServerFiles();
  let server: ScriptedMessagesServer | undefined;

  after(async () => {
    await server?.close();
    dir.remove();
    files.remove();
  });

  const writeConfig = (mcpServers: unknown): string => {
    const path = join(dir.path, 'config.json');
    writeFileSync(path, JSON.stringify({ mcpServers }));
    return path;
  };

  it('gai ask offers the configured server tools, runs one, and stops the server when done', async () => {
    server = await ScriptedMessagesServer.start([toolReply([{ name: 'notes__read_note', input: { title: 'groceries' } }]), textReply('Milk.')]);
    const config = writeConfig({ notes: { command: process.execPath, args: [ECHO_SERVER], env: { MCP_ECHO_LOG: files.log } } });
    const env = { XDG_CONFIG_HOME: dir.path, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.baseUrl };
    const { code, stdout, stderr } = await runCliCaptured(['--config', config, 'ask', '--model', 'test-model', 'what is on my groceries note?'], env);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'Milk.');
    assert.match(stderr, /→ notes__read_note \{"title":"groceries"\}/);
    assert.match(stderr, /✓ Note "groceries": buy milk/);
    const started = files.entries().filter((entry) => entry.started);
    assert.equal(started.length, 1);
    const pid = Number(started[0]?.pid);
    assert.ok(await waitUntil(() => !isRunning(pid)), 'the MCP server process ended with the CLI');
  });

  it('a bad entry exits 2 naming the server and the field', async () => {
    const config = writeConfig({ notes: { command: 'node', args: 'server.js' } });
    const { code, stderr } = await runCliCaptured(['--config', config, 'tools'], { XDG_CONFIG_HOME: dir.path });
    assert.equal(code, 2);
    assert.equal(stderr, `gai: config file ${config}: mcpServers.notes.args: expected an array of strings, got "server.js"\n`);
  });
});
