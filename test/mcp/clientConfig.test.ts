import assert from 'node:assert/strict';
import { parseMcpServers } from '../../src/mcp/client/clientConfig';
import { MAX_TOOL_NAME_CHARS, mcpToolName } from '../../src/mcp/client/clientNames';

describe('MCP client: configured servers and tool names', () => {
  it('reads the Claude Desktop / Cursor shape: command servers and url servers', () => {
    const entries = parseMcpServers(
      {
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' }, timeoutSeconds: 5 },
        web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        off: { command: 'nothing', disabled: true },
      },
      'gai.mcpServers',
    );
    assert.equal(entries.length, 2, 'the disabled one is left out');
    const [files, web] = entries;
    assert.equal(files?.transport, 'stdio');
    assert.equal(files?.timeoutMs, 5_000);
    assert.deepEqual(files?.transport === 'stdio' ? files.args : [], ['-y', '@modelcontextprotocol/server-filesystem', '/tmp']);
    assert.equal(web?.transport, 'http');
    assert.equal(web?.timeoutMs, 60_000, '60 s by default');
    assert.equal(web?.transport === 'http' ? web.url.href : '', 'https://example.com/mcp');
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['not an object', [], /^gai\.mcpServers: expected an object/],
    ['an entry that is a string', { files: 'npx' }, /^gai\.mcpServers\.files: expected an object with "command" or "url"/],
    ['neither command nor url', { files: { args: [] } }, /^gai\.mcpServers\.files: needs "command".*or "url"/],
    ['both command and url', { files: { command: 'a', url: 'http://x' } }, /^gai\.mcpServers\.files: has both "command" and "url"/],
    ['an empty command', { files: { command: ' ' } }, /^gai\.mcpServers\.files\.command: expected a non-empty string/],
    ['args not an array', { files: { command: 'a', args: '-y' } }, /^gai\.mcpServers\.files\.args: expected an array of strings/],
    ['an arg not a string', { files: { command: 'a', args: ['x', 2] } }, /^gai\.mcpServers\.files\.args\[1\]: expected a string, got number 2/],
    ['an env value not a string', { files: { command: 'a', env: { PORT: 80 } } }, /^gai\.mcpServers\.files\.env\.PORT: expected a string/],
    ['a relative cwd', { files: { command: 'a', cwd: 'sub' } }, /^gai\.mcpServers\.files\.cwd: expected an absolute folder/],
    ['a url that is no http url', { web: { url: 'ftp://x' } }, /^gai\.mcpServers\.web\.url: expected an http:\/\/ or https:\/\/ address/],
    ['a negative timeout', { web: { url: 'http://x', timeoutSeconds: -1 } }, /^gai\.mcpServers\.web\.timeoutSeconds: expected a number of seconds/],
    ['a typo in a field', { files: { command: 'a', arg: [] } }, /^gai\.mcpServers\.files\.arg: unknown field/],
    ['headers on a command server', { files: { command: 'a', headers: {} } }, /^gai\.mcpServers\.files\.headers: unknown field for a stdio/],
    ['the SSE transport', { web: { type: 'sse', url: 'http://x' } }, /^gai\.mcpServers\.web\.type: the old SSE transport is not supported/],
  ];
  for (const [what, value, expected] of bad) {
    it(`refuses ${what}, naming the server and the field`, () => {
      assert.throws(() => parseMcpServers(value, 'gai.mcpServers'), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONFIG');
        assert.match(error.message, expected);
        return true;
      });
    });
  }

  it('names tools <server>__<tool> in the model alphabet, within 64 characters, without clashes', () => {
    const none = (): boolean => false;
    assert.equal(mcpToolName('files', 'read_file', none), 'files__read_file');
    assert.equal(mcpToolName('my files.v2', 'read/file', none), 'my_files_v2__read_file');
    const long = mcpToolName('a-server-with-a-rather-long-name', 'and_a_tool_whose_name_is_long_as_well_too', none);
    assert.ok(long.length <= MAX_TOOL_NAME_CHARS, long);
    assert.match(long, /^a-server-with-a-rather-long-name__and_a_tool.*_[0-9a-f]{8}$/);
    assert.equal(mcpToolName('a-server-with-a-rather-long-name', 'and_a_tool_whose_name_is_long_as_well_too', none), long, 'stable');
    const taken = new Set(['x__a_b']);
    const other = mcpToolName('x', 'a.b', (name) => taken.has(name));
    assert.notEqual(other, 'x__a_b');
    assert.match(other, /^[A-Za-z0-9_-]{1,64}$/);
  });
});
