import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wordError } from '../../src/vscode/setup/errorWording';
import { parseSettings } from '../../src/vscode/settings';

// gai.mcpServers: the VS Code setting of the MCP servers GAI's agent uses.

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { configuration: Array<{ properties: Record<string, { default?: unknown; additionalProperties?: { properties?: Record<string, unknown> } }> }> };
};
const declared = manifest.contributes.configuration.map((section) => section.properties['gai.mcpServers']).find(Boolean);

describe('MCP client: the gai.mcpServers setting', () => {
  it('is declared in package.json with the fields of a server entry', () => {
    assert.ok(declared, 'gai.mcpServers is contributed');
    assert.deepEqual(declared.default, {});
    const fields = Object.keys(declared.additionalProperties?.properties ?? {}).sort();
    assert.deepEqual(fields, ['args', 'command', 'cwd', 'disabled', 'env', 'headers', 'timeoutSeconds', 'type', 'url']);
  });

  it('is read into server entries', () => {
    const settings = parseSettings((key) => (key === 'mcpServers' ? { notes: { command: 'node', args: ['server.js'], timeoutSeconds: 10 } } : undefined));
    assert.equal(settings.mcpServers.length, 1);
    assert.equal(settings.mcpServers[0]?.name, 'notes');
    assert.equal(settings.mcpServers[0]?.timeoutMs, 10_000);
  });

  it('a bad entry names the setting, the server and the field, and the error links to the setting', () => {
    let caught: unknown;
    try {
      parseSettings((key) => (key === 'mcpServers' ? { notes: { command: 'node', args: 'server.js' } } : undefined));
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof Error);
    assert.equal(caught.message, 'Setting gai.mcpServers: notes.args: expected an array of strings, got "server.js"');
    const worded = wordError(caught, { provider: 'anthropic', attempts: 1 });
    assert.deepEqual(worded.actions, [{ kind: 'openSetting', setting: 'gai.mcpServers' }]);
  });
});
